// Task list files as Claude Code 2.1.332 writes them (docs/claude-contract.md#tasks), in real temp
// dirs, and the engine's board kept live through its folder watch.
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../shared/contract.js';
import type { TaskBoard } from '../../shared/types.js';
import { useTempDirs } from '../../../test/helpers/tmp.js';
import { TeamService } from '../service/team-service.js';
import { isTaskFileName, MAX_TASK_FILE_BYTES, parseTask, TaskListReader, homeAsTilde, taskListName } from './tasks.js';

const tempDir = useTempDirs();
let svc: TeamService | undefined;
afterEach(async () => {
  await svc?.stop();
  svc = undefined;
});

const task = (id: string, extra: Record<string, unknown> = {}) => JSON.stringify({ id, subject: `Task ${id}`, description: `Do ${id}`, status: 'pending', blocks: [], blockedBy: [], ...extra });

describe('task files', () => {
  it('parses what TaskCreate writes, drops unknown fields and names the field that is wrong', () => {
    expect(parseTask(task('1', { activeForm: 'Doing 1', owner: 'researcher', metadata: { a: 1 }, extra: true }))).toEqual({
      task: { id: '1', subject: 'Task 1', description: 'Do 1', activeForm: 'Doing 1', owner: 'researcher', status: 'pending', blocks: [], blockedBy: [] },
    });
    expect(parseTask('{"id":"2","subject":"s","status":"pending"}')).toEqual({ task: { id: '2', subject: 's', status: 'pending', blocks: [], blockedBy: [] } });
    expect(parseTask(task('3', { status: 'done' }))).toEqual({ problem: expect.stringMatching(/^not a task: status: /) });
    expect(parseTask('{"id":"4"')).toEqual({ problem: 'not valid JSON' });
    expect(parseTask('[1]')).toEqual({ problem: expect.stringMatching(/^not a task/) });
  });

  it('sanitises the list name like inboxes and ignores locks, the high-water mark and temp files', () => {
    expect(taskListName('session-cc4ff1d9')).toBe('session-cc4ff1d9');
    expect(taskListName('My Team/x.y')).toBe('My-Team-x-y');
    expect(['1.json', '12.json'].every(isTaskFileName)).toBe(true);
    expect(['.lock', '.highwatermark', '1.json.lock', '1.json.tmp.a1b2c3d4', '.1.json', 'notes.txt'].some(isTaskFileName)).toBe(false);
  });

  it('reads a board in id order; a bad, huge or linked file is a problem naming it and the others still show', async () => {
    const config = await tempDir();
    const list = join(config, 'tasks', 'team-a');
    await mkdir(join(list, '2.json.lock'), { recursive: true });
    await writeFile(join(list, '10.json'), task('10', { status: 'completed', owner: 'writer' }));
    await writeFile(join(list, '2.json'), task('2', { status: 'in_progress', blockedBy: ['1'] }));
    await writeFile(join(list, '1.json'), task('1', { blocks: ['2'] }));
    await writeFile(join(list, '3.json'), '{"id":"3","subject":');
    await writeFile(join(list, '4.json'), task('4', { pad: 'x'.repeat(MAX_TASK_FILE_BYTES) }));
    await writeFile(join(config, 'elsewhere.json'), task('99'));
    await symlink(join(config, 'elsewhere.json'), join(list, '5.json'));
    await writeFile(join(list, '.lock'), '');
    await writeFile(join(list, '.highwatermark'), '10');
    await writeFile(join(list, '6.json.tmp.deadbeef'), '{');
    const board = await new TaskListReader(config, 'team-a').read();
    expect(board.exists).toBe(true);
    expect(board.tasks.map((t) => [t.id, t.status])).toEqual([['1', 'pending'], ['2', 'in_progress'], ['10', 'completed']]);
    expect(board.problems.map((p) => [p.file, p.message])).toEqual([
      ['tasks/team-a/3.json', 'not valid JSON'],
      ['tasks/team-a/4.json', expect.stringMatching(/bytes; at most 1048576 are read$/)],
      ['tasks/team-a/5.json', 'is a symbolic link; not followed'],
    ]);
  });

  it('names its folder as a person reads it: the home folder as ~ (issue 28, item 9)', () => {
    expect(homeAsTilde('/home/me/.claude/tasks/alpha', '/home/me')).toBe('~/.claude/tasks/alpha');
    expect(homeAsTilde('/tmp/teamdeck-demo-x/tasks/alpha', '/home/me')).toBe('/tmp/teamdeck-demo-x/tasks/alpha');
    expect(homeAsTilde('/home/meow/tasks', '/home/me')).toBe('/home/meow/tasks');
  });

  it('a missing folder, or a list folder that is a link, is no board', async () => {
    const config = await tempDir();
    expect(await new TaskListReader(config, 'nope').read()).toEqual({ team: 'nope', list: 'nope', folder: join(config, 'tasks', 'nope'), exists: false, tasks: [], problems: [] });
    await mkdir(join(config, 'tasks'));
    await mkdir(join(config, 'real'));
    await writeFile(join(config, 'real', '1.json'), task('1'));
    await symlink(join(config, 'real'), join(config, 'tasks', 'linked'));
    const b = await new TaskListReader(config, 'linked').read();
    expect(b).toMatchObject({ exists: false, tasks: [], problems: [{ file: 'tasks/linked', message: 'is a symbolic link; not followed' }] });
  });

  it('the engine shows a task created, updated (temp file + rename) and deleted within 1 s, as tasks events', async () => {
    const config = await tempDir();
    const teams = join(config, 'teams');
    await mkdir(join(teams, 'alpha', 'inboxes'), { recursive: true });
    await writeFile(join(teams, 'alpha', 'config.json'), JSON.stringify({ name: 'alpha', members: [{ name: 'team-lead', agentType: 'team-lead' }, { name: 'researcher' }] }));
    const list = join(config, 'tasks', 'alpha');
    await mkdir(list, { recursive: true });
    // A long rescan: only the folder watch can make it within a second.
    svc = new TeamService({ teamsRoot: teams, stateDir: join(config, 'state'), rescanMs: 60_000 });
    const boards: TaskBoard[] = [];
    svc.onEvent((e: AppEvent) => e.type === 'tasks' && boards.push(e.board));
    await svc.start();
    // The folder named is the one read, under this team's config dir, not ~/.claude (issue 28, item 9).
    expect(await svc.tasks('alpha')).toEqual({ team: 'alpha', list: 'alpha', folder: list, exists: true, tasks: [], problems: [] });
    const shows = async (pred: (b: TaskBoard) => boolean) => {
      const t0 = Date.now();
      while (!boards.some(pred)) {
        if (Date.now() - t0 > 1_000) throw new Error(`not shown within 1 s; boards: ${JSON.stringify(boards)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return Date.now() - t0;
    };
    await writeFile(join(list, '1.json'), task('1'));
    await shows((b) => b.tasks.length === 1 && b.tasks[0]!.status === 'pending');
    await writeFile(join(list, '1.json.tmp.0badf00d'), task('1', { status: 'in_progress', owner: 'researcher' }));
    await rename(join(list, '1.json.tmp.0badf00d'), join(list, '1.json'));
    await shows((b) => b.tasks[0]?.status === 'in_progress' && b.tasks[0].owner === 'researcher');
    await writeFile(join(list, '2.json'), '{"id":');
    await shows((b) => b.problems.some((p) => p.file === 'tasks/alpha/2.json'));
    await rm(join(list, '1.json'));
    await rm(join(list, '2.json'));
    await shows((b) => b.tasks.length === 0 && b.problems.length === 0);
    expect(await svc.tasks('alpha')).toMatchObject({ exists: true, tasks: [] });
  });
});
