import { expect } from 'vitest';
import type { CorpusCase } from '../types.js';
import { activityOf, jsonl, LIVE_TEAM, liveTeam, researcherTx, rows, writeTranscript } from '../live-build.js';

export const corpusCase: CorpusCase = {
  name: 'a transcript with torn lines, invalid JSON and non-objects',
  expected: 'tolerant: every bad line is skipped; the call in flight is read from the good rows (working: Bash npm test), the timeline holds only the good rows, and a torn last line counts once it is whole',
  setup: async (env) => {
    await liveTeam(env, { leadTranscript: true });
    const good = jsonl([rows.prompt('<teammate-message teammate_id="team-lead">\nrun the tests\n</teammate-message>'), rows.call('t1', 'Bash', { command: 'npm test' })]);
    await writeTranscript(researcherTx(env), `{"type":"user","mess\n${good}[1,2,3]\n"a string"\nnull\n{not json}\n\u0000\u0000\n{"type":"assistant","message":{"content":[{"type":"tool_result"`);
  },
  expect: [{ listed: LIVE_TEAM, present: true }],
  after: async (ctx) => {
    expect(await activityOf(ctx, 'researcher')).toMatchObject({ kind: 'working', tool: { name: 'Bash', summary: 'npm test' }, sources: ['transcript'] });
    const items = await ctx.svc.timeline(LIVE_TEAM, 'researcher');
    expect(items.map((i) => [i.kind, i.text])).toEqual([
      ['received', 'run the tests'],
      ['tool-call', 'npm test'],
    ]);
    return 'bad lines skipped: working on Bash npm test, 2 timeline items';
  },
};
