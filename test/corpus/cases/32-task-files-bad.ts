import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { CorpusCase } from '../types.js';
import { LIVE_TEAM, liveTeam } from '../live-build.js';

const task = (id: string, extra: Record<string, unknown> = {}) => JSON.stringify({ id, subject: `Task ${id}`, description: '', status: 'pending', blocks: [], blockedBy: [], ...extra });

export const corpusCase: CorpusCase = {
  name: 'task files that are invalid, huge or symlinks pointing outside',
  expected: 'each a problem naming its file ("not valid JSON", "not a task: status", "is 3145767 bytes; at most 1048576 are read", "is a symbolic link; not followed"); the good tasks still show; a task list folder that is a link is no board',
  setup: async (env) => {
    await liveTeam(env);
    const list = join(env.base, 'tasks', LIVE_TEAM);
    await mkdir(list, { recursive: true });
    await writeFile(join(list, '1.json'), task('1', { owner: 'researcher' }));
    await writeFile(join(list, '2.json'), '{"id":"2","subject":"tor');
    await writeFile(join(list, '3.json'), task('3', { status: 'finished' }));
    await writeFile(join(list, '4.json'), task('4', { pad: 'x'.repeat(3 * 1024 * 1024) }));
    await writeFile(join(env.outside, 'task.json'), task('5', { subject: 'secret task from outside' }));
    await symlink(join(env.outside, 'task.json'), join(list, '5.json'));
    await writeFile(join(list, '.lock'), '');
    await writeFile(join(list, '.highwatermark'), '5');
    // The control team's list is a link to a folder outside.
    await mkdir(join(env.outside, 'tasks-control'));
    await writeFile(join(env.outside, 'tasks-control', '1.json'), task('1', { subject: 'secret from outside' }));
    await symlink(join(env.outside, 'tasks-control'), join(env.base, 'tasks', 'control'));
  },
  expect: [{ listed: LIVE_TEAM, present: true }],
  after: async (ctx) => {
    const board = await ctx.svc.tasks(LIVE_TEAM);
    expect(board.tasks.map((t) => t.id)).toEqual(['1']);
    expect(board.problems.map((p) => [p.file, p.message])).toEqual([
      [`tasks/${LIVE_TEAM}/2.json`, 'not valid JSON'],
      [`tasks/${LIVE_TEAM}/3.json`, expect.stringMatching(/^not a task: status: /)],
      [`tasks/${LIVE_TEAM}/4.json`, expect.stringMatching(/bytes; at most 1048576 are read$/)],
      [`tasks/${LIVE_TEAM}/5.json`, 'is a symbolic link; not followed'],
    ]);
    expect(JSON.stringify(board)).not.toContain('secret');
    const control = await ctx.svc.tasks('control');
    expect(control).toMatchObject({ exists: false, tasks: [], problems: [{ file: 'tasks/control', message: 'is a symbolic link; not followed' }] });
    return '4 problems naming their files, 1 task shown; a linked list folder is no board';
  },
};
