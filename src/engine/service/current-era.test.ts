// The engine on a current-era (Claude Code 2.1.332) team, built from files captured from the
// real binary (test/fixtures/claude-2.1.332): the sender name, the entry shape, receipts from
// the transcript, answers from idle notifications and transcripts, and the team's end.
import { spawn, spawnSync } from 'node:child_process';
import { appendFile, cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, REPO_ROOT } from '../../../test/helpers/tmp.js';
import { claudeAppend, claudeConsume } from '../../sim/claude-inbox.js';
import { procStartOf } from '../claude/lifecycle.js';
import { SendRefusedError } from './service-types.js';
import { TeamService } from './team-service.js';

const CAPTURE = join(REPO_ROOT, 'test', 'fixtures', 'claude-2.1.332', 'team-lifecycle');
const TEAM = 'session-cc4ff1d9';
const SESSION = 'cc4ff1d9-7874-413b-94e4-5b8d2fe0f369';
const SUBAGENTS = join('projects', '-home-me-proj', SESSION, 'subagents');
const RESEARCHER_TX = join(SUBAGENTS, 'agent-aresearcher-4932618ede0d71b5.jsonl');

let base: string;
let config: string;
let teams: string;
let svc: TeamService | undefined;

/** A live copy of the captured team: its config names a lead process that runs (this one). */
async function liveTeam(pid = process.pid, procStart = procStartOf(process.pid)): Promise<void> {
  const cfg = JSON.parse(await readFile(join(CAPTURE, 'teams', TEAM, 'config.003.json'), 'utf8'));
  cfg.leadProcess = { ...cfg.leadProcess, pid, procStart };
  delete cfg.leadProcess.pidSpace;
  await mkdir(join(teams, TEAM, 'inboxes'), { recursive: true });
  await writeFile(join(teams, TEAM, 'config.json'), JSON.stringify(cfg, null, 2));
  await writeFile(join(teams, TEAM, 'inboxes', 'researcher.json'), '[]');
  await writeFile(join(teams, TEAM, 'inboxes', 'team-lead.json'), '[]');
  // The transcripts as Claude left them, but researcher's empty: each test appends its rows.
  await cp(join(CAPTURE, 'projects'), join(config, 'projects'), { recursive: true });
  await writeFile(join(config, RESEARCHER_TX), '');
}

const inbox = (owner: string) => join(teams, TEAM, 'inboxes', `${owner}.json`);

/** A captured transcript row as if Claude wrote it now. */
function nowRow(line: string): string {
  const r = JSON.parse(line);
  if (r.timestamp) r.timestamp = new Date().toISOString();
  return JSON.stringify(r) + '\n';
}

let rowSeq = 0;
/** A transcript row in Claude's shape: a prompt, or an assistant message ending a turn. */
function row(type: 'user' | 'assistant', text: string, stop?: string): string {
  const message = type === 'user' ? { role: 'user', content: text } : { id: `msg_${++rowSeq}`, role: 'assistant', content: [{ type: 'text', text }], stop_reason: stop ?? null };
  return JSON.stringify({ type, message, timestamp: new Date().toISOString(), isSidechain: true, uuid: `u-${rowSeq++}` }) + '\n';
}

async function until<T>(what: string, f: () => Promise<T | undefined | false>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Sends researcher the captured question, takes it as Claude does and writes its transcript up to
 * the prompt (seen); the rest of the captured turn (the answer) is returned for the test to write.
 */
async function questionSeen(s: TeamService): Promise<string[]> {
  await s.send({ team: TEAM, to: 'researcher', text: 'What is the answer? [[SAY:The answer is 42.]]' });
  await claudeConsume(inbox('researcher'), 'prune');
  const rows = (await readFile(join(CAPTURE, RESEARCHER_TX), 'utf8')).trimEnd().split('\n');
  const at = rows.findIndex((l) => l.includes('teammate_id=\\"teamdeck\\"'));
  for (const l of rows.slice(0, at + 1)) await appendFile(join(config, RESEARCHER_TX), nowRow(l));
  await until('seen', async () => (await s.thread(TEAM, 'researcher')).find((m) => m.status === 'seen'));
  return rows.slice(at + 1);
}

beforeEach(async () => {
  base = await makeTempDir();
  config = join(base, '.claude');
  teams = join(config, 'teams');
  await mkdir(teams, { recursive: true });
});
afterEach(async () => {
  await svc?.stop();
  svc = undefined;
  await rm(base, { recursive: true, force: true });
});

function service(): TeamService {
  svc = new TeamService({ teamsRoot: teams, stateDir: join(base, 'state'), rescanMs: 100 });
  return svc;
}

describe('a current-era team', () => {
  it('is told apart from a legacy one and written to as teamdeck, in Claude key order', async () => {
    await liveTeam();
    const s = service();
    await s.start();
    const [summary] = await s.listTeams();
    expect(summary).toMatchObject({ id: TEAM, era: 'current', state: 'running', sendAs: 'teamdeck', leadReadsInbox: true });
    const r = await s.send({ team: TEAM, to: 'researcher', text: 'What is the answer?', summary: 'question' });
    expect(r.status).toBe('accepted');
    const [entry] = JSON.parse(await readFile(inbox('researcher'), 'utf8'));
    // Exactly the shape and key order of an entry Claude writes; no reserved sender, no null.
    expect(Object.keys(entry)).toEqual(['from', 'text', 'summary', 'timestamp', 'msgV', 'msg_id', 'type', 'read']);
    expect(entry).toMatchObject({ from: 'teamdeck', text: 'What is the answer?', msgV: 1, msg_id: r.id, type: 'message', read: false });
    const [sent] = await s.thread(TEAM, 'researcher');
    expect(sent).toMatchObject({ id: r.id, status: 'accepted', sentAs: 'teamdeck' });
  });

  it('goes accepted -> taken (pruned) -> seen (in its transcript) -> replied (the turn that had it in context ended)', async () => {
    await liveTeam();
    const s = service();
    const statuses: string[] = [];
    s.onEvent((e) => e.type === 'delivery' && statuses.push(e.status));
    await s.start();
    const text = 'What is the answer? [[SAY:The answer is 42.]]';
    const r = await s.send({ team: TEAM, to: 'researcher', text });
    // Claude's teammate takes it (prunes the inbox) before its model request.
    expect((await claudeConsume(inbox('researcher'), 'prune')).map((m) => m.text)).toEqual([text]);
    await until('taken', async () => (await s.thread(TEAM, 'researcher')).find((m) => m.status === 'taken'));
    // Taken is not seen: only the transcript row proves its model has it. Append the rows the
    // real teammate wrote (captured), as if written now.
    const rows = (await readFile(join(CAPTURE, RESEARCHER_TX), 'utf8')).trimEnd().split('\n');
    const at = rows.findIndex((l) => l.includes('teammate_id=\\"teamdeck\\"'));
    await appendFile(join(config, RESEARCHER_TX), nowRow(rows[at]!));
    await until('seen', async () => (await s.thread(TEAM, 'researcher')).find((m) => m.status === 'seen'));
    // The rest of that turn: its text answer.
    for (const l of rows.slice(at + 1)) await appendFile(join(config, RESEARCHER_TX), nowRow(l));
    // The same text reaches the lead as the result of an idle notification (captured): it is
    // not shown a second time.
    const idle = JSON.parse(await readFile(join(CAPTURE, 'teams', TEAM, 'inboxes', 'team-lead.006.json'), 'utf8')).find((e: { text: string }) =>
      e.text.includes('The answer is 42.'),
    );
    await claudeAppend(inbox('team-lead'), { ...idle, timestamp: new Date(Date.now() + 10).toISOString() });
    const thread = await until('the answer', async () => {
      const t = await s.thread(TEAM, 'researcher');
      return t.some((m) => m.from === 'researcher') && t;
    });
    await s.settled();
    expect((await s.thread(TEAM, 'researcher')).map((m) => [m.from, m.text, m.status ?? m.source])).toEqual([
      ['user', text, 'replied'],
      ['researcher', 'The answer is 42.', 'transcript'],
    ]);
    expect(thread).toHaveLength(2);
    expect(statuses).toEqual(['accepted', 'taken', 'seen', 'replied']);
    expect(r.status).toBe('accepted');
  });

  it("a DM taken while the teammate still works on an earlier one is not replied by that earlier answer", async () => {
    await liveTeam();
    const s = service();
    await s.start();
    await s.send({ team: TEAM, to: 'researcher', text: 'first question' });
    await claudeConsume(inbox('researcher'), 'prune');
    const rows = [
      row('user', `<teammate-message teammate_id="teamdeck">\nfirst question\n</teammate-message>`),
      row('assistant', 'answer to the first', 'end_turn'),
    ];
    await appendFile(join(config, RESEARCHER_TX), rows.join(''));
    await until('the first answer', async () => (await s.thread(TEAM, 'researcher')).find((m) => m.status === 'replied'));
    // The second arrives while a turn runs; Claude takes it, then the idle notification of the
    // turn that just ended (the FIRST answer) appears in team-lead.json.
    const second = await s.send({ team: TEAM, to: 'researcher', text: 'second question' });
    await claudeConsume(inbox('researcher'), 'prune');
    await claudeAppend(inbox('team-lead'), {
      from: 'researcher',
      text: JSON.stringify({ type: 'idle_notification', from: 'researcher', timestamp: new Date().toISOString(), result: 'answer to the first' }),
      timestamp: new Date().toISOString(),
      read: false,
    });
    await until('taken', async () => (await s.thread(TEAM, 'researcher')).find((m) => m.id === second.id && m.status === 'taken'));
    await new Promise((res) => setTimeout(res, 600));
    expect((await s.thread(TEAM, 'researcher')).find((m) => m.id === second.id)?.status).toBe('taken');
    // Its own turn: seen, then replied.
    await appendFile(join(config, RESEARCHER_TX), row('user', `<teammate-message teammate_id="teamdeck">\nsecond question\n</teammate-message>`) + row('assistant', 'answer to the second', 'end_turn'));
    await until('the second answer', async () => (await s.thread(TEAM, 'researcher')).find((m) => m.id === second.id && m.status === 'replied'));
    expect((await s.thread(TEAM, 'researcher')).filter((m) => m.from === 'researcher').map((m) => m.text)).toEqual(['answer to the first', 'answer to the second']);
  });

  it('takes the answer from an idle notification for a member whose transcript cannot be read', async () => {
    await liveTeam();
    await rm(join(config, 'projects'), { recursive: true });
    const s = service();
    await s.start();
    await s.send({ team: TEAM, to: 'researcher', text: 'What is the answer?' });
    await claudeConsume(inbox('researcher'), 'prune');
    await until('taken', async () => (await s.thread(TEAM, 'researcher')).find((m) => m.status === 'taken'));
    await claudeAppend(inbox('team-lead'), {
      from: 'researcher',
      text: JSON.stringify({ type: 'idle_notification', from: 'researcher', timestamp: new Date(Date.now() + 5).toISOString(), idleReason: 'available', result: 'The answer is 42.' }),
      timestamp: new Date(Date.now() + 5).toISOString(),
      read: false,
    });
    const thread = await until('the answer', async () => {
      const t = await s.thread(TEAM, 'researcher');
      return t.some((m) => m.from === 'researcher') && t;
    });
    expect(thread.map((m) => [m.from, m.text, m.status ?? m.source])).toEqual([
      ['user', 'What is the answer?', 'replied'],
      ['researcher', 'The answer is 42.', 'idle-notification'],
    ]);
  });

  it("shows a teammate's SendMessage to the user (which Claude refuses) as its answer, from its transcript", async () => {
    await liveTeam();
    const s = service();
    await s.start();
    await s.send({ team: TEAM, to: 'researcher', text: 'hello' });
    // The captured turn in which researcher called SendMessage(to:"user").
    const rows = (await readFile(join(CAPTURE, RESEARCHER_TX), 'utf8')).trimEnd().split('\n');
    await writeFile(join(config, RESEARCHER_TX), '');
    for (const l of rows) await appendFile(join(config, RESEARCHER_TX), l + '\n');
    const answer = await until('the transcript answer', async () => (await s.thread(TEAM, 'researcher')).find((m) => m.source === 'transcript'));
    expect(answer).toMatchObject({ from: 'researcher', to: 'user', text: 'Hello user, researcher here.' });
  });

  it("shows the lead's answer (the end of the turn its message began) from the lead's transcript, and the message seen", async () => {
    await liveTeam();
    const leadTx = join(config, 'projects', '-home-me-proj', `${SESSION}.jsonl`);
    const captured = (await readFile(leadTx, 'utf8')).trimEnd().split('\n');
    await writeFile(leadTx, '');
    const s = service();
    await s.start();
    const text = 'Teamdeck asks the lead for a status. [[SAY:Lead here: the team is working.]]';
    await s.send({ team: TEAM, to: 'team-lead', text, summary: 'status request' });
    await claudeConsume(inbox('team-lead'), 'prune');
    // The captured rows, as if written now (after the send).
    for (const l of captured) {
      const row = JSON.parse(l);
      if (row.timestamp) row.timestamp = new Date().toISOString();
      await appendFile(leadTx, JSON.stringify(row) + '\n');
    }
    const thread = await until('the lead answer', async () => {
      const t = await s.thread(TEAM, 'team-lead');
      return t.some((m) => m.from === 'team-lead') && t;
    });
    const shown = thread.map((m) => [m.from, m.text, m.status ?? m.source]);
    // Teamdeck's message once (its block in the lead's transcript is the same message), and its answer once.
    expect(shown.filter((m) => m[1] === text)).toEqual([['user', text, 'replied']]);
    expect(shown.filter((m) => m[0] === 'team-lead' && m[1] === 'Lead here: the team is working.')).toEqual([['team-lead', 'Lead here: the team is working.', 'transcript']]);
    // The rest is the user's turns typed in the lead's terminal, and the lead's answers (docs/claude-contract.md#record).
    for (const m of thread.filter((x) => x.text !== text && x.text !== 'Lead here: the team is working.')) expect(m.via === 'typed' || m.via === 'answer').toBe(true);
    expect(new Set(thread.map((m) => m.id)).size).toBe(thread.length);
  });

  it('ends when Claude removes the folder: history stays, sends are refused, queued ones become undeliverable, no folder is made again', async () => {
    await liveTeam();
    const s = service();
    await s.start();
    const first = await s.send({ team: TEAM, to: 'researcher', text: 'delivered before the end' });
    expect(first.status).toBe('accepted');
    // Another process holds researcher's inbox lock: the next send waits as queued.
    const holder = spawnSync('mkdir', [`${inbox('researcher')}.lock`]);
    expect(holder.status).toBe(0);
    const queued = await s.send({ team: TEAM, to: 'researcher', text: 'still queued at the end' });
    expect(queued.status).toBe('queued');
    // The lead exits: Claude renames the folder and removes it.
    await rename(join(teams, TEAM), join(teams, `${TEAM}.deleted-0b9e8c1e-5a51-4f1e-9d43-2f0c7d3a9c11`));
    await rm(join(teams, `${TEAM}.deleted-0b9e8c1e-5a51-4f1e-9d43-2f0c7d3a9c11`), { recursive: true });
    const ended = await until('ended', async () => (await s.listTeams()).find((t) => t.id === TEAM && t.state === 'ended'));
    expect(ended.endedReason).toMatch(/lead exited/);
    expect(ended.endedAt).toBeGreaterThan(0);
    const thread = await until('undeliverable', async () => {
      const t = await s.thread(TEAM, 'researcher');
      return t.some((m) => m.status === 'undeliverable') && t;
    });
    expect(thread.map((m) => [m.text, m.status])).toEqual([
      ['delivered before the end', 'accepted'],
      ['still queued at the end', 'undeliverable'],
    ]);
    expect(thread[1]!.reason).toMatch(/ended before it could be delivered/);
    await expect(s.send({ team: TEAM, to: 'researcher', text: 'too late' })).rejects.toThrow(SendRefusedError);
    expect((await s.roster(TEAM)).every((m) => m.state === 'terminated')).toBe(true);
    await new Promise((r) => setTimeout(r, 400));
    expect(await readdir(teams)).toEqual([]);
    // After a restart the ended team is still listed from the state dir, with its history.
    await s.stop();
    const again = service();
    await again.start();
    expect((await again.listTeams()).map((t) => [t.id, t.state])).toEqual([[TEAM, 'ended']]);
    expect((await again.thread(TEAM, 'researcher')).map((m) => m.status)).toEqual(['accepted', 'undeliverable']);
    expect(await readdir(teams)).toEqual([]);
  });

  it('reads the transcripts for a while after the end: an answer Claude writes just after it removes the folder is shown', async () => {
    await liveTeam();
    // The clock stops once the end is seen: the test cannot outlast the time the end leaves.
    const clock: { stoppedAt?: number } = {};
    svc = new TeamService({ teamsRoot: teams, stateDir: join(base, 'state'), rescanMs: 100, now: () => clock.stoppedAt ?? Date.now() });
    const s = svc;
    await s.start();
    const answerRows = await questionSeen(s);
    await rm(join(teams, TEAM), { recursive: true });
    await until('ended', async () => (await s.listTeams()).find((t) => t.id === TEAM && t.state === 'ended'));
    clock.stoppedAt = Date.now();
    // Polls find nothing new meanwhile (the safety net polls on every tick this soon after start).
    await new Promise((r) => setTimeout(r, 500));
    for (const l of answerRows) await appendFile(join(config, RESEARCHER_TX), nowRow(l));
    const answer = await until('the answer', async () => (await s.thread(TEAM, 'researcher')).find((m) => m.text === 'The answer is 42.'), 3_000);
    expect(answer).toMatchObject({ from: 'researcher', source: 'transcript' });
  });

  it("ends when its lead's process is gone though Claude left the folder (SIGKILL)", async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    await liveTeam(Number(dead.stdout), '1');
    const s = service();
    await s.start();
    const [t] = await s.listTeams();
    expect(t).toMatchObject({ state: 'ended' });
    expect(t!.endedReason).toMatch(/lead's process \(pid \d+\) is gone/);
    await expect(s.send({ team: TEAM, to: 'researcher', text: 'x' })).rejects.toThrow(/has ended/);
    expect(JSON.parse(await readFile(inbox('researcher'), 'utf8'))).toEqual([]);
  });

  it("shows an answer written while no engine ran, by a team whose lead was then killed (the next engine reads the ended team's transcripts once)", async () => {
    // A child stands in for the lead: alive while the message goes, killed before the next engine.
    const lead = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await liveTeam(lead.pid!, procStartOf(lead.pid!));
    const first = service();
    await first.start();
    // Its prompt reaches the transcript while this engine runs: seen.
    const answerRows = await questionSeen(first);
    await first.stop();
    svc = undefined;
    // The rest of its turn (the answer) is written while no engine runs; then the lead is killed.
    for (const l of answerRows) await appendFile(join(config, RESEARCHER_TX), nowRow(l));
    lead.kill('SIGKILL');
    await new Promise((r) => lead.once('exit', r));
    const s = service();
    await s.start();
    expect((await s.listTeams())[0]).toMatchObject({ state: 'ended' });
    const answer = await until('the answer', async () => (await s.thread(TEAM, 'researcher')).find((m) => m.text === 'The answer is 42.'), 3_000);
    expect(answer).toMatchObject({ from: 'researcher', source: 'transcript' });
  });

  it('refuses a send to a teammate that shut down, and a queued one for it becomes undeliverable', async () => {
    await liveTeam();
    const s = service();
    await s.start();
    spawnSync('mkdir', [`${inbox('researcher')}.lock`]);
    const queued = await s.send({ team: TEAM, to: 'researcher', text: 'waiting behind a lock' });
    expect(queued.status).toBe('queued');
    const ts = new Date().toISOString();
    await claudeAppend(inbox('team-lead'), {
      from: 'researcher',
      text: JSON.stringify({ type: 'shutdown_approved', requestId: 'shutdown-1@researcher', from: 'researcher', timestamp: ts }),
      timestamp: ts,
      read: false,
    });
    await until('undeliverable', async () => (await s.thread(TEAM, 'researcher')).find((m) => m.status === 'undeliverable'));
    await expect(s.send({ team: TEAM, to: 'researcher', text: 'hello?' })).rejects.toThrow(/has shut down/);
    expect(JSON.parse(await readFile(inbox('researcher'), 'utf8'))).toEqual([]);
  });

  it('refuses a reserved sender name', async () => {
    expect(() => new TeamService({ teamsRoot: teams, stateDir: join(base, 'state'), senderName: 'Team-Lead' })).toThrow(/reserved/);
    const s = service();
    expect(() => s.setSenderName('user')).toThrow(/reserved/);
    s.setSenderName('ops-desk');
    await liveTeam();
    await s.start();
    await s.send({ team: TEAM, to: 'researcher', text: 'from the ops desk' });
    expect(JSON.parse(await readFile(inbox('researcher'), 'utf8'))[0].from).toBe('ops-desk');
  });
});
