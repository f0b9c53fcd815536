import { expect } from 'vitest';
import type { CorpusCase } from '../types.js';
import { activityOf, jsonl, LIVE_TEAM, liveTeam, researcherTx, rows, writeTranscript } from '../live-build.js';

export const corpusCase: CorpusCase = {
  name: 'a transcript with a 5 MB line',
  expected: 'tolerant: the 5 MB line (a pasted file in a tool result) is skipped; the rows around it read: the call it answered stays in flight, the turn end after it makes the member idle; a timeline result is never longer than a few KB',
  setup: async (env) => {
    await liveTeam(env, { leadTranscript: true });
    const big = rows.result('t1', 'y'.repeat(5 * 1024 * 1024));
    const fine = rows.result('t2', 'z'.repeat(100_000));
    await writeTranscript(researcherTx(env), jsonl([rows.prompt('go'), rows.call('t1', 'Read', { file_path: '/home/dev/project/big.log' }), big, rows.call('t2', 'Read', { file_path: '/home/dev/project/mid.log' }), fine]));
  },
  expect: [{ listed: LIVE_TEAM, present: true }],
  after: async (ctx) => {
    expect(await activityOf(ctx, 'researcher')).toMatchObject({ kind: 'working', tool: { name: 'Read', summary: '/home/dev/project/big.log' } });
    const items = await ctx.svc.timeline(LIVE_TEAM, 'researcher');
    expect(items.map((i) => i.kind)).toEqual(['prompt', 'tool-call', 'tool-call', 'tool-result']);
    expect(items[3]!.text.length).toBeLessThan(4_100);
    return 'the 5 MB line skipped; a 100 KB result cut to 4,000 characters';
  },
};
