// The team's traffic as its members' transcripts record it (Claude Code 2.1.332,
// docs/claude-contract.md#record): what each model received and sent, read row by row, one
// member's transcript at a time, into record messages. Pure: no files, no journal; the caller
// feeds rows in file order and merges what comes out (ingest/transcript-record.ts).
//
// Each message is taken from one side only, so that one message is one record message:
//   - a SendMessage is read on the sender's side (its input, and the `msg_id` its result gives,
//     which is the inbox entry's id; legacy Claude gives none, so its entry is matched by text);
//     its block on the recipient's side is passed over, unless the sender has no transcript here
//     (a pane teammate, another session);
//   - a spawn prompt on the lead's side (the Agent call and its `teammate_spawned` result);
//   - what a member's process wrote itself, not its model (idle notifications, shutdown
//     approvals: protocol frames), on the recipient's side;
//   - the user's words where only one side exists: a turn typed in the lead's terminal, an
//     `@name` line (a `teammate_id="user"` block), an entry written as Teamdeck; and the final
//     text of each turn they started, as the member's answer.
// Recipient-side messages have no id of Claude's: theirs is the row's uuid and the block's place,
// stable across reads, and the caller matches them to other sources by sender, recipient and text.
import { parseFrame } from './frames.js';
import { turnEndText, type Row } from './transcript-rows.js';
import type { MessageVia } from '../../shared/types.js';

/** The user, as Claude names the human in a `<teammate-message teammate_id="user">` block. */
const USER = 'user';

export interface RecordMessage {
  /** Claude's `msg_id` (sender side), `tx-<id>` (an answer, a refused send), `tr-<row uuid>-<n>` (recipient side), `sp-<agent id>` (a spawn). */
  id: string;
  from: string;
  to: string;
  text: string;
  summary?: string;
  color?: string;
  /** ISO-8601, the row's. */
  timestamp: string;
  via: MessageVia;
  /** The user's words written under one of Teamdeck's names (`from` is that name, as written). */
  sentAs?: string;
  /** A member's answer to the user (the final text of a turn the user started, a send to `user`). */
  answer?: true;
  /** No id of Claude's (read on the recipient's side, or a legacy send): the caller matches it to other sources by sender, recipient and text. */
  byText?: true;
}

export interface RecordOptions {
  /** The agent whose transcript this is (`team-lead`, a teammate's name). */
  agent: string;
  /** Whether it is the lead's transcript (typed turns exist only there). */
  isLead: boolean;
  /** Whose transcripts are read for this team: their sends are read on their side. */
  transcribed: (name: string) => boolean;
  /** The names Teamdeck writes as on this team: a block from one of them is the user's. */
  ours: ReadonlySet<string>;
}

/** Tool calls waiting for their result are remembered up to this many per transcript. */
const MAX_PENDING = 256;

const BLOCK = /<teammate-message teammate_id="([^"]*)"([^>]*)>\n?([\s\S]*?)\n?<\/teammate-message>/g;
const ATTR = /\s([a-z_]+)="([^"]*)"/g;

/** The `<teammate-message>` blocks of a prompt, with their attributes. */
export function teammateBlocks(prompt: string): Array<{ from: string; attrs: Record<string, string>; text: string }> {
  const out: Array<{ from: string; attrs: Record<string, string>; text: string }> = [];
  for (const m of prompt.matchAll(BLOCK)) {
    const attrs: Record<string, string> = {};
    for (const a of m[2]!.matchAll(ATTR)) attrs[a[1]!] = a[2]!;
    out.push({ from: m[1]!, attrs, text: m[3]! });
  }
  return out;
}

/**
 * The frame a block carries, if its text is one: Claude appends its instructions to a shutdown
 * request after a blank line (docs/claude-contract.md#provenance), so the JSON before it counts.
 */
export function frameText(text: string): string | undefined {
  if (!text.startsWith('{')) return undefined;
  if (parseFrame(text)) return text;
  const cut = text.indexOf('}\n\n');
  const head = cut > 0 ? text.slice(0, cut + 1) : undefined;
  return head !== undefined && parseFrame(head) ? head : undefined;
}

function content(row: Row): unknown {
  return (row.message as { content?: unknown } | undefined)?.content;
}

function blocksOf(row: Row): Array<Record<string, unknown>> {
  const c = content(row);
  return Array.isArray(c) ? c.filter((b): b is Record<string, unknown> => !!b && typeof b === 'object') : [];
}

function promptString(row: Row): string | undefined {
  const c = content(row);
  if (typeof c === 'string') return c;
  const texts = blocksOf(row)
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string);
  return texts.length ? texts.join('\n') : undefined;
}

/** A typed line that is a command or its output, not words to the model (`/exit`, `!ls`). */
function isCommandEcho(text: string): boolean {
  return /^\s*<(command-|local-command-|bash-)/.test(text);
}

/** Reads one member's transcript into record messages; holds only the turn in progress and the tool calls awaiting results. */
export class RecordReader {
  /** The user's words started the turn in progress: its final text is the member's answer to them. */
  private turnFromUser = false;
  private readonly pending = new Map<string, { name: string; input: Record<string, unknown>; timestamp: string }>();
  private lastTime = '';
  /** The answer this read found last: later blocks of its reply are added to it. */
  private answer: RecordMessage | undefined;

  constructor(private readonly opts: RecordOptions) {}

  read(rows: readonly Row[]): RecordMessage[] {
    const out: RecordMessage[] = [];
    // Only an answer of this read can still grow: one read before is the caller's already.
    this.answer = undefined;
    for (const row of rows) this.row(row, out);
    return out;
  }

  private row(row: Row, out: RecordMessage[]): void {
    // Only the models' own rows and what they received: `api-request-blob` rows repeat them.
    if (row.type !== 'user' && row.type !== 'assistant' && row.type !== 'attachment') return;
    const timestamp = typeof row.timestamp === 'string' ? row.timestamp : this.lastTime;
    if (timestamp === '') return;
    this.lastTime = timestamp;
    if (row.type === 'assistant') return this.assistant(row, timestamp, out);
    if (row.type === 'attachment') {
      // A turn typed while a tool ran reaches the model as a queued command.
      const a = row.attachment as { type?: unknown; prompt?: unknown; origin?: { kind?: unknown } } | undefined;
      if (this.opts.isLead && a?.type === 'queued_command' && typeof a.prompt === 'string' && a.origin?.kind === 'human' && !isCommandEcho(a.prompt)) {
        out.push({ id: `tr-${String(row.uuid ?? timestamp)}-0`, from: USER, to: this.opts.agent, text: a.prompt, timestamp, via: 'typed', byText: true });
        this.turnFromUser = true;
      }
      return;
    }
    if (row.toolUseResult !== undefined || blocksOf(row).some((b) => b.type === 'tool_result')) return this.results(row, timestamp, out);
    this.prompt(row, timestamp, out);
  }

  private assistant(row: Row, timestamp: string, out: RecordMessage[]): void {
    for (const b of blocksOf(row)) {
      if (b.type !== 'tool_use' || typeof b.id !== 'string' || (b.name !== 'SendMessage' && b.name !== 'Agent')) continue;
      this.pending.set(b.id, { name: b.name, input: (b.input as Record<string, unknown>) ?? {}, timestamp });
      if (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
    }
    const end = turnEndText(row);
    if (!end) return;
    // A later block of the same reply (a row per content block, each `end_turn`): the answer grows.
    if (this.answer?.id === `tx-${end.id}`) {
      this.answer.text += `\n${end.text}`;
      return;
    }
    if (this.turnFromUser) out.push((this.answer = { id: `tx-${end.id}`, from: this.opts.agent, to: USER, text: end.text, timestamp, via: 'answer', answer: true }));
    this.turnFromUser = false;
  }

  private results(row: Row, timestamp: string, out: RecordMessage[]): void {
    const results = blocksOf(row).filter((b) => b.type === 'tool_result' && typeof b.tool_use_id === 'string');
    // The row's `toolUseResult` is its one result's (Claude writes one tool result per row).
    const tur = results.length === 1 && row.toolUseResult && typeof row.toolUseResult === 'object' ? (row.toolUseResult as Record<string, unknown>) : undefined;
    for (const r of results) {
      const id = r.tool_use_id as string;
      const call = this.pending.get(id);
      if (!call) continue;
      this.pending.delete(id);
      if (call.name === 'Agent') {
        if (tur?.status !== 'teammate_spawned') continue;
        const to = typeof tur.name === 'string' ? tur.name : typeof call.input.name === 'string' ? call.input.name : undefined;
        const text = typeof call.input.prompt === 'string' ? call.input.prompt : typeof tur.prompt === 'string' ? tur.prompt : undefined;
        if (to === undefined || text === undefined) continue;
        const m: RecordMessage = { id: `sp-${typeof tur.agentId === 'string' ? tur.agentId : id}`, from: this.opts.agent, to, text, timestamp, via: 'spawn' };
        if (typeof call.input.description === 'string') m.summary = call.input.description;
        if (typeof tur.color === 'string') m.color = tur.color;
        out.push(m);
        continue;
      }
      const to = call.input.to ?? call.input.recipient;
      const text = call.input.message;
      // A protocol message (a shutdown request or answer) is read where Claude delivers it, as the frame it wrote.
      if (typeof to !== 'string' || typeof text !== 'string' || text.trim() === '') continue;
      // A send to a session's messaging socket (`uds:<path>`) is read where it arrives: Teamdeck's
      // own socket journals what reaches it (ingest/socket-answers.ts), with an id of its own.
      if (to.startsWith('uds:')) continue;
      const msgId = tur?.success === true && typeof tur.msg_id === 'string' ? tur.msg_id : undefined;
      const m: RecordMessage = { id: msgId ?? `tx-${id}`, from: this.opts.agent, to, text, timestamp: call.timestamp, via: 'message' };
      if (typeof call.input.summary === 'string') m.summary = call.input.summary;
      // Sent, but with no id of Claude's (legacy Claude's entries and results carry none: the
      // entry's id is derived from from|timestamp|text, and the timestamp is not here): the entry
      // it wrote is matched by sender, recipient and text. A refused send wrote none.
      if (msgId === undefined && tur?.success !== false) m.byText = true;
      // Aimed at the user or at Teamdeck's name: Claude refuses those, and this is the only place they exist.
      if (to.toLowerCase() === USER || this.opts.ours.has(to)) m.answer = true;
      out.push(m);
    }
  }

  private prompt(row: Row, timestamp: string, out: RecordMessage[]): void {
    const origin = row.origin as { kind?: unknown; msg_id?: unknown; name?: unknown; from?: unknown; body?: unknown } | undefined;
    if (row.isMeta === true && origin?.kind !== 'peer') return;
    const text = promptString(row);
    if (text === undefined) return;
    const uuid = String(row.uuid ?? timestamp);
    const { agent } = this.opts;
    if (origin?.kind === 'peer') {
      // A message on the session's messaging socket: its sender's id is the row's.
      const from = typeof origin.name === 'string' ? origin.name : typeof origin.from === 'string' ? origin.from : 'another session';
      const body = typeof origin.body === 'string' ? origin.body : text;
      const m: RecordMessage = { id: typeof origin.msg_id === 'string' ? origin.msg_id : `tr-${uuid}-0`, from, to: agent, text: body, timestamp, via: 'socket' };
      if (this.opts.ours.has(from)) {
        m.sentAs = from;
        this.turnFromUser = true;
      }
      out.push(m);
      return;
    }
    if (this.opts.isLead && (origin?.kind === 'human' || row.promptSource === 'typed')) {
      if (isCommandEcho(text)) return;
      out.push({ id: `tr-${uuid}-0`, from: USER, to: agent, text, timestamp, via: 'typed', byText: true });
      this.turnFromUser = true;
      return;
    }
    teammateBlocks(text).forEach((b, i) => {
      const base = { id: `tr-${uuid}-${i}`, to: agent, timestamp, byText: true as const };
      const extra: Partial<RecordMessage> = {};
      if (b.attrs.summary !== undefined) extra.summary = b.attrs.summary;
      if (b.attrs.color !== undefined) extra.color = b.attrs.color;
      if (b.from === USER && b.attrs.verified === undefined) {
        // An `@name` line typed in the lead's terminal (Claude writes it as from "user").
        out.push({ ...base, ...extra, from: USER, text: b.text, via: 'at-name' });
        this.turnFromUser = true;
      } else if (this.opts.ours.has(b.from)) {
        out.push({ ...base, ...extra, from: b.from, sentAs: b.from, text: b.text, via: 'teamdeck' });
        this.turnFromUser = true;
      } else if (this.opts.transcribed(b.from)) {
        // Its model's words are read on its side; what its process wrote (a frame) only here.
        const frame = frameText(b.text);
        if (frame !== undefined) out.push({ ...base, ...extra, from: b.from, text: frame, via: 'message' });
      } else out.push({ ...base, ...extra, from: b.from, text: b.text, via: 'message' });
    });
  }
}
