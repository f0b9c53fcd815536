import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { CorpusCase } from '../types.js';
import { activityOf, LIVE_TEAM, liveTeam, session, sessionFile, sessionsDir } from '../live-build.js';

export const corpusCase: CorpusCase = {
  name: 'a sessions file, or the sessions folder, that is a symlink pointing outside',
  expected: 'not followed: the waiting status the linked file holds is never shown (no activity from it, no needs), for a linked file and for a linked folder',
  setup: async (env) => {
    await liveTeam(env);
    await writeFile(join(env.outside, 'session.json'), JSON.stringify(session({ status: 'waiting', waitingFor: 'permission prompt' })));
    await mkdir(sessionsDir(env));
    await symlink(join(env.outside, 'session.json'), sessionFile(env));
    // A whole folder outside, holding the lead's file by its pid, for the second half.
    await mkdir(join(env.outside, 'sessions'));
    await writeFile(join(env.outside, 'sessions', `${process.pid}.json`), JSON.stringify(session({ status: 'waiting', waitingFor: 'dialog open' })));
  },
  expect: [{ listed: LIVE_TEAM, present: true }],
  after: async (ctx) => {
    expect(await activityOf(ctx, 'team-lead')).toEqual({ member: 'team-lead', kind: 'unknown', sources: [] });
    expect(await ctx.svc.needs()).toEqual([]);
    // The sessions folder itself a link outside.
    await rename(sessionsDir(ctx), join(ctx.base, 'sessions-was'));
    await symlink(join(ctx.outside, 'sessions'), sessionsDir(ctx));
    expect(await activityOf(ctx, 'team-lead')).toEqual({ member: 'team-lead', kind: 'unknown', sources: [] });
    expect(await ctx.svc.needs()).toEqual([]);
    // Put the folder back as it was, so the case leaves the listing of base unchanged.
    await rm(sessionsDir(ctx));
    await rename(join(ctx.base, 'sessions-was'), sessionsDir(ctx));
    return 'a linked sessions file and a linked sessions folder: not followed';
  },
};
