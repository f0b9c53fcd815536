import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { CorpusCase } from '../types.js';
import { activityOf, LIVE_TEAM, liveTeam, session, sessionsDir, writeSession } from '../live-build.js';

export const corpusCase: CorpusCase = {
  name: "a lead's sessions file that is torn, not JSON, or not a sessions file",
  expected: "tolerant: a torn file (half a rewrite) gives no status until it is whole, then the status reads; files of the wrong shape or not JSON in the folder are skipped; no needs, the lead's activity without a session source",
  setup: async (env) => {
    await liveTeam(env);
    const whole = JSON.stringify(session({ status: 'waiting', waitingFor: 'permission prompt' }));
    await writeSession(env, whole.slice(0, Math.floor(whole.length / 2)));
    await writeFile(join(sessionsDir(env), '1.json'), '\u0000\u0001 not json');
    await writeFile(join(sessionsDir(env), '2.json'), JSON.stringify([{ pid: 2 }]));
    await writeFile(join(sessionsDir(env), '3.json'), JSON.stringify({ pid: 'three', sessionId: 7 }));
  },
  expect: [{ listed: LIVE_TEAM, present: true }],
  after: async (ctx) => {
    const lead = await activityOf(ctx, 'team-lead');
    expect(lead).toEqual({ member: 'team-lead', kind: 'unknown', sources: [] });
    expect(await ctx.svc.needs()).toEqual([]);
    // The rewrite completes (in place): now it reads.
    await writeSession(ctx, JSON.stringify(session({ status: 'waiting', waitingFor: 'permission prompt' })));
    expect(await activityOf(ctx, 'team-lead')).toMatchObject({ kind: 'waiting', waitingFor: "a permission answer in the lead's terminal", sources: ['session'] });
    expect((await ctx.svc.needs()).map((n) => n.kind)).toEqual(['permission']);
    // Torn again: the last good copy is kept.
    await writeSession(ctx, '{"pid":');
    expect(await activityOf(ctx, 'team-lead')).toMatchObject({ kind: 'waiting', sources: ['session'] });
    return 'torn: no status, then the whole file reads, a torn rewrite keeps the last good copy; odd files skipped';
  },
};
