import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { CorpusCase } from '../types.js';
import { activityOf, jsonl, leadTx, LIVE_TEAM, liveTeam, researcherTx, rows, subagentsDir } from '../live-build.js';

export const corpusCase: CorpusCase = {
  name: "a member's transcript that is a symlink pointing outside",
  expected: 'not followed: nothing the linked file holds shows (no activity, no timeline items) for a teammate\'s transcript and for the lead\'s',
  setup: async (env) => {
    await liveTeam(env);
    const secret = jsonl([rows.prompt('secret prompt from outside'), rows.call('t9', 'Bash', { command: 'cat /etc/shadow' })]);
    await writeFile(join(env.outside, 'transcript.jsonl'), secret);
    await mkdir(subagentsDir(env), { recursive: true });
    await symlink(join(env.outside, 'transcript.jsonl'), researcherTx(env));
    await symlink(join(env.outside, 'transcript.jsonl'), leadTx(env));
  },
  expect: [{ listed: LIVE_TEAM, present: true }],
  after: async (ctx) => {
    for (const m of ['team-lead', 'researcher']) {
      expect(await activityOf(ctx, m)).toEqual({ member: m, kind: 'unknown', sources: [] });
      expect(await ctx.svc.timeline(LIVE_TEAM, m)).toEqual([]);
    }
    return 'linked transcripts not followed: no activity, empty timelines';
  },
};
