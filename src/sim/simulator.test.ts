import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeAppend, type ClaudeMessage } from './claude-inbox.js';
import { createTeam, runMember, simTeamPaths, type MemberEvent } from './simulator.js';
import { spawnMember, type MemberProcess } from './member-process.js';
import { startSimulation } from './main.js';
import { createRng } from './prng.js';
import { parseFrame, isShutdownApproval } from '../engine/claude/frames.js';
import { readTeam } from '../engine/claude/team-reader.js';

let root: string;
const children: MemberProcess[] = [];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'teamdeck-sim-'));
});
afterEach(async () => {
  await Promise.all(children.splice(0).map((c) => c.stop()));
  await rm(root, { recursive: true, force: true });
});

async function readArray(path: string): Promise<ClaudeMessage[]> {
  return JSON.parse(await readFile(path, 'utf8')) as ClaudeMessage[];
}

function userMessage(text: string): ClaudeMessage {
  return { from: 'user', text, timestamp: new Date().toISOString(), read: false };
}

function spawn(opts: Parameters<typeof spawnMember>[0]): MemberProcess {
  const c = spawnMember(opts);
  children.push(c);
  return c;
}

describe('createTeam', () => {
  it('writes a pretty-printed config.json the way Claude does, which the core reads back', async () => {
    const t = await createTeam({ teamsDir: root, team: 'My Team', members: ['researcher', { name: 'tester', model: 'haiku', backendType: 'tmux' }], now: () => 1767000000000, cwd: '/projects/web-app' });
    expect(t.id).toBe('my-team');
    const text = await readFile(join(root, 'my-team', 'config.json'), 'utf8');
    const config = JSON.parse(text) as Record<string, unknown>;
    expect(text).toBe(JSON.stringify(config, null, 2));
    expect(config).toMatchObject({ name: 'My Team', createdAt: 1767000000000, leadAgentId: 'team-lead@My Team' });
    expect(typeof config.leadSessionId).toBe('string');
    const members = config.members as Record<string, unknown>[];
    expect(members[0]).toEqual({
      agentId: 'team-lead@My Team',
      name: 'team-lead',
      agentType: 'team-lead',
      joinedAt: 1767000000000,
      tmuxPaneId: 'leader',
      cwd: '/projects/web-app',
      subscriptions: [],
      backendType: 'in-process',
    });
    expect(members[1]).toMatchObject({
      agentId: 'researcher@My Team',
      name: 'researcher',
      agentType: 'general-purpose',
      model: 'sonnet',
      color: 'blue',
      joinedAt: 1767000000000,
      tmuxPaneId: 'in-process',
      cwd: '/projects/web-app',
      subscriptions: [],
      planModeRequired: false,
      backendType: 'in-process',
      isActive: true,
    });
    expect(members[2]).toMatchObject({ name: 'tester', model: 'haiku', color: 'green', tmuxPaneId: '%2', backendType: 'tmux' });

    const snap = await readTeam(root, 'my-team');
    expect(snap.summary.problems).toEqual([]);
    expect(snap.members.map((m) => [m.name, m.isLead])).toEqual([
      ['team-lead', true],
      ['researcher', false],
      ['tester', false],
    ]);
  });
});

describe('a simulated member in its own process', () => {
  it('prune mode: consumes its inbox, answers in user.json, reports idle to the lead', async () => {
    await createTeam({ teamsDir: root, team: 'alpha', members: ['researcher'] });
    const p = simTeamPaths(root, 'alpha');
    const m = spawn({ teamsDir: root, team: 'alpha', name: 'researcher', mode: 'prune', seed: 7, pollMs: 20, workMs: [5, 20] });
    await m.waitFor((e) => e.kind === 'started');
    await claudeAppend(p.inbox('researcher'), userMessage('Find the flaky test in the upload suite please'));
    await m.waitFor((e) => e.kind === 'idle');

    const replies = await readArray(p.inbox('user'));
    expect(replies).toHaveLength(1);
    const r = replies[0]!;
    expect(r).toMatchObject({ from: 'researcher', color: 'blue', read: false, summary: 'Done: Find the flaky test…' });
    expect(r.text.startsWith('Done: Find the flaky test in the upload suite…')).toBe(true);
    expect(new Date(r.timestamp).toISOString()).toBe(r.timestamp);

    expect(await readArray(p.inbox('researcher'))).toEqual([]);

    const lead = await readArray(p.inbox('team-lead'));
    expect(lead).toHaveLength(1);
    expect(lead[0]).toMatchObject({ from: 'researcher', read: false, color: 'blue' });
    const frame = parseFrame(lead[0]!.text);
    expect(frame?.type).toBe('idle_notification');
    expect(frame?.fields).toMatchObject({ type: 'idle_notification', from: 'researcher', idleReason: 'available' });
    expect(typeof frame?.fields.timestamp).toBe('string');
  });

  it('flag mode: marks what it read as read:true and keeps it', async () => {
    await createTeam({ teamsDir: root, team: 'alpha', members: ['implementer'] });
    const p = simTeamPaths(root, 'alpha');
    const m = spawn({ teamsDir: root, team: 'alpha', name: 'implementer', mode: 'flag', seed: 1, pollMs: 20, workMs: [5, 10] });
    await m.waitFor((e) => e.kind === 'started');
    await claudeAppend(p.inbox('implementer'), userMessage('Add retries to the client'));
    await m.waitFor((e) => e.kind === 'idle');
    await claudeAppend(p.inbox('implementer'), userMessage('Now document them'));
    await m.waitFor((e) => e.kind === 'replied' && e.text.includes('Now document them'));

    const own = await readArray(p.inbox('implementer'));
    expect(own.map((x) => [x.text, x.read])).toEqual([
      ['Add retries to the client', true],
      ['Now document them', true],
    ]);
    const replies = await readArray(p.inbox('user'));
    expect(replies.map((x) => x.summary)).toEqual(['Done: Add retries to the…', 'Done: Now document them']);
  });

  it('approves a shutdown_request into the lead inbox and exits', async () => {
    await createTeam({ teamsDir: root, team: 'alpha', members: ['researcher', { name: 'tester', backendType: 'tmux' }] });
    const p = simTeamPaths(root, 'alpha');
    const m = spawn({ teamsDir: root, team: 'alpha', name: 'tester', pollMs: 20, workMs: [1, 2] });
    await m.waitFor((e) => e.kind === 'started');
    const request = { type: 'shutdown_request', requestId: 'shutdown-123@tester', from: 'team-lead', reason: 'done', timestamp: new Date().toISOString() };
    await claudeAppend(p.inbox('tester'), { from: 'team-lead', text: JSON.stringify(request), timestamp: request.timestamp, read: false });
    expect(await m.exited).toBe(0);
    expect(m.events.map((e) => e.kind)).toEqual(['started', 'consumed', 'shutdown', 'exit']);

    const lead = await readArray(p.inbox('team-lead'));
    expect(lead).toHaveLength(1);
    const frame = parseFrame(lead[0]!.text);
    expect(isShutdownApproval(frame)).toBe(true);
    expect(Object.keys(frame!.fields).sort()).toEqual(['backendType', 'from', 'paneId', 'requestId', 'timestamp', 'type']);
    expect(frame!.fields).toMatchObject({ type: 'shutdown_approved', requestId: 'shutdown-123@tester', from: 'tester', paneId: '%2', backendType: 'tmux' });
    // The user's inbox was never touched: a shutdown is not work.
    await expect(readFile(p.inbox('user'), 'utf8')).rejects.toThrow();
  });

  it('works on teammate messages without answering them, and ignores frames', async () => {
    await createTeam({ teamsDir: root, team: 'alpha', members: ['researcher'] });
    const p = simTeamPaths(root, 'alpha');
    const m = spawn({ teamsDir: root, team: 'alpha', name: 'researcher', pollMs: 20, workMs: [1, 2] });
    await m.waitFor((e) => e.kind === 'started');
    const ts = new Date().toISOString();
    await claudeAppend(p.inbox('researcher'), { from: 'implementer', text: 'FYI the API changed', timestamp: ts, read: false });
    await claudeAppend(p.inbox('researcher'), { from: 'implementer', text: JSON.stringify({ type: 'idle_notification', from: 'implementer', timestamp: ts }), timestamp: ts, read: false });
    await m.waitFor((e) => e.kind === 'idle');
    await expect(readFile(p.inbox('user'), 'utf8')).rejects.toThrow();
    expect(m.events.filter((e) => e.kind === 'work')).toHaveLength(1);
  });
});

describe('determinism', () => {
  it('mulberry32 streams repeat for a seed and differ across seeds and members', () => {
    const a = createRng(42, 'x');
    const b = createRng(42, 'x');
    const seqA = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(seqA);
    const c = createRng(43, 'x');
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(seqA);
    const d = createRng(42, 'y');
    expect(Array.from({ length: 5 }, () => d.next())).not.toEqual(seqA);
  });

  async function decisions(seed: number, dir: string): Promise<string[]> {
    await createTeam({ teamsDir: dir, team: 'det', members: ['researcher'] });
    const p = simTeamPaths(dir, 'det');
    for (let i = 0; i < 12; i++) await claudeAppend(p.inbox('researcher'), userMessage(`task number ${i} for the team`));
    const events: MemberEvent[] = [];
    const h = runMember({ teamsDir: dir, team: 'det', name: 'researcher', seed, pollMs: 10, workMs: [1, 15], replyProbability: 0.5, onEvent: (e) => events.push(e) });
    while (!events.some((e) => e.kind === 'idle')) await new Promise((r) => setTimeout(r, 10));
    await h.stop();
    return events
      .filter((e) => e.kind === 'work' || e.kind === 'replied' || e.kind === 'no-reply')
      .map((e) => (e.kind === 'work' ? `work ${e.ms}` : e.kind === 'replied' ? `reply ${e.text}` : 'no-reply'));
  }

  it('the same seed makes the same choices; another seed does not', async () => {
    const a = await decisions(99, join(root, 'a'));
    const b = await decisions(99, join(root, 'b'));
    const c = await decisions(100, join(root, 'c'));
    expect(a).toHaveLength(24);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    expect(a.some((x) => x === 'no-reply')).toBe(true);
    expect(a.some((x) => x.startsWith('reply'))).toBe(true);
  });
});

describe('startSimulation', () => {
  it('creates the team, runs every member, and stops cleanly', async () => {
    const events: MemberEvent[] = [];
    const sim = await startSimulation({ teamsDir: root, team: 'beta', members: ['a', 'b'], seed: 3, pollMs: 20, workMs: [1, 5], onEvent: (e) => events.push(e) });
    expect(sim.created).toBe(true);
    expect(sim.members).toEqual(['a', 'b']);
    const p = simTeamPaths(root, 'beta');
    await claudeAppend(p.inbox('b'), userMessage('hello b'));
    while (!events.some((e) => e.kind === 'replied')) await new Promise((r) => setTimeout(r, 10));
    await sim.stop();
    await sim.done;
    expect(events.filter((e) => e.kind === 'exit').map((e) => e.member).sort()).toEqual(['a', 'b']);

    // Running again reuses the config and adds a new member to it.
    const again = await startSimulation({ teamsDir: root, team: 'beta', members: ['a', 'c'], pollMs: 20 });
    expect(again.created).toBe(false);
    expect(again.added).toEqual(['c']);
    await again.stop();
    const snap = await readTeam(root, 'beta');
    expect(snap.members.filter((m) => m.inConfig).map((m) => m.name)).toEqual(['team-lead', 'a', 'b', 'c']);
  });
});
