// Activity and timelines from the files captured from Claude Code 2.1.332: the transcripts
// replayed row by row into a live copy of the team, and the lead's sessions file rewritten in
// place, through the real engine in real temp dirs.
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../shared/contract.js';
import type { MemberActivity } from '../../shared/types.js';
import { CAPTURE, CAPTURED_TEAM as TEAM, CAPTURED_TX, liveCapturedTeam, writeSessionVersion } from '../../../test/helpers/captured-team.js';
import { makeTempDir } from '../../../test/helpers/tmp.js';
import { rm } from 'node:fs/promises';
import { TeamService } from '../service/team-service.js';

let base: string;
let config: string;
let svc: TeamService | undefined;
let events: AppEvent[];

beforeEach(async () => {
  base = await makeTempDir();
  config = join(base, '.claude');
  events = [];
});
afterEach(async () => {
  await svc?.stop();
  svc = undefined;
  await rm(base, { recursive: true, force: true });
});

async function start(opts: { rescanMs?: number } = {}): Promise<TeamService> {
  svc = new TeamService({ teamsRoot: join(config, 'teams'), stateDir: join(base, 'state'), rescanMs: opts.rescanMs ?? 100 });
  svc.onEvent((e) => events.push(e));
  await svc.start();
  return svc;
}

/** The captured rows of an agent's transcript, as lines. */
async function capturedLines(agent: keyof typeof CAPTURED_TX): Promise<string[]> {
  return (await readFile(join(CAPTURE, CAPTURED_TX[agent]), 'utf8')).split('\n').filter(Boolean);
}

/** The line of the assistant row that calls `tool`. */
function callLine(lines: string[], tool: string): number {
  return lines.findIndex((l) => {
    const r = JSON.parse(l) as { type?: string; message?: { content?: Array<{ type?: string; name?: string }> } };
    return r.type === 'assistant' && !!r.message?.content?.some((b) => b.type === 'tool_use' && b.name === tool);
  });
}

const byMember = (list: MemberActivity[]) => Object.fromEntries(list.map((a) => [a.member, a]));

async function until<T>(what: string, f: () => T | undefined | false | Promise<T | undefined | false>, ms = 5_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The lead's transcript as it was before the writer's shutdown: the captured one goes on to the
 * writer's shutdown_approved, which the team's record reads as the writer having shut down.
 */
async function leadBeforeShutdown(): Promise<void> {
  const lines = await capturedLines('team-lead');
  const at = lines.findIndex((l) => l.includes('shutdown_approved'));
  await writeFile(join(config, CAPTURED_TX['team-lead']), lines.slice(0, at).join('\n') + '\n');
}

describe('activity from the captured team', () => {
  it('reads who did what last: idle since each turn end, the last text, the lead from transcript and sessions file', async () => {
    await liveCapturedTeam(config, { config: 4, session: 11 });
    const s = await start();
    const a = byMember(await s.activity(TEAM));
    expect(a['team-lead']).toMatchObject({ kind: 'idle', since: Date.parse('2026-12-01T11:22:00.377Z'), lastText: 'lead: ok', sources: ['transcript', 'session'] });
    expect(a.researcher).toMatchObject({ kind: 'idle', since: Date.parse('2026-12-01T11:21:56.654Z'), lastText: 'The answer is 42.', sources: ['transcript'] });
    expect(a.researcher!.tool).toBeUndefined();
    // The writer approved its shutdown and left config.json.
    expect(a.writer).toMatchObject({ kind: 'shut-down' });
  });

  it("replays the writer's Bash sleep 3: working with the call in flight, then its result, then idle; events and timeline items as it goes", async () => {
    await liveCapturedTeam(config, { config: 3, session: 3 });
    await leadBeforeShutdown();
    await writeFile(join(config, CAPTURED_TX.writer), '');
    const s = await start();
    const lines = await capturedLines('writer');
    const bash = callLine(lines, 'Bash');
    expect(bash).toBeGreaterThan(0);
    await appendFile(join(config, CAPTURED_TX.writer), lines.slice(0, bash + 1).join('\n') + '\n');
    const working = await until('writer working on Bash', async () => byMember(await s.activity(TEAM)).writer?.tool && byMember(await s.activity(TEAM)).writer);
    expect(working).toMatchObject({ kind: 'working', tool: { name: 'Bash', summary: 'sleep 3; echo writer-bash-done', since: Date.parse('2026-12-01T11:21:55.803Z') }, since: Date.parse('2026-12-01T11:21:55.803Z') });
    expect(events.some((e) => e.type === 'activity' && e.team === TEAM && e.activity.some((x) => x.member === 'writer' && x.tool?.name === 'Bash'))).toBe(true);
    // The result row ends the call; the turn goes on until its end.
    await appendFile(join(config, CAPTURED_TX.writer), lines[bash + 1]! + '\n');
    await until('the Bash result', async () => byMember(await s.activity(TEAM)).writer?.tool === undefined);
    const end = lines.findIndex((l, i) => i > bash && l.includes('"end_turn"'));
    await appendFile(join(config, CAPTURED_TX.writer), lines.slice(bash + 2, end + 1).join('\n') + '\n');
    const idle = await until('writer idle', async () => byMember(await s.activity(TEAM)).writer?.kind === 'idle' && byMember(await s.activity(TEAM)).writer);
    expect(idle).toMatchObject({ kind: 'idle', since: Date.parse('2026-12-01T11:21:59.158Z'), lastText: 'writer: ok', lastTurnEndAt: Date.parse('2026-12-01T11:21:59.158Z') });
    // The rows appended while the engine ran were pushed as the writer's timeline.
    const pushed = events.flatMap((e) => (e.type === 'timeline' && e.member === 'writer' ? e.items : []));
    expect(pushed.map((i) => [i.kind, i.tool ?? i.from ?? '', i.text.slice(0, 30)])).toEqual([
      ['received', 'team-lead', 'You are the writer. [[BASH:sle'],
      ['tool-call', 'Bash', 'sleep 3; echo writer-bash-done'],
      ['tool-result', 'Bash', 'writer-bash-done'],
      ['text', '', 'writer: ok'],
    ]);
  });

  it("a cancelled turn (2.1.337's interruptedByCancel user row) ends the writer's Bash call: idle, no longer working", async () => {
    await liveCapturedTeam(config, { config: 3, session: 3 });
    await leadBeforeShutdown();
    await writeFile(join(config, CAPTURED_TX.writer), '');
    const s = await start();
    const lines = await capturedLines('writer');
    const bash = callLine(lines, 'Bash');
    await appendFile(join(config, CAPTURED_TX.writer), lines.slice(0, bash + 1).join('\n') + '\n');
    await until('writer working on Bash', async () => byMember(await s.activity(TEAM)).writer?.kind === 'working');
    // What 2.1.337 writes when the user presses Escape (docs/claude-contract.md#changes-2-1-337); no tool_result follows.
    const cancelled = { parentUuid: null, isSidechain: true, type: 'user', message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user]' }] }, rowSource: 'harness', interruptedByCancel: true, uuid: 'cancel-1', timestamp: '2026-12-01T11:21:57.000Z', entrypointInherited: true };
    await appendFile(join(config, CAPTURED_TX.writer), JSON.stringify(cancelled) + '\n');
    const idle = await until('writer idle after the cancel', async () => byMember(await s.activity(TEAM)).writer?.kind === 'idle' && byMember(await s.activity(TEAM)).writer);
    expect(idle).toMatchObject({ kind: 'idle', lastTurnEndAt: Date.parse('2026-12-01T11:21:57.000Z') });
    expect(idle.tool).toBeUndefined();
  });

  it("researcher's two SendMessage calls in one reply: working on the latest until both results are in", async () => {
    await liveCapturedTeam(config, { config: 3, session: 3 });
    await writeFile(join(config, CAPTURED_TX.researcher), '');
    const s = await start();
    const lines = await capturedLines('researcher');
    const results = lines.map((l, i) => (l.includes('"toolUseResult"') ? i : -1)).filter((i) => i >= 0);
    await appendFile(join(config, CAPTURED_TX.researcher), lines.slice(0, results[0]).join('\n') + '\n');
    const a = await until('researcher sending', async () => byMember(await s.activity(TEAM)).researcher?.tool && byMember(await s.activity(TEAM)).researcher);
    expect(a.tool).toEqual({ name: 'SendMessage', summary: 'to team-lead: Researcher is ready.', since: Date.parse('2026-12-01T11:21:55.524Z') });
    await appendFile(join(config, CAPTURED_TX.researcher), lines[results[0]!]! + '\n');
    // One result in: the other call is still in flight.
    await until('the first result', async () => byMember(await s.activity(TEAM)).researcher?.tool?.summary === 'to team-lead: Researcher is ready.' && events.some((e) => e.type === 'timeline' && e.items.some((i) => i.kind === 'tool-result')));
    await appendFile(join(config, CAPTURED_TX.researcher), lines.slice(results[0]! + 1).join('\n') + '\n');
    const done = await until('researcher idle', async () => byMember(await s.activity(TEAM)).researcher?.kind === 'idle' && byMember(await s.activity(TEAM)).researcher);
    expect(done).toMatchObject({ lastText: 'The answer is 42.', since: Date.parse('2026-12-01T11:21:56.654Z') });
    expect(done.tool).toBeUndefined();
  });

  it("the lead's sessions file at waiting / permission prompt: the member with a call in flight is the one waiting; back to busy, it works again", async () => {
    await liveCapturedTeam(config, { config: 3, session: 3 });
    await leadBeforeShutdown();
    const lines = await capturedLines('writer');
    const bash = callLine(lines, 'Bash');
    await writeFile(join(config, CAPTURED_TX.writer), lines.slice(0, bash + 1).join('\n') + '\n');
    const s = await start();
    expect(byMember(await s.activity(TEAM)).writer).toMatchObject({ kind: 'working', tool: { name: 'Bash' } });
    const askedAt = Date.parse('2026-12-01T11:21:55.903Z');
    await writeSessionVersion(config, 3, process.pid, { status: 'waiting', waitingFor: 'permission prompt', statusUpdatedAt: askedAt, updatedAt: askedAt });
    const a = await until('writer waiting', async () => byMember(await s.activity(TEAM)).writer?.kind === 'waiting' && byMember(await s.activity(TEAM)));
    expect(a.writer).toMatchObject({ kind: 'waiting', since: askedAt, waitingFor: "a permission answer in the lead's terminal", tool: { name: 'Bash', summary: 'sleep 3; echo writer-bash-done' } });
    expect(a['team-lead']).toMatchObject({ kind: 'waiting', waitingFor: "a permission answer in the lead's terminal (asked by writer)", sources: ['transcript', 'session'] });
    expect(a.researcher!.kind).toBe('idle');
    const needs = await s.needs();
    expect(needs).toHaveLength(1);
    // The id names the tool call: another prompt of the same member is another item.
    expect(needs[0]!.id).toMatch(new RegExp(`^permission:${TEAM}:writer:toolu_\\w+$`));
    expect(needs[0]).toMatchObject({ kind: 'permission', team: TEAM, member: 'writer', title: 'writer waits for a permission answer: Bash sleep 3; echo writer-bash-done', detail: "Answer it in the lead's terminal (team-lead).", since: askedAt, ask: { tool: 'Bash', subject: 'sleep 3; echo writer-bash-done' } });
    // This lead runs in no terminal Teamdeck can reach: the item says so rather than offering buttons.
    expect(needs[0]!.answer?.available).toBe(false);
    await until('a needs event', () => events.some((e) => e.type === 'needs' && e.needs.length === 1));
    // The answer given: the lead is busy again, the writer's call runs.
    await writeSessionVersion(config, 3, process.pid, { status: 'busy', statusUpdatedAt: askedAt + 500 });
    await until('writer working again', async () => byMember(await s.activity(TEAM)).writer?.kind === 'working');
    expect(await s.needs()).toEqual([]);
    await until('the need cleared', () => events.at(-1)?.type === 'needs' || events.some((e, i) => e.type === 'needs' && e.needs.length === 0 && i > 0));
  });

  it('a legacy team without transcripts or sessions file: every member unknown, with no sources', async () => {
    const teams = join(config, 'teams');
    const { writeTeam } = await import('../../../test/helpers/team-fixture.js');
    await writeTeam(teams, 'old-team', ['researcher']);
    const s = await start();
    expect(await s.activity('old-team')).toEqual([
      { member: 'team-lead', kind: 'unknown', sources: [] },
      { member: 'researcher', kind: 'unknown', sources: [] },
    ]);
  });
});

describe("the Claude Code version of each team", () => {
  it("is the lead's sessions file's version while it runs, the transcript's when the file is gone; a change is announced", async () => {
    await liveCapturedTeam(config, { config: 3, session: 11 });
    const sessionFile = await writeSessionVersion(config, 11, process.pid, { version: '2.1.340' });
    const s = await start();
    expect((await s.listTeams()).find((t) => t.id === TEAM)?.claudeVersion).toBe('2.1.340');
    await rm(sessionFile);
    await until('the version from the transcript', async () => (await s.listTeams()).find((t) => t.id === TEAM)?.claudeVersion === '2.1.332');
    expect(events.some((e) => e.type === 'teams' && e.teams.some((t) => t.id === TEAM && t.claudeVersion === '2.1.332'))).toBe(true);
  });

  it('is the transcript rows\' version for a team with no sessions file', async () => {
    await liveCapturedTeam(config, { config: 3, session: 'none' });
    const s = await start();
    expect((await s.listTeams()).find((t) => t.id === TEAM)?.claudeVersion).toBe('2.1.332');
  });
});

describe('timeline', () => {
  it("reads a member's transcript as steps, oldest first, received blocks marked with their sender; limit keeps the latest", async () => {
    await liveCapturedTeam(config, { config: 3 });
    const s = await start();
    const items = await s.timeline(TEAM, 'researcher');
    expect(items.map((i) => [i.kind, i.tool ?? i.from ?? '', i.text.slice(0, 40)])).toEqual([
      ['received', 'team-lead', 'You are the researcher. [[SEND:user:Hell'],
      ['tool-call', 'SendMessage', 'to user: Hello user, researcher here.'],
      ['tool-call', 'SendMessage', 'to team-lead: Researcher is ready.'],
      ['tool-result', 'SendMessage', '{"success":false,"message":"No agent nam'],
      ['tool-result', 'SendMessage', '{"success":true,"message":"Message sent '],
      ['text', '', 'researcher: ok'],
      ['received', 'teamdeck', 'What is the answer? [[SAY:The answer is '],
      ['text', '', 'The answer is 42.'],
    ]);
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
    expect(items.every((i) => i.at > 0)).toBe(true);
    expect((await s.timeline(TEAM, 'researcher', 2)).map((i) => i.text)).toEqual(['What is the answer? [[SAY:The answer is 42.]]', 'The answer is 42.']);
    // The lead's timeline: the typed prompt is a prompt, its teammates' messages are received.
    const lead = await s.timeline(TEAM, 'team-lead');
    expect(lead[0]).toMatchObject({ kind: 'prompt', text: expect.stringContaining('Start the team.') });
    expect(lead.filter((i) => i.kind === 'received').map((i) => i.from)).toEqual(['researcher', 'researcher', 'researcher', 'teamdeck', 'writer', 'writer', 'writer', 'system']);
    await expect(s.timeline(TEAM, 'nobody')).rejects.toThrow(/no member "nobody"/);
  });
});
