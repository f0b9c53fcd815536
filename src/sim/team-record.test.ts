// The current-era demo's transcripts against what the real Claude Code 2.1.332 wrote
// (test/fixtures/claude-2.1.332/team-lifecycle) and what docs/claude-contract.md#record says each
// event leaves: every user and assistant row keyed in an order the capture shows for its kind,
// and each kind of event written on every side it reaches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDemoTeam } from './demo.js';
import { routingContent } from './team-record.js';

const FIXTURES = fileURLToPath(new URL('../../test/fixtures/claude-2.1.332/', import.meta.url));
/** Two real runs: a team's lifecycle, and its record (teammates writing to each other, a typed turn, an @name line). */
const CAPTURES = [
  ['team-lifecycle', 'cc4ff1d9-7874-413b-94e4-5b8d2fe0f369'],
  ['team-record', '61e2434f-59b4-42c5-a48c-b7dbeebeccb6'],
] as const;

type Row = Record<string, unknown>;
const jsonl = (text: string): Row[] =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row);
const content = (r: Row) => (r.message as { content: unknown }).content;
const text = (r: Row) => (typeof content(r) === 'string' ? (content(r) as string) : '');
const toolUses = (rows: Row[], name: string) =>
  rows.filter((r) => r.type === 'assistant').flatMap((r) => (content(r) as { type: string; name?: string; input?: Row }[]).filter((b) => b.type === 'tool_use' && b.name === name));

function kindOf(r: Row): string | undefined {
  const who = r.isSidechain ? 'teammate' : 'lead';
  const c = (r.message as { content?: unknown } | undefined)?.content;
  if (r.type === 'assistant') return `${who} assistant ${(c as { type: string }[])[0]!.type}`;
  if (r.type !== 'user') return undefined;
  if (Array.isArray(c) && (c[0] as { type?: string })?.type === 'tool_result') return `${who} tool_result${r.sandboxed === undefined ? '' : ' sandboxed'}`;
  if (r.promptSource === 'typed') return `${who} typed`;
  return `${who} ${String(r.rowSource)}`;
}

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

function capturedRows(): Row[] {
  return CAPTURES.flatMap(([run, session]) => {
    const project = join(FIXTURES, run, 'projects', '-home-me-proj');
    const sub = join(project, session, 'subagents');
    return [
      ...jsonl(readFileSync(join(project, `${session}.jsonl`), 'utf8')),
      ...readdirSync(sub)
        .filter((f) => f.endsWith('.jsonl'))
        .flatMap((f) => jsonl(readFileSync(join(sub, f), 'utf8'))),
    ];
  });
}

describe('the current-era demo writes the team record as 2.1.332 does', () => {
  let base: string;
  let lead: Row[];
  const mates = new Map<string, Row[]>();
  const metas = new Map<string, Row>();
  let now: number;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'teamdeck-record-'));
    await mkdir(join(base, 'teams'));
    now = Date.now();
    const demo = await createDemoTeam({ teamsDir: join(base, 'teams'), now: () => now, cwd: '/home/me/proj' });
    const project = join(base, 'projects', '-home-me-proj');
    lead = jsonl(await readFile(join(project, `${demo.leadSessionId}.jsonl`), 'utf8'));
    const sub = join(project, demo.leadSessionId!, 'subagents');
    for (const f of await readdir(sub)) {
      const name = /^agent-a([a-z]+)-[0-9a-f]{16}\./.exec(f)![1]!;
      if (f.endsWith('.jsonl')) mates.set(name, jsonl(await readFile(join(sub, f), 'utf8')));
      else metas.set(name, JSON.parse(await readFile(join(sub, f), 'utf8')) as Row);
    }
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('keys every user and assistant row in an order the capture shows for its kind', () => {
    const real = shapes(capturedRows());
    const made = shapes([...lead, ...[...mates.values()].flat()]);
    expect(made.size).toBeGreaterThanOrEqual(10);
    for (const [kind, orders] of made) for (const order of orders) expect([...(real.get(kind) ?? [])], kind).toContain(order);
  });

  it('chains each file through parentUuid, in time order, and every assistant row has message.id, model and usage', () => {
    for (const rows of [lead, ...mates.values()]) {
      expect(rows[0]!.parentUuid).toBeNull();
      for (let i = 1; i < rows.length; i++) {
        expect(rows[i]!.parentUuid).toBe(rows[i - 1]!.uuid);
        expect(Date.parse(rows[i]!.timestamp as string)).toBeGreaterThanOrEqual(Date.parse(rows[i - 1]!.timestamp as string));
      }
      for (const r of rows.filter((x) => x.type === 'assistant')) {
        const m = r.message as Row;
        expect(m.id).toMatch(/^msg_[0-9A-Za-z]{24}$/);
        expect(typeof m.model).toBe('string');
        expect(Object.keys(m.usage as Row)).toContain('output_tokens');
      }
    }
  });

  it('a spawn: the Agent call and teammate_spawned result at the lead, the prompt as the teammate\'s first row, the meta beside it', () => {
    const agents = toolUses(lead, 'Agent');
    expect(agents.map((b) => b.input!.name)).toEqual(['researcher', 'implementer', 'tester']);
    const spawned = lead.filter((r) => (r.toolUseResult as Row | undefined)?.status === 'teammate_spawned').map((r) => r.toolUseResult as Row);
    expect(spawned.map((s) => s.teammate_id)).toEqual(['researcher', 'implementer', 'tester'].map((n) => `${n}@${lead[0]!.sessionId as string}`.replace(/@(.{8}).*$/, '@session-$1')));
    const first = mates.get('researcher')![0]!;
    expect(first).toMatchObject({ type: 'user', rowSource: 'recorded', isSidechain: true });
    expect(text(first)).toBe('<teammate-message teammate_id="team-lead" summary="Map token refresh">\nMap out how the auth module refreshes tokens and why sessions expire early.\n</teammate-message>');
    expect(metas.get('tester')).toMatchObject({ name: 'tester', taskKind: 'in_process_teammate', teamName: spawned[0]!.team_name, color: 'yellow', model: 'haiku' });
  });

  it('a SendMessage: its call and a result with msg_id and routing, and the recipient\'s block', () => {
    const implementer = mates.get('implementer')!;
    const [ask] = toolUses(implementer, 'SendMessage');
    expect(ask!.input).toEqual({ to: 'researcher', summary: 'Retry budget owner?', message: 'Does the upload client share the auth retry budget, or does it keep its own?', type: 'message', recipient: 'researcher', recipient_kind: 'name', content: 'Does the upload client share the auth retry budget, or does it keep its own?' });
    const result = implementer.find((r) => (r.toolUseResult as Row | undefined)?.msg_id !== undefined)!.toolUseResult as Row;
    // The capture's keys, in its order.
    expect(Object.keys(result)).toEqual(['success', 'message', 'msg_id', 'routing']);
    expect(result.routing).toEqual({ sender: 'implementer', senderColor: 'green', target: '@researcher', targetColor: 'blue', summary: 'Retry budget owner?', content: 'Does the upload client share the auth retry budget…' });
    expect(mates.get('researcher')!.map(text)).toContain('<teammate-message teammate_id="implementer" color="green" summary="Retry budget owner?">\nDoes the upload client share the auth retry budget, or does it keep its own?\n</teammate-message>');
    // To the lead, routing names the lead's colour as the captures do.
    const toLead = mates.get('researcher')!.map((r) => r.toolUseResult as Row | undefined).find((t) => (t?.routing as Row | undefined)?.target === '@team-lead')!;
    expect(toLead.routing).toMatchObject({ sender: 'researcher', senderColor: 'blue', targetColor: 'red' });
    const real = capturedRows().map((r) => r.toolUseResult as Row | undefined).find((t) => (t?.routing as Row | undefined)?.target === '@team-lead')!;
    expect(Object.keys(toLead.routing as Row)).toEqual(Object.keys(real.routing as Row));
    // A SendMessage to `user` is refused, as 2.1.332 refuses it.
    const refused = mates.get('researcher')!.find((r) => (r.toolUseResult as Row | undefined)?.success === false)!.toolUseResult as Row;
    expect(refused.message).toMatch(/^No agent named 'user' is reachable/);
  });

  it('the lead: typed turns with their answers, several entries in one wrapper row, idle reports with results, the shutdown', () => {
    const typed = lead.filter((r) => r.promptSource === 'typed');
    expect(typed.map(text)).toEqual(['Find out why sessions expire early, fix the upload retries, and run the integration suite.', 'How is it going? Keep it short.']);
    expect(typed.every((r) => (r.origin as Row).kind === 'human' && r.turnOrigin === 'human')).toBe(true);
    const after = lead[lead.indexOf(typed[1]!) + 1]!;
    expect(after.type).toBe('assistant');
    const wrappers = lead.filter((r) => r.rowSource === 'recorded').map(text);
    expect(wrappers.every((w) => w.startsWith('Another Claude session sent a message:\n'))).toBe(true);
    const two = wrappers.find((w) => (w.match(/<teammate-message /g) ?? []).length === 2)!;
    expect(two).toContain('<teammate-message teammate_id="researcher" color="blue" summary="Starting on auth">');
    expect(two).toContain('"type":"idle_notification","from":"researcher"');
    // The turn's last message to anyone but the lead, named as the capture names it.
    expect(two).toContain('"summary":"[to user] Found the bug"');
    for (const n of ['implementer', 'tester']) expect(wrappers.some((w) => w.includes(`"type":"idle_notification","from":"${n}"`) && w.includes('"result":"Done:'))).toBe(true);
    expect(wrappers.some((w) => w.includes('"type":"shutdown_approved"') && w.includes('"paneId":"[invalid id]"'))).toBe(true);
    expect(now - Date.parse(lead.at(-1)!.timestamp as string)).toBeLessThan(60_000);
  });

  it('an @name line reaches only that teammate, from user; a message from Teamdeck reaches the researcher', () => {
    const line = '<teammate-message teammate_id="user">\nRun the upload suite first, then the rest.\n</teammate-message>';
    expect(mates.get('tester')!.map(text)).toContain(line);
    expect(lead.map(text).some((t) => t.includes('Run the upload suite first'))).toBe(false);
    expect(mates.get('researcher')!.map(text)).toContain('<teammate-message teammate_id="teamdeck" summary="Refresh vs logout">\nWhat happens when a refresh races a logout?\n</teammate-message>');
  });

  it('routing shows a long text\'s first 50 characters', () => {
    expect(routingContent('short')).toBe('short');
    expect(routingContent('x'.repeat(60))).toBe(`${'x'.repeat(50)}…`);
  });
});
