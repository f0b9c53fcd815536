// Claude Code 2.1.332-2.1.337 transcript rows (docs/claude-contract.md#transcripts), read for what a member is doing, as a
// timeline, and for what reached a model and what it answered: `assistant` rows carry
// `tool_use` blocks (written as the reply streams in) and text, `user` rows carry prompts
// (typed, or a teammate's `<teammate-message>` blocks) or `tool_result` blocks (written when the
// tool ends); a `queued_command` attachment carries a prompt typed while a tool ran. Other row
// types (`api-request*`, other attachments, `mode`, ...) say nothing here; some rows carry no
// timestamp. Only `assistant` rows are the model's own: `api-request-blob` rows repeat earlier
// tool_use blocks. 2.1.337's new row types (`denial-counts`, `api-request-route`) and fields
// (`entrypointInherited`, `nestedSession`, ...) say nothing here either and are passed over on
// purpose; its `interruptedByCancel` on a user row does: the turn was cancelled
// (docs/claude-contract.md#changes-2-1-337).
import type { TimelineItem } from '../../shared/types.js';

export type Row = Record<string, unknown>;

/** A tool call as the model made it. */
export interface ToolCall {
  id: string;
  name: string;
  /** One line about its input ("npm test", "src/a.ts"). */
  summary: string;
  /** ms; 0 when the row had no timestamp. */
  at: number;
  /** The exact command (Bash) or path (file tools), to tell one permission prompt from another. */
  subject?: string;
}

/** A tool result is cut to this many characters in a timeline (the UI collapses them anyway). */
export const MAX_RESULT_CHARS = 4_000;
const MAX_SUMMARY_CHARS = 160;
const MAX_TEXT_CHARS = 20_000;

export function rowTime(row: Row): number {
  const t = typeof row.timestamp === 'string' ? Date.parse(row.timestamp) : NaN;
  return Number.isFinite(t) ? t : 0;
}

function blocks(row: Row): Array<Record<string, unknown>> {
  const content = (row.message as { content?: unknown } | undefined)?.content;
  return Array.isArray(content) ? content.filter((b): b is Record<string, unknown> => !!b && typeof b === 'object') : [];
}

/** First line, bounded: what fits on an activity line. */
export function oneLine(s: string, max = MAX_SUMMARY_CHARS): string {
  // The first line with something on it, found without splitting all of a long text.
  let line = '';
  for (let at = 0; at < s.length; ) {
    const nl = s.indexOf('\n', at);
    const l = s.slice(at, nl < 0 ? s.length : nl);
    if (l.trim() !== '') {
      line = l;
      break;
    }
    if (nl < 0) break;
    at = nl + 1;
  }
  const t = line.trim().replace(/\s+/g, ' ');
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

function cut(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}… (${s.length.toLocaleString('en')} characters in all)` : s;
}

/** A path under the member's working folder, shown relative to it. */
function shortPath(p: string, cwd: unknown): string {
  if (typeof cwd === 'string' && cwd !== '' && p.startsWith(cwd.endsWith('/') ? cwd : `${cwd}/`)) return p.slice(cwd.length + (cwd.endsWith('/') ? 0 : 1));
  return p;
}

/** "npm test" for Bash, the file for Read/Edit/Write, the pattern for Grep, ...: one line. */
export function toolSummary(name: string, input: unknown, cwd?: unknown): string {
  if (!input || typeof input !== 'object') return '';
  const i = input as Record<string, unknown>;
  const str = (k: string) => (typeof i[k] === 'string' ? (i[k] as string) : undefined);
  let s: string | undefined;
  switch (name) {
    case 'Bash':
      s = str('command');
      break;
    case 'Read':
    case 'Write':
    case 'Edit':
    case 'MultiEdit':
    case 'NotebookEdit': {
      const p = str('file_path') ?? str('notebook_path');
      s = p === undefined ? undefined : shortPath(p, cwd);
      break;
    }
    case 'Grep':
    case 'Glob':
      s = str('pattern');
      break;
    case 'WebFetch':
      s = str('url');
      break;
    case 'WebSearch':
      s = str('query');
      break;
    case 'Agent':
    case 'Task':
      s = str('description');
      break;
    case 'SendMessage': {
      const to = str('to') ?? str('recipient') ?? '?';
      const m = i.message;
      const what = typeof m === 'string' ? m : m && typeof m === 'object' && typeof (m as { type?: unknown }).type === 'string' ? `(${(m as { type: string }).type})` : '';
      s = `to ${to}: ${what}`;
      break;
    }
    case 'TaskCreate':
    case 'TaskUpdate':
      s = str('subject') ?? str('taskId') ?? str('status');
      break;
  }
  // Anything else: its first string field says most.
  s ??= Object.values(i).find((v): v is string => typeof v === 'string');
  return s === undefined ? '' : oneLine(s);
}

/** The tool calls the model made in an assistant row. */
export function toolUses(row: Row): ToolCall[] {
  if (row.type !== 'assistant') return [];
  const at = rowTime(row);
  return blocks(row)
    .filter((b) => b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string')
    .map((b) => {
      const subject = toolSubject(b.name as string, b.input);
      return { id: b.id as string, name: b.name as string, summary: toolSummary(b.name as string, b.input, row.cwd), at, ...(subject !== undefined ? { subject } : {}) };
    });
}

/** The longest command or path kept as a call's subject. */
const MAX_SUBJECT_CHARS = 8_000;

/** A call's command (Bash) or path (file tools), whole: what its permission prompt shows. */
export function toolSubject(name: string, input: unknown): string | undefined {
  if (!input || typeof input !== 'object') return undefined;
  const i = input as Record<string, unknown>;
  const key = name === 'Bash' ? 'command' : name === 'NotebookEdit' ? 'notebook_path' : ['Read', 'Write', 'Edit', 'MultiEdit'].includes(name) ? 'file_path' : undefined;
  const v = key ? i[key] : undefined;
  return typeof v === 'string' && v.length <= MAX_SUBJECT_CHARS ? v : undefined;
}

/**
 * A user row saying the user interrupted the turn (Esc in the lead's terminal):
 * `[Request interrupted by user]` or `[Request interrupted by user for tool use]`
 * (docs/claude-contract.md#interrupts). The tool calls in flight end with it.
 */
export function isInterruptRow(row: Row): boolean {
  if (row.type !== 'user') return false;
  if (row.interruptedByCancel === true) return true;
  const content = (row.message as { content?: unknown } | undefined)?.content;
  const texts = typeof content === 'string' ? [content] : Array.isArray(content) ? content.map((c) => (c && typeof c === 'object' ? (c as { text?: unknown }).text : undefined)) : [];
  return texts.some((t) => typeof t === 'string' && /^\[Request interrupted by user( for tool use)?\]$/.test(t.trim()));
}

export interface ToolResult {
  toolUseId: string;
  text: string;
  isError: boolean;
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((c) => (c && typeof c === 'object' && (c as { type?: unknown }).type === 'text' && typeof (c as { text?: unknown }).text === 'string' ? (c as { text: string }).text : c && typeof c === 'object' && (c as { type?: unknown }).type === 'image' ? '[image]' : ''))
    .filter(Boolean)
    .join('\n');
}

/** The tool results a user row carries (a tool ended). */
export function toolResults(row: Row): ToolResult[] {
  if (row.type !== 'user') return [];
  return blocks(row)
    .filter((b) => b.type === 'tool_result' && typeof b.tool_use_id === 'string')
    .map((b) => ({ toolUseId: b.tool_use_id as string, text: resultText(b.content), isError: b.is_error === true }));
}

/** The model's own text in an assistant row. */
export function assistantText(row: Row): string | undefined {
  if (row.type !== 'assistant') return undefined;
  const t = blocks(row)
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n')
    .trim();
  return t === '' ? undefined : t;
}

/**
 * A user row 2.1.337 writes when the user cancels a turn (Escape in the lead's terminal): the
 * turn is over, whatever was in flight. Its text ("[Request interrupted by user]") is Claude's,
 * not a prompt, and is never read.
 */
export function isCancelledTurn(row: Row): boolean {
  return row.type === 'user' && row.interruptedByCancel === true;
}

export function isTurnEnd(row: Row): boolean {
  return row.type === 'assistant' && (row.message as { stop_reason?: unknown } | undefined)?.stop_reason === 'end_turn';
}

/** The text of an assistant row that ends a turn (`stop_reason: "end_turn"`), if it has text. */
export function turnEndText(row: Row): { id: string; text: string } | undefined {
  if (!isTurnEnd(row)) return undefined;
  const text = assistantText(row);
  if (text === undefined) return undefined;
  const id = (row.message as { id?: unknown }).id;
  return { id: typeof id === 'string' ? id : String(row.uuid ?? ''), text };
}

/** An agent's SendMessage call, read from its transcript (it may have failed: `to:"user"` does). */
export interface SendAttempt {
  /** Stable id for the history: derived from the tool call's id. */
  id: string;
  agent: string;
  to: string;
  text: string;
  timestamp: string;
}

/** SendMessage calls with a text message in an assistant row. */
export function sendAttempts(row: Row, agent: string): SendAttempt[] {
  if (row.type !== 'assistant') return [];
  const out: SendAttempt[] = [];
  for (const b of blocks(row)) {
    if (b.type !== 'tool_use' || b.name !== 'SendMessage' || typeof b.id !== 'string') continue;
    const input = b.input as { to?: unknown; message?: unknown } | undefined;
    if (typeof input?.to !== 'string' || typeof input.message !== 'string' || input.message.trim() === '') continue;
    out.push({ id: `tx-${b.id}`, agent, to: input.to, text: input.message, timestamp: typeof row.timestamp === 'string' ? row.timestamp : new Date().toISOString() });
  }
  return out;
}

/** A user row's message as text: its string content, or its text blocks joined. */
function userText(row: Row): string | undefined {
  const content = (row.message as { content?: unknown } | undefined)?.content;
  if (typeof content === 'string') return content;
  const texts = blocks(row)
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string);
  return texts.length ? texts.join('\n') : undefined;
}

/** A prompt that started (or joined) a turn: a user row that is not tool results nor a harness reminder. */
export function promptOf(row: Row): string | undefined {
  if (row.type !== 'user' || isCancelledTurn(row)) return undefined;
  const origin = row.origin as { kind?: unknown; body?: unknown } | undefined;
  if (row.isMeta === true && origin?.kind !== 'peer') return undefined;
  return userText(row);
}

/**
 * The text of a user row that is a prompt, or of a prompt typed while a tool ran; undefined for
 * tool results and other rows. Unlike promptOf, it leaves no meta row out.
 */
export function promptText(row: Row): string | undefined {
  // Typed while a tool ran: Claude hands it to the model inside the running turn, recorded only
  // as a `queued_command` attachment (no user row carries it).
  if (row.type === 'attachment') {
    const a = row.attachment as { type?: unknown; prompt?: unknown } | undefined;
    return a?.type === 'queued_command' && typeof a.prompt === 'string' ? a.prompt : undefined;
  }
  if (row.type !== 'user') return undefined;
  return userText(row);
}

/** How a prompt row came in: typed in the terminal, or a peer's socket message (with its id). */
export function promptOrigin(row: Row): { typed?: boolean; peerMsgId?: string } {
  const origin = (row.type === 'attachment' ? (row.attachment as { origin?: unknown } | undefined)?.origin : row.origin) as { kind?: unknown; msg_id?: unknown } | undefined;
  if (origin?.kind === 'human' || row.promptSource === 'typed') return { typed: true };
  if (origin?.kind === 'peer' && typeof origin.msg_id === 'string') return { peerMsgId: origin.msg_id };
  return {};
}

/**
 * Whether a prompt holds a `<teammate-message teammate_id="<from>" …>` block whose body is
 * exactly `body`: how an inbox message appears in its recipient's context (docs/claude-contract.md#provenance, #transcripts).
 */
export function holdsTeammateBlock(prompt: string, from: string, body: string): boolean {
  const tail = `>\n${body}\n</teammate-message>`;
  for (let at = prompt.indexOf(tail); at >= 0; at = prompt.indexOf(tail, at + 1)) {
    const open = prompt.lastIndexOf('<teammate-message ', at);
    if (open >= 0 && prompt.slice(open, at).startsWith(`<teammate-message teammate_id="${from}"`)) return true;
  }
  return false;
}

const TEAMMATE_BLOCK = /<teammate-message teammate_id="([^"]*)"[^>]*>\n?([\s\S]*?)\n?<\/teammate-message>/g;
const PEER_BLOCK = /<cross-session-message from="[^"]*"(?: from-name="([^"]*)")?[^>]*>\n?([\s\S]*?)\n?<\/cross-session-message>/g;

/** The messages a prompt delivered: each `<teammate-message>` (or socket envelope) block with its sender. */
export function receivedBlocks(prompt: string): Array<{ from: string; text: string }> {
  const out: Array<{ from: string; text: string }> = [];
  for (const m of prompt.matchAll(TEAMMATE_BLOCK)) out.push({ from: m[1]!, text: m[2]! });
  for (const m of prompt.matchAll(PEER_BLOCK)) out.push({ from: m[1] ?? 'another session', text: m[2]! });
  return out;
}

/**
 * Notes Claude Code adds to a tool result for the model alone, e.g. after a teammate is spawned:
 * "Spawned successfully. (This tool result is internal metadata — never quote or paste any part
 * of it …)" (docs/claude-contract.md#transcripts). A person reading the timeline gets the result
 * without them.
 */
const MODEL_NOTE = /[ \t]*\(This tool result is [^)]*\)/g;

export function withoutModelNotes(text: string): string {
  return text.includes('(This tool result is ') ? text.replace(MODEL_NOTE, '') : text;
}

/**
 * The readable steps of one row, for a timeline. `toolNames` maps tool_use ids to tool names
 * (filled from the calls seen so far) so that results name their tool.
 */
export function timelineItems(row: Row, toolNames: Map<string, string>): TimelineItem[] {
  const at = rowTime(row);
  const base = typeof row.uuid === 'string' ? row.uuid : `t${at}`;
  const out: TimelineItem[] = [];
  if (row.type === 'assistant') {
    blocks(row).forEach((b, i) => {
      if (b.type === 'text' && typeof b.text === 'string' && b.text.trim() !== '') out.push({ id: `${base}:${i}`, kind: 'text', at, text: cut(b.text, MAX_TEXT_CHARS) });
      if (b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string') {
        toolNames.set(b.id, b.name);
        out.push({ id: `${base}:${i}`, kind: 'tool-call', at, tool: b.name, text: toolSummary(b.name, b.input, row.cwd) });
      }
    });
    return out;
  }
  const results = toolResults(row);
  if (results.length) {
    results.forEach((r, i) => {
      const item: TimelineItem = { id: `${base}:${i}`, kind: 'tool-result', at, text: cut(withoutModelNotes(r.text), MAX_RESULT_CHARS) };
      const tool = toolNames.get(r.toolUseId);
      if (tool !== undefined) item.tool = tool;
      if (r.isError) item.isError = true;
      out.push(item);
    });
    return out;
  }
  const prompt = promptOf(row);
  if (prompt === undefined) return out;
  const origin = row.origin as { kind?: unknown; name?: unknown; from?: unknown; body?: unknown } | undefined;
  if (origin?.kind === 'peer') {
    const from = typeof origin.name === 'string' ? origin.name : typeof origin.from === 'string' ? origin.from : 'another session';
    const body = receivedBlocks(prompt)[0]?.text ?? (typeof origin.body === 'string' ? origin.body : prompt);
    return [{ id: `${base}:0`, kind: 'received', at, from, text: cut(body, MAX_TEXT_CHARS) }];
  }
  const received = receivedBlocks(prompt);
  if (received.length === 0) return [{ id: `${base}:0`, kind: 'prompt', at, text: cut(prompt, MAX_TEXT_CHARS) }];
  return received.map((r, i) => ({ id: `${base}:${i}`, kind: 'received' as const, at, from: r.from, text: cut(r.text, MAX_TEXT_CHARS) }));
}
