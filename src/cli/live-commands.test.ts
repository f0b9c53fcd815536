// `teamdeck activity`, `tasks` and `needs`: the real command in child processes, over a live
// copy of the team captured from Claude Code 2.1.332 in real temp dirs.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemberActivity, NeedItem, TaskBoard } from '../shared/types.js';
import { CAPTURED_TEAM as TEAM, CAPTURED_TX, liveCapturedTeam, writeSessionVersion } from '../../test/helpers/captured-team.js';
import { runCli, spawnWatch, type Done } from '../../test/helpers/cli-kit.js';

let dir: string;
let config: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'teamdeck-cli-live-'));
  config = join(dir, '.claude');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function run(args: string[]): Promise<Done> {
  return runCli([...args, '--teams-dir', join(config, 'teams'), '--state-dir', join(dir, 'state')]);
}

describe('teamdeck activity', () => {
  it('prints MemberActivity[] with --json and one line per member otherwise', async () => {
    // The writer's Bash call is in flight (its transcript cut after the call); the lead is busy.
    await liveCapturedTeam(config, { config: 3, session: 3 });
    const lines = (await readFile(join(config, CAPTURED_TX.writer), 'utf8')).split('\n');
    const call = lines.findIndex((l) => l.includes('"type":"assistant"') && l.includes('"name":"Bash"'));
    await writeFile(join(config, CAPTURED_TX.writer), lines.slice(0, call + 1).join('\n') + '\n');
    // The lead's transcript before the writer's shutdown_approved (which the team's record reads as its shutdown).
    const lead = (await readFile(join(config, CAPTURED_TX['team-lead']), 'utf8')).split('\n');
    await writeFile(join(config, CAPTURED_TX['team-lead']), lead.slice(0, lead.findIndex((l) => l.includes('shutdown_approved'))).join('\n') + '\n');
    const json = await run(['activity', '--team', TEAM, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const activity = JSON.parse(json.stdout) as MemberActivity[];
    expect(activity.map((a) => [a.member, a.kind])).toEqual([
      ['team-lead', 'idle'],
      ['researcher', 'idle'],
      ['writer', 'working'],
    ]);
    expect(activity[2]).toEqual({ member: 'writer', kind: 'working', since: Date.parse('2026-12-01T11:21:55.803Z'), tool: { name: 'Bash', summary: 'sleep 3; echo writer-bash-done', since: Date.parse('2026-12-01T11:21:55.803Z') }, sources: ['transcript'], stop: { available: false, reason: expect.stringMatching(/no safe way to stop one teammate's turn/) } });
    const human = await run(['activity', '--team', TEAM]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^writer {6}working · Bash: sleep 3; echo writer-bash-done · \d+ (s|min|h|d)/m);
    expect(human.stdout).toMatch(/^researcher {2}idle · \d+/m);
    expect(human.stdout).toContain('last said: The answer is 42.');
  });

  it('exits 2 with one line for an unknown team or a missing --team; --help exits 0', async () => {
    await liveCapturedTeam(config);
    const unknown = await run(['activity', '--team', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toEqual([expect.stringContaining('no team "nope"')]);
    const missing = await run(['activity']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--team is required');
    for (const c of ['activity', 'tasks', 'needs']) {
      const help = await run([c, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`usage: teamdeck ${c}`);
    }
  });
});

describe('teamdeck tasks', () => {
  it('prints the TaskBoard with --json, a table otherwise, and says why an empty board is empty', async () => {
    await liveCapturedTeam(config);
    const empty = await run(['tasks', '--team', TEAM]);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toContain("No tasks in tasks/session-cc4ff1d9 for session-cc4ff1d9. Claude's task tools are off by default");
    const list = join(config, 'tasks', TEAM);
    await writeFile(join(list, '1.json'), JSON.stringify({ id: '1', subject: 'Find the bug', description: 'in auth', activeForm: 'Finding the bug', owner: 'researcher', status: 'in_progress', blocks: ['2'], blockedBy: [] }));
    await writeFile(join(list, '2.json'), JSON.stringify({ id: '2', subject: 'Fix it', description: '', status: 'pending', blocks: [], blockedBy: ['1'] }));
    await writeFile(join(list, '3.json'), '{"id":"3"');
    const json = await run(['tasks', '--team', TEAM, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const board = JSON.parse(json.stdout) as TaskBoard;
    expect(board).toEqual({
      team: TEAM,
      list: TEAM,
      folder: list,
      exists: true,
      tasks: [
        { id: '1', subject: 'Find the bug', description: 'in auth', activeForm: 'Finding the bug', owner: 'researcher', status: 'in_progress', blocks: ['2'], blockedBy: [] },
        { id: '2', subject: 'Fix it', description: '', status: 'pending', blocks: [], blockedBy: ['1'] },
      ],
      problems: [{ kind: 'config', file: `tasks/${TEAM}/3.json`, message: 'not valid JSON' }],
    });
    const human = await run(['tasks', '--team', TEAM]);
    expect(human.stdout).toMatch(/^1 +in progress \(Finding the bug\) +researcher +Find the bug +-$/m);
    expect(human.stdout).toMatch(/^2 +pending +- +Fix it +1$/m);
    expect(human.stdout).toContain(`tasks/${TEAM}/3.json: not valid JSON`);
  });
});

describe('teamdeck needs', () => {
  it('prints NeedItem[] with --json: the lead waiting on a permission prompt, and an orphan inbox', async () => {
    await liveCapturedTeam(config, { config: 4 });
    const askedAt = Date.now() - 42_000;
    await writeSessionVersion(config, 11, process.pid, { status: 'waiting', waitingFor: 'permission prompt', statusUpdatedAt: askedAt });
    await writeFile(join(config, 'teams', TEAM, 'inboxes', 'reseacher.json'), JSON.stringify([{ from: 'teamdeck', text: 'typo', timestamp: '2026-12-01T11:30:00.000Z', read: false }]));
    const json = await run(['needs', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const needs = JSON.parse(json.stdout) as NeedItem[];
    expect(needs).toEqual([
      // The "lead" is this test's process, not Claude Code: Teamdeck will not answer for it, and says why.
      { id: `permission:${TEAM}:team-lead`, kind: 'permission', team: TEAM, member: 'team-lead', title: 'team-lead waits for a permission answer', detail: "Answer it in the lead's terminal (team-lead).", since: askedAt, answer: { available: false, reason: expect.stringMatching(/is not Claude Code|not running as this user|only on Linux/) } },
      { id: `orphan-inbox:${TEAM}:reseacher`, kind: 'orphan-inbox', team: TEAM, title: '1 message in inboxes/reseacher.json, which no member reads', detail: expect.any(String), since: Date.parse('2026-12-01T11:30:00.000Z'), orphan: { inbox: 'reseacher', messages: 1 } },
    ]);
    const human = await run(['needs']);
    expect(human.stdout).toMatch(new RegExp(`^${TEAM}  team-lead waits for a permission answer · 4\\d s$`, 'm'));
  });

  it('says nothing needs you when nothing does', async () => {
    await liveCapturedTeam(config, { config: 4 });
    const r = await run(['needs']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Nothing needs you in /);
    expect(JSON.parse((await run(['needs', '--json'])).stdout)).toEqual([]);
  });
});

describe('beside a running engine (teamdeck watch owns the state dir)', () => {
  it('activity, tasks and needs go through its socket and answer the same shapes', async () => {
    await liveCapturedTeam(config, { config: 4, session: 11 });
    await writeFile(join(config, 'tasks', TEAM, '1.json'), JSON.stringify({ id: '1', subject: 'Ship', description: '', status: 'pending', blocks: [], blockedBy: [] }));
    const watch = spawnWatch(join(config, 'teams'), join(dir, 'state'));
    try {
      await watch.started;
      const activity = await run(['activity', '--team', TEAM, '--json']);
      expect(activity.code, activity.stderr).toBe(0);
      expect((JSON.parse(activity.stdout) as MemberActivity[]).map((a) => [a.member, a.kind])).toEqual([
        ['team-lead', 'idle'],
        ['researcher', 'idle'],
        ['writer', 'shut-down'],
      ]);
      const tasks = await run(['tasks', '--team', TEAM, '--json']);
      expect(tasks.code, tasks.stderr).toBe(0);
      expect((JSON.parse(tasks.stdout) as TaskBoard).tasks.map((t) => t.subject)).toEqual(['Ship']);
      const needs = await run(['needs', '--json']);
      expect(needs.code, needs.stderr).toBe(0);
      expect(JSON.parse(needs.stdout)).toEqual([]);
      // Through the socket, not a throwaway engine of its own.
      expect(activity.stderr).not.toContain('note:');
    } finally {
      await watch.stop();
    }
  });
});
