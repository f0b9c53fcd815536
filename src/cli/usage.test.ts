// `teamdeck usage` and `teamdeck budget`: the real command in child processes, with no engine
// running, over a live copy of a team captured from Claude Code 2.1.332 in real temp dirs. The
// expected sums are worked out here from the captured transcripts, each message id once.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CAPTURED_TEAM as TEAM, CAPTURED_TX, liveCapturedTeam } from '../../test/helpers/captured-team.js';
import { runCli, type Done } from '../../test/helpers/cli-kit.js';

let dir: string;
let config: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'teamdeck-cli-usage-'));
  config = join(dir, '.claude');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function run(args: string[]): Promise<Done> {
  return runCli([...args, '--teams-dir', join(config, 'teams'), '--state-dir', join(dir, 'state')]);
}

/** Each message id once: input, output, cache write and read, over one transcript. */
async function sums(file: string): Promise<{ messages: number; inputTokens: number; outputTokens: number; cacheWriteTokens: number; cacheReadTokens: number }> {
  const byId = new Map<string, Record<string, number>>();
  for (const line of (await readFile(join(config, file), 'utf8')).split('\n')) {
    if (!line) continue;
    const r = JSON.parse(line) as { type?: string; message?: { id?: string; model?: string; usage?: Record<string, number> } };
    if (r.type === 'assistant' && r.message?.id && r.message.usage && r.message.model !== '<synthetic>') byId.set(r.message.id, r.message.usage);
  }
  const s = { messages: byId.size, inputTokens: 0, outputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0 };
  for (const u of byId.values()) {
    s.inputTokens += u.input_tokens ?? 0;
    s.outputTokens += u.output_tokens ?? 0;
    s.cacheWriteTokens += u.cache_creation_input_tokens ?? 0;
    s.cacheReadTokens += u.cache_read_input_tokens ?? 0;
  }
  return s;
}

describe('teamdeck usage', () => {
  it('prints the contract JSON for a team: per member the transcripts\' sums, each message once', async () => {
    await liveCapturedTeam(config);
    const r = await run(['usage', '--team', TEAM, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const u = JSON.parse(r.stdout) as { team: string; members: Array<Record<string, unknown>>; total: Record<string, unknown> };
    expect(Object.keys(u).filter((k) => k !== 'claudeTotalUsd')).toEqual(['team', 'members', 'total']);
    expect(u.team).toBe(TEAM);
    for (const [member, file] of Object.entries(CAPTURED_TX)) {
      const m = u.members.find((x) => x.member === member);
      const want = await sums(file);
      if (want.messages === 0) continue;
      expect(m, member).toMatchObject(want);
      expect(Object.keys(m!)).toEqual(['member', 'model', 'messages', 'inputTokens', 'outputTokens', 'cacheWriteTokens', 'cacheReadTokens', 'costUsd']);
    }
    expect(u.total.messages as number).toBeGreaterThan(0);
    const total = u.members.reduce((n, m) => n + (m.inputTokens as number), 0);
    expect(u.total.inputTokens).toBe(total);
    const human = await run(['usage', '--team', TEAM]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`${TEAM}: `);
    expect(human.stdout).toMatch(/^member +model +replies/m);
  });

  it('lists every team with the days without --team, and refuses a bad day or a bad budget in one line', async () => {
    await liveCapturedTeam(config);
    const all = await run(['usage', '--json']);
    expect(all.code, all.stderr).toBe(0);
    const u = JSON.parse(all.stdout) as { teams: Array<{ team: string }>; days: Array<{ date: string; costUsd: number | null; inputTokens: number; outputTokens: number }> };
    expect(u.teams.map((t) => t.team)).toEqual([TEAM]);
    expect(u.days.length).toBeGreaterThan(0);
    expect(Object.keys(u.days[0]!)).toEqual(['date', 'costUsd', 'inputTokens', 'outputTokens']);
    const since = await run(['usage', '--since', '2999-01-01', '--json']);
    expect(JSON.parse(since.stdout)).toMatchObject({ days: [] });
    const bad = await run(['usage', '--since', 'yesterday']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since takes a day, YYYY-MM-DD');
    const badBudget = await run(['budget', '--usd', '5']);
    expect(badBudget.code).toBe(2);
    expect(badBudget.stderr).toContain('add --team T');
    const unknown = await run(['budget', '--team', 'nope', '--usd', '5']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no team "nope"');
  });

  it('sets and clears budgets, kept in the state folder', async () => {
    await liveCapturedTeam(config);
    const set = await run(['budget', '--team', TEAM, '--usd', '0.000001', '--json']);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ teams: { [TEAM]: 0.000001 } });
    const daily = await run(['budget', '--daily-usd', '25']);
    expect(daily.stdout).toContain('Daily budget across all teams: $25.00');
    expect(JSON.parse(await readFile(join(dir, 'state', 'budgets.json'), 'utf8'))).toMatchObject({ teams: { [TEAM]: 0.000001 }, dailyUsd: 25 });
    const cleared = await run(['budget', '--team', TEAM, '--clear', '--json']);
    expect(JSON.parse(cleared.stdout)).toEqual({ teams: {}, dailyUsd: 25 });
  });
});
