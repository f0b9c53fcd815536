// A valid value of every kind of argument the contract's calls take (src/shared/contract.ts),
// so a test can make a well-formed call of every call in the table, one added later included.
// A kind added to the contract without a sample here does not compile.
import type { ArgKind, ArgSpec, ArgTypes } from '../../src/shared/contract';

export const SAMPLE_ARGS: { readonly [K in ArgKind]: ArgTypes[K] } = {
  team: 'alpha',
  member: 'researcher',
  timelineLimit: 50,
  sendRequest: { team: 'alpha', to: 'researcher', text: 'hello' },
  settingsPatch: { idleMinutes: 5 },
  url: 'https://example.com/docs',
  launchRequest: { cwd: '/projects/alpha' },
  terminalId: 't-0123456789ab',
  cols: 80,
  rows: 24,
  terminalInput: 'ls\r',
  exportRequest: { team: 'alpha', format: 'md' },
  searchRequest: { query: 'hello' },
  usageRequest: { team: 'alpha' },
  budgetRequest: { team: 'alpha', usd: 5 },
  priceTable: { 'claude-opus-4-5': { inputPerMTok: 5, outputPerMTok: 25, cacheWritePerMTok: 6.25, cacheReadPerMTok: 0.5 } },
  answerRequest: { need: 'permission:alpha:researcher:toolu_01', choice: 'deny', reason: 'use the test database' },
  planAnswerRequest: { need: 'plan:alpha:plan-1@researcher', approve: true },
};

/** Well-formed arguments for these kinds, the optional ones given too. */
export function sampleArgs(kinds: readonly ArgSpec[]): unknown[] {
  return kinds.map((kind) => SAMPLE_ARGS[kind.replace(/\?$/, '') as ArgKind]);
}
