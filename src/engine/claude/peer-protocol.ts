// Claude Code 2.1.332's per-session messaging socket, peer protocol 1
// (docs/claude-contract.md#socket): the JSON lines that cross it and the `<cross-session-message>`
// envelope inside a user line. Parsing never throws: a line is either one of the shapes below or a
// typed refusal saying why not. The shapes, attribute order and value sets mirror the binary
// (checked against the real lead in test/claude/socket.test.ts).
import { z } from 'zod';

/** Claude drops a connection whose buffered line grows past this many characters. */
export const MAX_LINE_CHARS = 1_048_576;

/**
 * The permission-mode class a sender asserts (`from-mode`). A receiver holds a message whose
 * class differs from its own, and in bypass mode also one that asserts none.
 */
export type FromMode = 'bypass' | 'prompting';
export const FROM_MODES = ['bypass', 'prompting'] as const satisfies readonly FromMode[];

export type PeerPriority = 'now' | 'next' | 'later';

/** Outcomes a receiver reports for a message that left its normal path. */
export type PeerMessageStatus = 'held' | 'delivered' | 'denied' | 'expired' | 'refused' | 'dropped';
const STATUSES = ['held', 'delivered', 'denied', 'expired', 'refused', 'dropped'] as const;

const ENVELOPE_TAG = 'cross-session-message';
/** Characters an envelope's `from` may hold (Claude percent-encodes everything else). */
const ADDRESS_CHARS = 'A-Za-z0-9%:_/.\\\\-';
const ADDRESS = new RegExp(`^(?:uds|bridge|did):[${ADDRESS_CHARS}]{1,200}$`);
const HOP = '[0-9a-f]{24}';
const ENVELOPE = new RegExp(
  `^<${ENVELOPE_TAG}` +
    `(?: from="([${ADDRESS_CHARS}]+)")?` +
    `(?: from-session="([A-Za-z0-9_-]{1,80})")?` +
    `(?: hop-chain="(${HOP}(?:,${HOP}){0,31})")?` +
    `(?: from-name="([^"<>\\n\\r]+)")?` +
    `(?: from-mode="(${FROM_MODES.join('|')})")?` +
    `(?: from-plugin="([^"<>\\n\\r]+)")?` +
    `>\\n([\\s\\S]*)\\n</${ENVELOPE_TAG}>$`,
);
/** A tag that would close (or open) the envelope early inside its body. */
const TAG_IN_BODY = new RegExp(`<(?!\\\\)(?=\\s*/?\\s*${ENVELOPE_TAG})`, 'gi');
/** Control and invisible characters, and the ones that would break out of an attribute. */
const NAME_UNSAFE = /["<>\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** The parts of a `<cross-session-message>` envelope. */
export interface CrossSessionEnvelope {
  /** The sender's address (`uds:<socket path>`), as the sender asserts it. */
  from?: string;
  fromSession?: string;
  hopChain?: string[];
  fromName?: string;
  fromMode?: FromMode;
  fromPlugin?: string;
  /** The message itself, between the tags. */
  body: string;
}

/** `uds:<path>`: a socket path as an address, percent-encoding what an address may not hold (as Claude does). */
export function peerAddress(socketPath: string): string {
  const bytes = new TextEncoder();
  return `uds:${socketPath.replace(/[^A-Za-z0-9:_/.\\-]/gu, (c) =>
    Array.from(bytes.encode(c), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  )}`;
}

/** The socket path of a `uds:` address, or undefined for another kind of address. */
export function socketPathOf(address: string): string | undefined {
  if (!address.startsWith('uds:') || !ADDRESS.test(address)) return undefined;
  try {
    return decodeURIComponent(address.slice(4));
  } catch {
    return undefined;
  }
}

export function isPeerAddress(address: string): boolean {
  return ADDRESS.test(address);
}

/**
 * The from-mode a message must assert to reach a session in `permissionMode` without being
 * held: its own class. `plan` counts as bypass in a session that may bypass (it returns there).
 */
export function fromModeFor(permissionMode: string, opts: { bypassAvailable?: boolean } = {}): FromMode {
  if (permissionMode === 'bypassPermissions') return 'bypass';
  if (permissionMode === 'plan' && opts.bypassAvailable === true) return 'bypass';
  return 'prompting';
}

/** The envelope in a user line's content, if it is one Claude would take as such (exact shape). */
export function parseEnvelope(content: string): CrossSessionEnvelope | undefined {
  const m = ENVELOPE.exec(content);
  if (!m) return undefined;
  const [, from, fromSession, hops, fromName, fromMode, fromPlugin, body = ''] = m;
  return {
    ...(from !== undefined && { from }),
    ...(fromSession !== undefined && { fromSession }),
    ...(hops !== undefined && { hopChain: hops.split(',') }),
    ...(fromName !== undefined && { fromName }),
    ...(fromMode !== undefined && { fromMode: fromMode as FromMode }),
    ...(fromPlugin !== undefined && { fromPlugin }),
    body,
  };
}

/** A display name as an envelope attribute may carry it (quotes, angle brackets, control characters out). */
export function cleanFromName(name: string): string {
  return name.replace(NAME_UNSAFE, '').trim().slice(0, 120);
}

/**
 * Teamdeck's envelope: `<cross-session-message from="uds:…" from-name="…" from-mode="…">\n<text>\n</cross-session-message>`,
 * attributes in Claude's order. A tag inside the text is defused the way Claude does it (`<\`),
 * so the body cannot end the envelope early.
 */
export function buildEnvelope(opts: { from: string; fromName?: string; fromMode?: FromMode; body: string }): string {
  if (!ADDRESS.test(opts.from)) throw new PeerProtocolError('bad-address', `"${opts.from.slice(0, 80)}" is not a peer address (uds:<socket path>)`);
  const attrs = [`from="${opts.from}"`];
  const name = opts.fromName === undefined ? '' : cleanFromName(opts.fromName);
  if (name) attrs.push(`from-name="${name}"`);
  if (opts.fromMode) attrs.push(`from-mode="${opts.fromMode}"`);
  return `<${ENVELOPE_TAG} ${attrs.join(' ')}>\n${opts.body.replace(TAG_IN_BODY, '<\\')}\n</${ENVELOPE_TAG}>`;
}

/** Why a line was refused. */
export type PeerLineErrorCode = 'empty' | 'too-long' | 'not-json' | 'not-object' | 'unknown-type' | 'unknown-action' | 'bad-shape';

export class PeerProtocolError extends Error {
  constructor(
    readonly code: PeerLineErrorCode | 'bad-address' | 'bad-message',
    message: string,
  ) {
    super(message);
    this.name = 'PeerProtocolError';
  }
}

export interface PeerAuthLine {
  type: 'auth';
  token: string;
}

/** A message from another session (a SendMessage to our address). */
export interface PeerUserLine {
  type: 'user';
  /** The raw content (with its envelope). */
  content: string;
  /** The words: the envelope's body, or the whole content when there is no envelope. */
  text: string;
  envelope?: CrossSessionEnvelope;
  /** The line's `from` (the sender's address as it asserts it). */
  from?: string;
  msgId?: string;
  priority?: PeerPriority;
}

export interface PeerIdleNotice {
  type: 'control';
  action: 'peer_idle_notice';
  /** The msg_id of our message whose notify_when_idle this answers. */
  origMsgId: string;
  /** `idle`, `exited` or `unavailable` (others are passed on as sent). */
  state: string;
  finishedAt?: number;
  detail?: string;
  from?: string;
  fromMode?: FromMode;
  msgId?: string;
}

export interface PeerStatusNotice {
  type: 'control';
  action: 'peer_message_status';
  /** `expired` with status_detail `refused` is reported as `refused`, as Claude reads it. */
  status: PeerMessageStatus;
  origMsgId?: string;
  reason?: string;
  from?: string;
  dropReason?: string;
  droppedMsgIds?: string[];
  msgId?: string;
}

export type PeerControlLine = PeerIdleNotice | PeerStatusNotice;
export type PeerLine = PeerAuthLine | PeerUserLine | PeerControlLine;

export type PeerLineResult = { ok: true; line: PeerLine } | { ok: false; code: PeerLineErrorCode; error: string };

const str = (max: number) => z.string().max(max);
const authSchema = z.looseObject({ type: z.literal('auth'), token: str(512) });
const userSchema = z.looseObject({
  type: z.literal('user'),
  message: z.looseObject({ role: z.literal('user'), content: str(MAX_LINE_CHARS).min(1) }),
  from: str(400).optional(),
  msg_id: str(200).optional(),
  priority: z.enum(['now', 'next', 'later']).optional().catch(undefined),
});
const idleSchema = z.looseObject({
  type: z.literal('control'),
  action: z.literal('peer_idle_notice'),
  orig_msg_id: str(200),
  state: str(100),
  finished_at: z.number().finite().optional().catch(undefined),
  detail: str(10_000).optional().catch(undefined),
  from: str(400).optional(),
  from_mode: z.enum(FROM_MODES).optional().catch(undefined),
  msg_id: str(200).optional().catch(undefined),
});
const statusSchema = z.looseObject({
  type: z.literal('control'),
  action: z.literal('peer_message_status'),
  status: z.enum(STATUSES),
  status_detail: str(100).optional().catch(undefined),
  orig_msg_id: str(200).optional(),
  reason: str(10_000).optional().catch(undefined),
  from: str(400).optional(),
  drop_reason: str(200).optional().catch(undefined),
  dropped_msg_ids: z.array(str(200)).max(256).optional().catch(undefined),
  msg_id: str(200).optional().catch(undefined),
});

const refuse = (code: PeerLineErrorCode, error: string): PeerLineResult => ({ ok: false, code, error });

function firstIssue(e: z.ZodError): string {
  const i = e.issues[0];
  return i ? `${i.path.join('.') || 'line'}: ${i.message}` : 'wrong shape';
}

/** One line off the socket (without its newline), as one of the shapes above or a refusal. */
export function parsePeerLine(line: string): PeerLineResult {
  if (typeof line !== 'string' || line.trim() === '') return refuse('empty', 'an empty line');
  if (line.length > MAX_LINE_CHARS) return refuse('too-long', `a line of ${line.length} characters (at most ${MAX_LINE_CHARS})`);
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return refuse('not-json', 'a line that is not JSON');
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return refuse('not-object', 'a JSON line that is not an object');
  const o = json as Record<string, unknown>;
  if (o.type === 'auth') {
    const r = authSchema.safeParse(o);
    return r.success ? { ok: true, line: { type: 'auth', token: r.data.token } } : refuse('bad-shape', `an auth line of the wrong shape (${firstIssue(r.error)})`);
  }
  if (o.type === 'user') {
    const r = userSchema.safeParse(o);
    if (!r.success) return refuse('bad-shape', `a user line of the wrong shape (${firstIssue(r.error)})`);
    const d = r.data;
    const content = d.message.content;
    const envelope = parseEnvelope(content);
    return {
      ok: true,
      line: {
        type: 'user',
        content,
        text: envelope ? envelope.body : content,
        ...(envelope && { envelope }),
        ...(d.from !== undefined && { from: d.from }),
        ...(d.msg_id !== undefined && { msgId: d.msg_id }),
        ...(d.priority !== undefined && { priority: d.priority }),
      },
    };
  }
  if (o.type === 'control') {
    if (o.action === 'peer_idle_notice') {
      const r = idleSchema.safeParse(o);
      if (!r.success) return refuse('bad-shape', `a peer_idle_notice of the wrong shape (${firstIssue(r.error)})`);
      const d = r.data;
      return {
        ok: true,
        line: {
          type: 'control',
          action: 'peer_idle_notice',
          origMsgId: d.orig_msg_id,
          state: d.state,
          ...(d.finished_at !== undefined && { finishedAt: d.finished_at }),
          ...(d.detail !== undefined && { detail: d.detail }),
          ...(d.from !== undefined && { from: d.from }),
          ...(d.from_mode !== undefined && { fromMode: d.from_mode }),
          ...(d.msg_id !== undefined && { msgId: d.msg_id }),
        },
      };
    }
    if (o.action === 'peer_message_status') {
      const r = statusSchema.safeParse(o);
      if (!r.success) return refuse('bad-shape', `a peer_message_status of the wrong shape (${firstIssue(r.error)})`);
      const d = r.data;
      return {
        ok: true,
        line: {
          type: 'control',
          action: 'peer_message_status',
          status: d.status === 'expired' && d.status_detail === 'refused' ? 'refused' : d.status,
          ...(d.orig_msg_id !== undefined && { origMsgId: d.orig_msg_id }),
          ...(d.reason !== undefined && { reason: d.reason }),
          ...(d.from !== undefined && { from: d.from }),
          ...(d.drop_reason !== undefined && { dropReason: d.drop_reason }),
          ...(d.dropped_msg_ids !== undefined && { droppedMsgIds: d.dropped_msg_ids }),
          ...(d.msg_id !== undefined && { msgId: d.msg_id }),
        },
      };
    }
    return refuse('unknown-action', `a control line with an action Teamdeck does not take (${JSON.stringify(String(o.action)).slice(0, 60)})`);
  }
  return refuse('unknown-type', `a line of a type Teamdeck does not take (${JSON.stringify(String(o.type)).slice(0, 60)})`);
}

/** `{"type":"auth","token":…}`: the first line, proving the sender read the receiver's key file. */
export function authLine(token: string): string {
  return JSON.stringify({ type: 'auth', token });
}

export interface OutboundMessage {
  /** Teamdeck's address (`uds:<its socket path>`): where replies and receipts go. */
  from: string;
  /** Our id for the message (a uuid): the receiver's transcript row and receipts carry it. */
  msgId: string;
  text: string;
  fromName?: string;
  fromMode?: FromMode;
  priority?: PeerPriority;
}

/** The user line carrying `text` in Teamdeck's envelope. */
export function userLine(m: OutboundMessage): string {
  if (m.text.trim() === '') throw new PeerProtocolError('bad-message', 'the message is empty');
  const content = buildEnvelope({ from: m.from, fromName: m.fromName, fromMode: m.fromMode, body: m.text });
  const line = JSON.stringify({ type: 'user', message: { role: 'user', content }, from: m.from, msg_id: m.msgId, ...(m.priority && { priority: m.priority }) });
  if (line.length > MAX_LINE_CHARS) throw new PeerProtocolError('too-long', `the message is too long for the socket (${line.length} characters as a line; at most ${MAX_LINE_CHARS})`);
  return line;
}

/** Asks the receiver for one peer_idle_notice (about `msgId`) when it is next idle. */
export function notifyWhenIdleLine(m: { from: string; msgId: string; fromMode?: FromMode }): string {
  return JSON.stringify({ type: 'control', action: 'notify_when_idle', from: m.from, msg_id: m.msgId, ...(m.fromMode && { from_mode: m.fromMode }) });
}
