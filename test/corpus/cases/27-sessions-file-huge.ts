import { expect } from 'vitest';
import type { CorpusCase } from '../types.js';
import { activityOf, LIVE_TEAM, liveTeam, session, writeSession } from '../live-build.js';

export const corpusCase: CorpusCase = {
  name: "a lead's sessions file of 20 MB",
  expected: 'tolerant: not read past 64 KB (a real one is under 1 KB); the lead has no session status, nothing needs you, and the answer is fast',
  setup: async (env) => {
    await liveTeam(env);
    await writeSession(env, JSON.stringify(session({ status: 'waiting', waitingFor: 'permission prompt', pad: 'x'.repeat(20 * 1024 * 1024) })));
  },
  expect: [{ listed: LIVE_TEAM, present: true }],
  after: async (ctx) => {
    const t0 = Date.now();
    expect(await activityOf(ctx, 'team-lead')).toEqual({ member: 'team-lead', kind: 'unknown', sources: [] });
    expect(await ctx.svc.needs()).toEqual([]);
    const ms = Date.now() - t0;
    expect(ms).toBeLessThan(1_000);
    return `not read (answered in ${ms < 50 ? '<50' : ms} ms)`;
  },
};
