// The record read from a real run's transcripts (Claude Code 2.1.332, test/fixtures/claude-2.1.332/team-record):
// a lead spawned two teammates, they reported to it and wrote to each other, the user typed a
// turn and an `@researcher` line.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { frameText, RecordReader, teammateBlocks, type RecordMessage } from './transcript-record.js';

const DIR = join(__dirname, '../../../test/fixtures/claude-2.1.332/team-record/projects/-home-me-proj');
const SID = '61e2434f-59b4-42c5-a48c-b7dbeebeccb6';
const rowsOf = (p: string) =>
  readFileSync(p, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

function files(): Record<string, string> {
  const out: Record<string, string> = { 'team-lead': join(DIR, `${SID}.jsonl`) };
  for (const f of readdirSync(join(DIR, SID, 'subagents'))) if (f.endsWith('.jsonl')) out[/^agent-a(.+)-[0-9a-f]{16}\.jsonl$/.exec(f)![1]!] = join(DIR, SID, 'subagents', f);
  return out;
}

function readAll(opts: { split?: boolean } = {}): Map<string, RecordMessage[]> {
  const f = files();
  const names = new Set(Object.keys(f));
  const out = new Map<string, RecordMessage[]>();
  for (const [agent, path] of Object.entries(f)) {
    const reader = new RecordReader({ agent, isLead: agent === 'team-lead', transcribed: (n) => names.has(n), ours: new Set(['teamdeck']) });
    const rows = rowsOf(path);
    // Read in two pieces, as a tail reads a file that grows: the same messages come out.
    const got = opts.split ? [...reader.read(rows.slice(0, 17)), ...reader.read(rows.slice(17))] : reader.read(rows);
    out.set(agent, got);
  }
  return out;
}

const brief = (m: RecordMessage) => [m.via, m.from, m.to, m.text.startsWith('{') ? JSON.parse(m.text).type : m.text];

describe('RecordReader on a real run', () => {
  it("reads the lead's typed turns with their answers, its spawn prompts, and only the frames of its teammates' messages", () => {
    const lead = readAll().get('team-lead')!;
    expect(lead.map(brief)).toEqual([
      ['typed', 'user', 'team-lead', '[[ROLE:lead]] Start the team. [[SPAWN:researcher]] [[SPAWN:writer]]'],
      ['spawn', 'team-lead', 'researcher', 'You are the researcher. [[SEND:team-lead:researcher reporting in]] [[SEND:writer:Hello writer, researcher here]]'],
      ['spawn', 'team-lead', 'writer', 'You are the writer. [[SEND:team-lead:writer reporting in]] [[SEND:researcher:Hello researcher, writer here]]'],
      ['answer', 'team-lead', 'user', 'lead: ok'],
      ['message', 'researcher', 'team-lead', 'idle_notification'],
      ['message', 'writer', 'team-lead', 'idle_notification'],
      ['message', 'writer', 'team-lead', 'idle_notification'],
      ['message', 'researcher', 'team-lead', 'idle_notification'],
      ['typed', 'user', 'team-lead', 'What is the plan? [[SAY:The plan is to read the record.]]'],
      ['answer', 'team-lead', 'user', 'The plan is to read the record.'],
      ['message', 'researcher', 'team-lead', 'idle_notification'],
    ]);
    expect(lead[1]).toMatchObject({ id: 'sp-aresearcher-889e1aacffc55ac9', summary: 'researcher joins the team', color: 'blue', timestamp: '2026-12-07T06:18:06.943Z' });
    expect(lead[8]).toMatchObject({ timestamp: '2026-12-07T06:18:09.421Z', byText: true });
    expect(lead[9]).toMatchObject({ id: 'tx-msg_standin_11', answer: true, timestamp: '2026-12-07T06:18:09.470Z' });
    // Several blocks in one "Another Claude session sent a message:" row: one message each, ids apart.
    expect(new Set(lead.map((m) => m.id)).size).toBe(lead.length);
  });

  it("reads a teammate's sends with Claude's msg_id, and an @name line with the teammate's answer", () => {
    const researcher = readAll().get('researcher')!;
    expect(researcher.map(brief)).toEqual([
      ['message', 'researcher', 'team-lead', 'researcher reporting in'],
      ['message', 'researcher', 'writer', 'Hello writer, researcher here'],
      ['at-name', 'user', 'researcher', 'What did you find? [[SAY:I found the whole record.]]'],
      ['answer', 'researcher', 'user', 'I found the whole record.'],
    ]);
    expect(researcher[0]).toMatchObject({ id: 'a1471a3b-0e35-4b16-ab42-cae86dc02cfa', summary: 'researcher to team-lead', timestamp: '2026-12-07T06:18:07.016Z' });
    expect(researcher[0]!.byText).toBeUndefined();
    expect(researcher[2]).toMatchObject({ byText: true, timestamp: '2026-12-07T06:18:10.091Z' });
    // The spawn prompt and the writer's message are read on the lead's and the writer's side.
    expect(readAll().get('writer')!.map(brief)).toEqual([
      ['message', 'writer', 'team-lead', 'writer reporting in'],
      ['message', 'writer', 'researcher', 'Hello researcher, writer here'],
    ]);
  });

  it('reads the same messages when the rows come in pieces', () => {
    const whole = readAll();
    const split = readAll({ split: true });
    for (const [agent, list] of whole) expect(split.get(agent)!.map((m) => m.id)).toEqual(list.map((m) => m.id));
  });

  it('takes a refused SendMessage (to "user") as an answer, a Teamdeck entry as the user\'s, and a frame with Claude\'s instructions after it', () => {
    const reader = new RecordReader({ agent: 'worker', isLead: false, transcribed: (n) => n === 'team-lead', ours: new Set(['teamdeck']) });
    const t = '2026-12-07T06:00:00.000Z';
    const got = reader.read([
      { type: 'user', uuid: 'u1', timestamp: t, message: { role: 'user', content: '<teammate-message teammate_id="teamdeck" summary="note">\nHello from Teamdeck\n</teammate-message>' } },
      { type: 'api-request-blob', message: { role: 'user', content: '<teammate-message teammate_id="teamdeck">\nHello from Teamdeck\n</teammate-message>' } },
      { type: 'assistant', uuid: 'a1', timestamp: t, message: { id: 'm1', content: [{ type: 'tool_use', id: 'tu1', name: 'SendMessage', input: { to: 'user', summary: 's', message: 'Hi user' } }] } },
      { type: 'user', uuid: 'u2', timestamp: t, toolUseResult: { success: false, message: "No agent named 'user' is reachable." }, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu1', content: '{"success":false}', is_error: true }] } },
      { type: 'assistant', uuid: 'a2', timestamp: t, message: { id: 'm2', stop_reason: 'end_turn', content: [{ type: 'text', text: 'Done.' }] } },
      {
        type: 'user',
        uuid: 'u3',
        timestamp: t,
        message: { role: 'user', content: '<teammate-message teammate_id="team-lead">\n{"type":"shutdown_request","requestId":"shutdown-1@worker","from":"team-lead","timestamp":"x"}\n\nThis is a shutdown request. To approve it, call SendMessage.\n</teammate-message>' },
      },
    ]);
    expect(got.map((m) => [m.id, m.via, m.from, m.to, m.text, m.answer ?? false])).toEqual([
      ['tr-u1-0', 'teamdeck', 'teamdeck', 'worker', 'Hello from Teamdeck', false],
      ['tx-tu1', 'message', 'worker', 'user', 'Hi user', true],
      ['tx-m2', 'answer', 'worker', 'user', 'Done.', true],
      ['tr-u3-0', 'message', 'team-lead', 'worker', '{"type":"shutdown_request","requestId":"shutdown-1@worker","from":"team-lead","timestamp":"x"}', false],
    ]);
    expect(got[0]).toMatchObject({ sentAs: 'teamdeck', summary: 'note' });
    // A refused send wrote no entry: nothing to match it to by text.
    expect(got[1]!.byText).toBeUndefined();
  });

  it("matches a legacy SendMessage by text: its result gives no msg_id, and the entry's id is derived from its own timestamp", () => {
    const reader = new RecordReader({ agent: 'worker', isLead: false, transcribed: () => true, ours: new Set() });
    const t = '2026-02-07T15:35:15.000Z';
    const send = (id: string, to: string, message: string) => ({ type: 'assistant', uuid: `a-${id}`, timestamp: t, message: { id: `m-${id}`, content: [{ type: 'tool_use', id, name: 'SendMessage', input: { to, message } }] } });
    const result = (id: string, toolUseResult: unknown) => ({ type: 'user', uuid: `r-${id}`, timestamp: t, toolUseResult, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] } });
    const got = reader.read([
      send('tu1', 'user', 'Done: events.rs is documented.'),
      result('tu1', { success: true, message: "Message sent to user's inbox" }),
      send('tu2', 'other', 'Take config.rs.'),
      result('tu2', { success: true, message: "Message sent to other's inbox", msg_id: 'c0ffee00-0000-4000-8000-000000000001' }),
    ]);
    expect(got.map((m) => [m.id, m.from, m.to, m.answer ?? false, m.byText ?? false])).toEqual([
      ['tx-tu1', 'worker', 'user', true, true],
      ['c0ffee00-0000-4000-8000-000000000001', 'worker', 'other', false, false],
    ]);
  });

  it('parses block attributes and leaves plain text alone', () => {
    expect(teammateBlocks('<teammate-message teammate_id="a" color="blue" summary="s">\nx\n</teammate-message>')).toEqual([{ from: 'a', attrs: { color: 'blue', summary: 's' }, text: 'x' }]);
    expect(frameText('just words')).toBeUndefined();
  });
});

describe("RecordReader on a pane teammate's transcript (Claude Code 2.1.337, test/fixtures/claude-2.1.337/pane-teammate)", () => {
  it("reads Teamdeck's message and the reply of three text blocks (three rows, one id) as one answer", () => {
    const dir = join(__dirname, '../../../test/fixtures/claude-2.1.337/pane-teammate/projects/-home-me-proj');
    const reader = new RecordReader({ agent: 'researcher', isLead: false, transcribed: (n) => n === 'team-lead' || n === 'researcher', ours: new Set(['teamdeck']) });
    const got = reader.read(rowsOf(join(dir, '759ee01d-c02b-44d4-8ae0-87e88abcc831.jsonl')));
    expect(got.map(brief)).toEqual([
      ['teamdeck', 'teamdeck', 'researcher', 'Answer in three parts. [[SAY:part one]][[SAY:part two]][[SAY:part three]]'],
      ['answer', 'researcher', 'user', 'part one\npart two\npart three'],
    ]);
    expect(got[1]!.id).toBe('tx-msg_standin_5');
  });
});
