// The simulator's current-era files against what the real Claude Code 2.1.332 wrote in
// test/fixtures/claude-2.1.332/team-lifecycle: the same keys in the same order for every kind of
// row, entry, frame and file the simulator writes, and the same texts around the variable parts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { claudeEntry, claudeSend, type ClaudeMessage } from './claude-inbox.js';
import { startSimulation, type Simulation } from './main.js';
import type { MemberEvent } from './simulator.js';

const CAPTURE = fileURLToPath(new URL('../../test/fixtures/claude-2.1.332/team-lifecycle/', import.meta.url));
const TEAM = 'session-cc4ff1d9';
const SESSION = 'cc4ff1d9-7874-413b-94e4-5b8d2fe0f369';
const have = existsSync(CAPTURE);

type Row = Record<string, unknown>;
const jsonl = (text: string): Row[] =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row);

/** The kind of a user or assistant row: who wrote it and what it holds. Other row types are not written by the simulator. */
function kindOf(r: Row): string | undefined {
  const who = r.isSidechain ? 'teammate' : 'lead';
  const content = (r.message as { content?: unknown } | undefined)?.content;
  if (r.type === 'assistant') return `${who} assistant ${(content as { type: string }[])[0]!.type}`;
  if (r.type !== 'user') return undefined;
  if (Array.isArray(content) && (content[0] as { type?: string })?.type === 'tool_result') {
    // A Bash result carries `sandboxed`: the simulator runs no tools but SendMessage and Agent.
    return r.sandboxed === undefined ? `${who} tool_result` : undefined;
  }
  if (r.promptSource === 'typed') return `${who} typed`;
  return `${who} ${String(r.rowSource)}`;
}

/** Every key order the capture shows for each kind. */
function shapes(rows: Row[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    const k = kindOf(r);
    if (!k) continue;
    if (!out.has(k)) out.set(k, new Set());
    out.get(k)!.add(Object.keys(r).join(','));
  }
  return out;
}

function captured(): { rows: Row[]; meta: Row; session: Row; config: Row; inboxes: Row[] } {
  const projects = join(CAPTURE, 'projects', '-home-me-proj');
  const sub = join(projects, SESSION, 'subagents');
  const rows = [
    ...jsonl(readFileSync(join(projects, `${SESSION}.jsonl`), 'utf8')),
    ...readdirSync(sub)
      .filter((f) => f.endsWith('.jsonl'))
      .flatMap((f) => jsonl(readFileSync(join(sub, f), 'utf8'))),
  ];
  const meta = JSON.parse(readFileSync(join(sub, readdirSync(sub).find((f) => f.endsWith('.meta.json'))!), 'utf8')) as Row;
  const sessions = readdirSync(join(CAPTURE, 'sessions')).filter((f) => /^\d+\.\d{3}\.json$/.test(f)).sort();
  const session = JSON.parse(readFileSync(join(CAPTURE, 'sessions', sessions[sessions.length - 1]!), 'utf8')) as Row;
  const config = JSON.parse(readFileSync(join(CAPTURE, 'teams', TEAM, 'config.003.json'), 'utf8')) as Row;
  const inboxDir = join(CAPTURE, 'teams', TEAM, 'inboxes');
  const inboxes = readdirSync(inboxDir).flatMap((f) => JSON.parse(readFileSync(join(inboxDir, f), 'utf8')) as Row[]);
  return { rows, meta, session, config, inboxes };
}

describe.skipIf(!have)('current-era files shaped like the 2.1.332 capture', () => {
  let base: string;
  let sim: Simulation;
  const events: MemberEvent[] = [];
  /** Inbox entries seen before the lead pruned them. */
  const entries: ClaudeMessage[] = [];
  let mine: { rows: Row[]; meta: Row; session: Row; config: Row };

  const until = async (pred: (e: MemberEvent) => boolean) => {
    const end = Date.now() + 20_000;
    while (!events.some(pred)) {
      if (Date.now() > end) throw new Error(`no matching event; saw ${events.map((e) => `${e.member}:${e.kind}`).join(', ')}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'teamdeck-capture-'));
    const teams = join(base, 'teams');
    await mkdir(teams);
    sim = await startSimulation({
      teamsDir: teams,
      cwd: '/home/me/proj',
      members: ['researcher', 'writer'],
      pollMs: 20,
      leadPollMs: 60,
      workMs: [1, 3],
      seed: 11,
      onEvent: (e) => {
        events.push(e);
        if (e.kind === 'consumed') for (const m of e.messages) entries.push(m as ClaudeMessage);
      },
    });
    const lead = sim.lead!;
    await until((e) => e.kind === 'idle' && e.member === 'writer');
    await until((e) => e.kind === 'idle' && e.member === 'researcher');
    mine = { rows: [], meta: {}, session: JSON.parse(await readFile(lead.sessionFile, 'utf8')) as Row, config: JSON.parse(await readFile(lead.configPath, 'utf8')) as Row };
    await claudeSend(sim.teamDir, 'researcher', claudeEntry({ from: 'teamdeck', text: 'What is the answer?', summary: 'question from teamdeck' }));
    await claudeSend(sim.teamDir, 'team-lead', claudeEntry({ from: 'teamdeck', text: 'Status, please.', summary: 'status request' }));
    await until((e) => e.kind === 'replied' && e.member === 'researcher' && e.text.includes('What is the answer'));
    await until((e) => e.kind === 'context' && e.member === 'team-lead' && e.from.includes('teamdeck'));
    await lead.requestShutdown('writer', 'the test is done with you');
    await until((e) => e.kind === 'context' && e.member === 'team-lead' && e.from.includes('system'));
    await lead.transcript.flush();
    const sub = join(base, 'projects', '-home-me-proj', lead.sessionId, 'subagents');
    const files = await readdir(sub);
    mine.rows = [...jsonl(await readFile(lead.transcript.path, 'utf8'))];
    for (const f of files.filter((x) => x.endsWith('.jsonl'))) mine.rows.push(...jsonl(await readFile(join(sub, f), 'utf8')));
    mine.meta = JSON.parse(await readFile(join(sub, files.find((f) => f.endsWith('.meta.json'))!), 'utf8')) as Row;
  });
  afterAll(async () => {
    await sim?.stop();
    await rm(base, { recursive: true, force: true });
  });

  it('every user and assistant row has a key order the capture shows for its kind, and every kind is one the capture has', () => {
    const real = shapes(captured().rows);
    const made = shapes(mine.rows);
    expect([...made.keys()].sort()).toEqual(
      ['lead assistant text', 'lead assistant tool_use', 'lead recorded', 'lead tool_result', 'lead typed', 'teammate assistant text', 'teammate assistant tool_use', 'teammate harness', 'teammate recorded', 'teammate tool_result'].sort(),
    );
    for (const [kind, orders] of made) {
      for (const order of orders) expect([...(real.get(kind) ?? [])], kind).toContain(order);
    }
  });

  it('the assistant message envelope, the tool results and the shutdown block match the capture', () => {
    const real = captured().rows;
    const realAssistant = real.find((r) => r.type === 'assistant')!.message as Row;
    const mineAssistant = mine.rows.find((r) => r.type === 'assistant')!.message as Row;
    expect(Object.keys(mineAssistant)).toEqual(Object.keys(realAssistant));
    expect(Object.keys(mineAssistant.usage as Row)).toEqual(Object.keys(realAssistant.usage as Row));

    const resultOf = (rows: Row[], status: string) => rows.find((r) => (r.toolUseResult as Row | undefined)?.status === status)!;
    expect(Object.keys(resultOf(mine.rows, 'teammate_spawned').toolUseResult as Row)).toEqual(Object.keys(resultOf(real, 'teammate_spawned').toolUseResult as Row));
    const text = (r: Row) => ((r.message as { content: { content: { text: string }[] }[] }).content[0]!.content[0]!.text);
    const idPart = /a(researcher|writer)-[0-9a-f]{16}/g;
    expect(text(resultOf(mine.rows, 'teammate_spawned')).replace(idPart, 'ID')).toBe(text(resultOf(real, 'teammate_spawned')).replace(idPart, 'ID'));

    const userText = (r: Row) => (r.type === 'user' ? (r.message as { content: unknown }).content : undefined);
    const request = (rows: Row[]) => rows.map(userText).find((c): c is string => typeof c === 'string' && c.includes('"type":"shutdown_request"'))!;
    const strip = (s: string) => s.replace(/shutdown-\d+@writer/g, 'RID').replace(/"reason":"[^"]*","timestamp":"[^"]*"/, 'R');
    expect(strip(request(mine.rows))).toBe(strip(request(real)));

    const toolInput = (rows: Row[], type: string) =>
      ((rows.find((r) => r.type === 'assistant' && JSON.stringify(r.message).includes(`"type":"${type}","recipient"`))!.message as { content: { input: Row }[] }).content[0]!.input);
    expect(Object.keys(toolInput(mine.rows, 'shutdown_request'))).toEqual(Object.keys(toolInput(real, 'shutdown_request')));
    expect(Object.keys(toolInput(mine.rows, 'shutdown_response'))).toEqual(Object.keys(toolInput(real, 'shutdown_response')));
  });

  it('the lead sees the shutdown approval and the termination notice as in the capture', () => {
    const contents = (rows: Row[]) => rows.filter((r) => !r.isSidechain && r.rowSource === 'recorded').map((r) => (r.message as { content: string }).content);
    const norm = (s: string) => s.replace(/shutdown-\d+@writer/g, 'RID').replace(/"timestamp":"[^"]*"/g, 'TS');
    const approval = (rows: Row[]) => contents(rows).find((c) => c.includes('shutdown_approved'))!;
    const approvalBlock = (c: string) => norm(c.slice(c.lastIndexOf('<teammate-message'), c.indexOf('</teammate-message>', c.lastIndexOf('<teammate-message'))));
    expect(approvalBlock(approval(mine.rows))).toBe(approvalBlock(approval(captured().rows)));
    const terminated = (rows: Row[]) => contents(rows).find((c) => c.includes('teammate_terminated'));
    expect(terminated(mine.rows)).toBe(terminated(captured().rows));
  });

  it('meta.json, sessions/<pid>.json and config.json keys are the capture\'s (the session file without socket and tmux fields)', () => {
    const real = captured();
    expect(Object.keys(mine.meta)).toEqual(Object.keys(real.meta));
    const noSocket = Object.keys(real.session).filter((k) => !['peerProtocol', 'peerFeatures', 'tmux', 'messagingSocketPath'].includes(k));
    expect(Object.keys(mine.session)).toEqual(noSocket);
    expect(Object.keys(mine.config)).toEqual(Object.keys(real.config));
    expect(Object.keys(mine.config.leadProcess as Row)).toEqual(Object.keys(real.config.leadProcess as Row));
    const members = (c: Row) => c.members as Row[];
    expect(members(mine.config).map((m) => Object.keys(m))).toEqual(members(real.config).map((m) => Object.keys(m)));
  });

  it('idle notifications, approvals and requests are framed and keyed as in the capture', async () => {
    const real = captured().inboxes;
    const frameKeys = (list: Row[], type: string, pick: (f: Row) => boolean = () => true) => {
      const e = list.find((x) => typeof x.text === 'string' && (x.text as string).includes(`"type":"${type}"`) && pick(JSON.parse(x.text as string) as Row));
      return e ? Object.keys(JSON.parse(e.text as string) as Row) : undefined;
    };
    const seen = entries as unknown as Row[];
    expect(frameKeys(seen, 'idle_notification', (f) => 'idleReason' in f && 'result' in f)).toEqual(frameKeys(real, 'idle_notification', (f) => !('summary' in f) && 'idleReason' in f));
    expect(frameKeys(seen, 'shutdown_approved')).toEqual(frameKeys(real, 'shutdown_approved'));
    expect(frameKeys(seen, 'shutdown_request')).toEqual(frameKeys(real, 'shutdown_request'));
  });
});
