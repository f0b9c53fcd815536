// A team's record as Claude Code 2.1.332 leaves it in its members' transcripts
// (docs/claude-contract.md#record): the lead's `<sessionId>.jsonl` and each in-process teammate's
// `subagents/agent-a<name>-<16 hex>.jsonl` + `.meta.json`. One method per thing that happens in a
// team (a typed turn, a spawn, a SendMessage, a delivery, an idle report, an `@name` line), each
// writing the rows Claude writes for it on every side, in its row shapes (transcript-rows.ts).
// Synchronous and in memory: the demo and the history generator decide when the files are written.
import { join } from 'node:path';
import { LEAD_NAME } from './claude-config.js';
import { claudeSidePaths, inboxFileStem } from './claude-paths.js';
import { leadTurn, leadViewOf, shutdownAppendix, teammateBlock, teammateTurn, type BlockInput } from './framing.js';
import { spawnResult, spawnToolResult } from './spawn-result.js';
import { DEFAULT_MODEL, newPromptState, randomIds, teammateMetaJson, TranscriptRows, type Ids, type PromptState, type Row } from './transcript-rows.js';

/** Where rows go: one JSON line appended to a file, or a whole small file (the `.meta.json`). */
export interface RecordSink {
  row(path: string, row: Row): void;
  file(path: string, text: string): void;
}

/** A sink that keeps every file's lines in memory until the caller writes them. */
export class MemorySink implements RecordSink {
  readonly lines = new Map<string, string[]>();
  readonly files = new Map<string, string>();
  row(path: string, row: Row): void {
    let list = this.lines.get(path);
    if (!list) this.lines.set(path, (list = []));
    list.push(JSON.stringify(row));
  }
  file(path: string, text: string): void {
    this.files.set(path, text);
  }
}

export interface RecordMate {
  name: string;
  agentId: string;
  color?: string;
  model: string;
  agentType?: string;
  description: string;
  prompt: string;
  path: string;
  rows: TranscriptRows;
}

export interface MateSpec {
  name: string;
  description: string;
  prompt: string;
  color?: string;
  model?: string;
  agentType?: string;
}

/** An inbox entry as the recipient's model sees it: who sent it, its text, and what the block shows. */
export interface Sent extends BlockInput {
  to: string;
  msgId?: string;
  at: number;
}

export interface TeamRecordOptions {
  /** The teams root: `<config>` is its parent, the transcripts are under `<config>/projects`. */
  teamsDir: string;
  sessionId: string;
  cwd: string;
  sink: RecordSink;
  ids?: Ids;
  leadModel?: string;
  /** For rows made without a time of their own. */
  now?: () => number;
  /** The team's name (the teammates' `.meta.json` teamName); default `session-<8>` of the session. */
  team?: string;
  /** Legacy Claude: its SendMessage results (and so its entries) carry no `msg_id`. */
  legacy?: boolean;
}

/** The colour 2.1.332's SendMessage routing gives the lead (seen in both captures; the lead has none in config). */
export const LEAD_ROUTING_COLOR = 'red';

/** The routing summary of a SendMessage result shows the text's first 50 characters (docs/claude-contract.md#record). */
export function routingContent(text: string): string {
  return text.length <= 50 ? text : `${text.slice(0, 50)}…`;
}

export class TeamRecord {
  readonly team: string;
  readonly sessionId: string;
  readonly cwd: string;
  readonly lead: TranscriptRows;
  readonly leadPath: string;
  readonly prompt: PromptState;
  readonly mates = new Map<string, RecordMate>();
  private readonly ids: Ids;
  private readonly now: () => number;

  constructor(private readonly o: TeamRecordOptions) {
    this.team = o.team ?? `session-${o.sessionId.slice(0, 8)}`;
    this.sessionId = o.sessionId;
    this.cwd = o.cwd;
    this.ids = o.ids ?? randomIds;
    this.now = o.now ?? Date.now;
    this.prompt = newPromptState(this.ids);
    this.leadPath = claudeSidePaths(o.teamsDir).leadTranscript(o.cwd, o.sessionId);
    const owner = { sessionId: o.sessionId, cwd: o.cwd, model: o.leadModel, prompt: this.prompt };
    this.lead = new TranscriptRows(owner, (row) => o.sink.row(this.leadPath, row), this.now, this.ids);
  }

  mate(name: string): RecordMate {
    const m = this.mates.get(name);
    if (!m) throw new Error(`no teammate ${name} in this record`);
    return m;
  }

  private colorOf(name: string): string | undefined {
    return this.mates.get(name)?.color;
  }

  private routingColor(name: string): string | undefined {
    return name === LEAD_NAME ? LEAD_ROUTING_COLOR : this.colorOf(name);
  }

  /** A turn the user typed into the lead's terminal (origin human). */
  typed(text: string, at: number): Row {
    return this.lead.typed(text, at);
  }

  /** The lead's words: the final text of its turn, which is its answer to what started the turn. */
  leadSays(text: string, at: number): Row[] {
    return this.lead.text(text, at);
  }

  /**
   * The lead spawns teammates: one reply with an Agent call per teammate, then each call's
   * result (status teammate_spawned); each teammate's transcript opens with the spawn prompt as
   * a block from team-lead whose summary is the call's description.
   */
  spawn(specs: MateSpec[], at: number): RecordMate[] {
    const calls = specs.map((s) => ({ s, id: this.lead.toolUseId() }));
    const rows = this.lead.assistant(
      calls.map(({ s, id }) => ({ type: 'tool_use', id, name: 'Agent', input: { description: s.description, prompt: s.prompt, name: s.name, subagent_type: 'general-purpose' } })),
      at,
    );
    const made: RecordMate[] = [];
    const dir = claudeSidePaths(this.o.teamsDir).subagentsDir(this.o.cwd, this.o.sessionId);
    for (const [i, { s, id }] of calls.entries()) {
      const agentId = `a${inboxFileStem(s.name)}-${this.ids.hex(8)}`;
      const model = s.model ?? DEFAULT_MODEL;
      const path = join(dir, `agent-${agentId}.jsonl`);
      const rowsOf = new TranscriptRows({ sessionId: this.o.sessionId, cwd: this.o.cwd, agentId, model, prompt: this.prompt }, (row) => this.o.sink.row(path, row), this.now, this.ids);
      const m: RecordMate = { name: s.name, agentId, color: s.color, model, agentType: s.agentType, description: s.description, prompt: s.prompt, path, rows: rowsOf };
      const info = spawnToolResult({ agentId, name: s.name, team: this.team, prompt: s.prompt, model, color: s.color, cwd: this.o.cwd, sessionId: this.o.sessionId });
      this.lead.toolResult(rows[i]!, { tool_use_id: id, type: 'tool_result', content: [{ type: 'text', text: spawnResult(agentId, s.name) }] }, info, at + 100 * (i + 1));
      this.o.sink.file(path.replace(/\.jsonl$/, '.meta.json'), teammateMetaJson({ name: s.name, teamName: this.team, description: s.description, model, color: s.color, agentType: s.agentType }));
      m.rows.recorded(teammateBlock({ from: LEAD_NAME, text: s.prompt, summary: s.description }), at + 100 * (i + 1) + 2);
      // The harness names the agents already running on a teammate's first turn ("main" is the lead).
      const others = [...this.mates.keys()];
      if (others.length > 0) m.rows.harness(`<system-reminder>\nOther agents active in this session, addressable via SendMessage({to: name, message}): main, ${others.join(', ')}.\n</system-reminder>`, at + 100 * (i + 1) + 3);
      this.mates.set(s.name, m);
      made.push(m);
    }
    return made;
  }

  private rowsOf(name: string): TranscriptRows {
    return name === LEAD_NAME ? this.lead : this.mate(name).rows;
  }

  /**
   * A SendMessage from a member: its tool_use, then its result with the inbox entry's msg_id and
   * the routing. Returns the entry as its recipient will see it (deliver it with toLead/toMate).
   * With `text` written only before the tool runs, `at` is the call; the result follows 200 ms on.
   */
  send(from: string, to: string, text: string, summary: string, at: number): Sent {
    const rows = this.rowsOf(from);
    const id = rows.toolUseId();
    const [call] = rows.assistant([{ type: 'tool_use', id, name: 'SendMessage', input: { to, summary, message: text, type: 'message', recipient: to, recipient_kind: 'name', content: text } }], at);
    const msgId = this.o.legacy ? undefined : this.ids.uuid();
    const routing: Record<string, unknown> = { sender: from };
    if (this.routingColor(from) !== undefined) routing.senderColor = this.routingColor(from);
    routing.target = `@${to}`;
    if (this.routingColor(to) !== undefined) routing.targetColor = this.routingColor(to);
    routing.summary = summary;
    routing.content = routingContent(text);
    const result = { success: true, message: `Message sent to ${to}'s inbox`, ...(msgId ? { msg_id: msgId } : {}), routing };
    rows.toolResult(call!, { tool_use_id: id, type: 'tool_result', content: [{ type: 'text', text: JSON.stringify(result) }] }, result, at + 200);
    return { from, to, text, summary, color: this.colorOf(from), msgId, at: at + 200 };
  }

  /** A SendMessage to `user`, which 2.1.332 refuses: there is no such agent (docs/claude-contract.md#user-answers). */
  sendToUser(from: string, text: string, summary: string, at: number): void {
    const rows = this.rowsOf(from);
    const id = rows.toolUseId();
    const [call] = rows.assistant([{ type: 'tool_use', id, name: 'SendMessage', input: { to: 'user', summary, message: text, type: 'message', recipient: 'user', recipient_kind: 'name', content: text } }], at);
    const message = "No agent named 'user' is reachable.\nCheck the spelling, or use the agent ID from a background agent's spawn result.";
    const content = JSON.stringify({ success: false, message });
    rows.toolResult(call!, { tool_use_id: id, type: 'tool_result', content: [{ type: 'text', text: content }] }, { success: false, message, display: "Not sent — no agent named 'user' is reachable." }, at + 150);
  }

  /** An entry from outside the team (Teamdeck writes as `teamdeck`): what the recipient's model sees. */
  external(from: string, to: string, text: string, summary: string | undefined, at: number): Sent {
    return { from, to, text, summary, at };
  }

  /**
   * A teammate's idle report at the end of its turn; `result` is the turn's final text. A turn
   * that sent a message to anyone but the lead (even one Claude refused) names the last of them
   * in `summary`, as `[to <name>] <its summary>` (test/fixtures/claude-2.1.332/team-record).
   */
  idle(name: string, at: number, result?: string, peer?: { to: string; summary?: string }): Sent {
    const frame: Record<string, unknown> = { type: 'idle_notification', from: name, timestamp: new Date(at).toISOString(), idleReason: 'available' };
    if (peer) frame.summary = `[to ${peer.to}] ${peer.summary ?? ''}`;
    if (result !== undefined) frame.result = result;
    return { from: name, to: LEAD_NAME, text: JSON.stringify(frame), color: this.colorOf(name), at };
  }

  /** The lead's poll: every entry it took in one row, inside the "Another Claude session" wrapper. Its turn ends with `answer`. */
  toLead(entries: Sent[], at: number, answer?: string): Row {
    const row = this.lead.recorded(leadTurn(entries.map((e) => ({ ...e, text: leadViewOf(e.text) }))), at);
    this.lead.text(answer ?? `Noted: ${[...new Set(entries.map((e) => e.from))].join(', ')}.`, at + 600);
    return row;
  }

  /** A teammate's poll: the entries it took, one block each, in one row. */
  toMate(name: string, entries: Sent[], at: number): Row {
    return this.mate(name).rows.recorded(teammateTurn(entries), at);
  }

  /** `@name text` typed in the lead's terminal: only the teammate's transcript has it, from `user`. */
  atMention(name: string, text: string, at: number): Row {
    return this.mate(name).rows.recorded(teammateBlock({ from: 'user', text }), at);
  }

  /** A teammate's words: the final text of its turn. */
  mateSays(name: string, text: string, at: number): Row[] {
    return this.mate(name).rows.text(text, at);
  }

  /** A tool a member ran: the call (after some words), and the tool's answer; Bash's result shape. */
  bash(name: string, command: string, stdout: string, at: number, words?: string): void {
    const rows = this.rowsOf(name);
    const id = rows.toolUseId();
    const blocks = [...(words ? [{ type: 'text' as const, text: words }] : []), { type: 'tool_use' as const, id, name: 'Bash', input: { command, description: `run ${command.slice(0, 40)}` } }];
    const call = rows.assistant(blocks, at).at(-1)!;
    rows.toolResult(call, { tool_use_id: id, type: 'tool_result', content: stdout, is_error: false }, { stdout, stderr: '', interrupted: false, isImage: false, noOutputExpected: false }, at + 1_000, false);
  }

  /**
   * The lead lets a teammate go: its shutdown_request, the teammate's approval, and the lead
   * told the teammate has shut down (from its own memory: a "system" block).
   */
  shutdown(name: string, reason: string, at: number): void {
    const requestId = `shutdown-${at}@${name}`;
    const request = JSON.stringify({ type: 'shutdown_request', requestId, from: LEAD_NAME, reason, timestamp: new Date(at).toISOString() });
    const askId = this.lead.toolUseId();
    const [ask] = this.lead.assistant([{ type: 'tool_use', id: askId, name: 'SendMessage', input: { to: name, message: { type: 'shutdown_request', reason }, type: 'shutdown_request', recipient: name, recipient_kind: 'name', content: reason } }], at - 30);
    const sent = { success: true, message: `Shutdown request sent to ${name}. Request ID: ${requestId}`, request_id: requestId, target: name };
    this.lead.toolResult(ask!, { tool_use_id: askId, type: 'tool_result', content: [{ type: 'text', text: JSON.stringify(sent) }] }, sent, at + 40);
    const m = this.mate(name);
    m.rows.recorded(teammateBlock({ from: LEAD_NAME, text: request, appendix: shutdownAppendix(requestId, LEAD_NAME) }), at + 170);
    const approveId = m.rows.toolUseId();
    const message = { type: 'shutdown_response', request_id: requestId, approve: true };
    const [approve] = m.rows.assistant([{ type: 'tool_use', id: approveId, name: 'SendMessage', input: { to: LEAD_NAME, message, type: 'shutdown_response', recipient: LEAD_NAME, recipient_kind: 'name', request_id: requestId, approve: true } }], at + 210);
    const said = { success: true, message: `Shutdown approved. Sent confirmation to ${LEAD_NAME}. Agent ${name} is now exiting.`, request_id: requestId };
    m.rows.toolResult(approve!, { tool_use_id: approveId, type: 'tool_result', content: [{ type: 'text', text: JSON.stringify(said) }] }, said, at + 230);
    const approved = JSON.stringify({ type: 'shutdown_approved', requestId, from: name, timestamp: new Date(at + 220).toISOString(), paneId: 'in-process', backendType: 'in-process' });
    this.toLead([{ from: name, to: LEAD_NAME, text: approved, color: m.color, at: at + 220 }], at + 820);
    this.lead.recorded(leadTurn([{ from: 'system', text: JSON.stringify({ type: 'teammate_terminated', message: `${name} has shut down.` }) }]), at + 1_500);
    this.lead.text('Noted: system.', at + 1_550);
  }
}
