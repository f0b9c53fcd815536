import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeEntry, claudeSend } from './claude-inbox.js';
import { createDemoTeam } from './demo.js';
import { startSimulation } from './main.js';
import type { MemberEvent } from './simulator.js';
import { readTeam } from '../engine/claude/team-reader.js';
import { memberState, presenceFacts } from '../engine/teams/presence.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'teamdeck-demo-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const lines = async (path: string) =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const content = (r: Record<string, unknown>) => (r.message as { content: unknown }).content;

describe('legacy demo', () => {
  it('seeds a demo team in which all three member states show', async () => {
    const now = Date.now();
    const demo = await createDemoTeam({ teamsDir: root, now: () => now, era: 'legacy' });
    expect(demo).toMatchObject({ team: 'demo', created: true, running: ['researcher', 'implementer'], era: 'legacy' });
    const snap = await readTeam(root, 'demo');
    expect(snap.summary.problems).toEqual([]);
    expect(snap.members.map((m) => m.name)).toEqual(['team-lead', 'researcher', 'implementer', 'tester']);
    const facts = presenceFacts(snap.messages);
    const state = (name: string) => memberState(facts.get(name) ?? { terminated: false }, now);
    expect(state('researcher')).toBe('active');
    expect(state('implementer')).toBe('idle');
    expect(state('tester')).toBe('terminated');
    expect(new Set(snap.members.map((m) => m.model))).toEqual(new Set([undefined, 'opus', 'sonnet', 'haiku']));

    // A second call leaves an existing demo alone.
    expect((await createDemoTeam({ teamsDir: root, era: 'legacy' })).created).toBe(false);
    expect((await readTeam(root, 'demo')).messages).toHaveLength(snap.messages.length);
  });
});

describe('current-era demo (the default)', () => {
  it('leaves what a 2.1.332 session thirty minutes in leaves: pruned inboxes, the tester gone from config, the history in transcripts', async () => {
    const now = Date.now();
    const teams = join(root, 'teams');
    await mkdir(teams);
    const demo = await createDemoTeam({ teamsDir: teams, now: () => now, cwd: '/home/me/webapp' });
    expect(demo).toMatchObject({ created: true, running: ['researcher', 'implementer'], era: 'current' });
    expect(demo.team).toMatch(/^session-[0-9a-f]{8}$/);
    expect(demo.team).toBe(`session-${demo.leadSessionId!.slice(0, 8)}`);

    const config = JSON.parse(await readFile(join(demo.teamDir, 'config.json'), 'utf8')) as { leadProcess: { pid: number }; members: { name: string; color: string }[] };
    expect(config.leadProcess.pid).toBe(process.pid);
    expect(config.members.map((m) => [m.name, m.color])).toEqual([
      ['team-lead', undefined],
      ['researcher', 'blue'],
      ['implementer', 'green'],
    ]);
    const inboxes = join(demo.teamDir, 'inboxes');
    expect((await readdir(inboxes)).sort()).toEqual(['implementer.json', 'researcher.json', 'team-lead.json', 'tester.json']);
    for (const f of await readdir(inboxes)) expect(await readFile(join(inboxes, f), 'utf8')).toBe('[]');
    expect(JSON.parse(await readFile(join(root, 'sessions', `${process.pid}.json`), 'utf8'))).toMatchObject({ sessionId: demo.leadSessionId, status: 'idle' });
    expect(await readdir(join(root, 'tasks', demo.team))).toEqual([]);

    const project = join(root, 'projects', '-home-me-webapp');
    const lead = await lines(join(project, `${demo.leadSessionId}.jsonl`));
    expect(lead[0]).toMatchObject({ type: 'user', promptSource: 'typed', origin: { kind: 'human' } });
    const recorded = lead.filter((r) => r.rowSource === 'recorded').map((r) => content(r) as string);
    // Every teammate's report reached the lead; the researcher's last one 40 s ago.
    for (const name of ['researcher', 'implementer', 'tester']) expect(recorded.some((c) => c.includes(`"type":"idle_notification","from":"${name}"`))).toBe(true);
    expect(recorded.some((c) => c.includes('"type":"shutdown_approved","requestId"') && c.includes('"from":"tester"'))).toBe(true);
    expect(recorded.some((c) => c.includes('"type":"teammate_terminated","message":"tester has shut down."'))).toBe(true);
    const last = lead.filter((r) => r.rowSource === 'recorded').pop()!;
    expect(content(last)).toContain('The refresh wins and re-creates the session');
    expect(now - Date.parse(last.timestamp as string)).toBeLessThan(60_000);

    const sub = join(project, demo.leadSessionId!, 'subagents');
    const files = (await readdir(sub)).sort();
    expect(files.filter((f) => f.endsWith('.meta.json'))).toHaveLength(3);
    const researcher = await lines(join(sub, files.find((f) => f.startsWith('agent-aresearcher-') && f.endsWith('.jsonl'))!));
    expect(researcher.map((r) => content(r)).filter((c) => typeof c === 'string')).toContain('<teammate-message teammate_id="teamdeck" summary="Refresh vs logout">\nWhat happens when a refresh races a logout?\n</teammate-message>');
    // No user mailbox, ever.
    await expect(stat(join(inboxes, 'user.json'))).rejects.toThrow();
  });

  it('a simulation over the demo reclaims the team, continues the transcripts, and deletes the team when it stops', async () => {
    const teams = join(root, 'teams');
    await mkdir(teams);
    const demo = await createDemoTeam({ teamsDir: teams, cwd: '/home/me/webapp' });
    const events: MemberEvent[] = [];
    // The shells pass mode 'flag' from the legacy days: a current-era team ignores it (Claude prunes).
    const sim = await startSimulation({ teamsDir: teams, team: demo.team, members: [...demo.running], lead: true, mode: 'flag', pollMs: 20, leadPollMs: 50, workMs: [1, 3], onEvent: (e) => events.push(e) });
    expect(sim).toMatchObject({ era: 'current', created: false, added: [], members: ['researcher', 'implementer'], mode: 'prune' });
    const sub = join(root, 'projects', '-home-me-webapp', demo.leadSessionId!, 'subagents');
    const before = (await readdir(sub)).length;
    await claudeSend(demo.teamDir, 'researcher', claudeEntry({ from: 'teamdeck', text: 'And with two tabs open?' }));
    while (!events.some((e) => e.kind === 'replied' && e.member === 'researcher')) await new Promise((r) => setTimeout(r, 10));
    expect((await readdir(sub)).length).toBe(before);
    await sim.stop();
    expect(await readdir(teams)).toEqual([]);
    await expect(stat(join(root, 'sessions', `${process.pid}.json`))).rejects.toThrow();
  });
});
