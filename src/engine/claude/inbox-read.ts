import { readFile, lstat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TeamMessage } from '../../shared/types.js';
import { parseFrame } from './frames.js';
import { deriveMessageId } from './message-id.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export type InboxParse =
  | { kind: 'ok'; entries: unknown[]; invalidEntries: number }
  | { kind: 'corrupt'; reason: string };

/**
 * Parses inbox bytes. Invalid UTF-8, non-JSON and non-arrays are corrupt; array entries
 * that are not messages are counted, left in place, and not shown.
 */
export function parseInboxBytes(bytes: Uint8Array): InboxParse {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { kind: 'corrupt', reason: 'not valid UTF-8' };
  }
  text = text.replace(/^\uFEFF/, '');
  // A 0-byte file is an inbox being created (exclusive create, then '[]' is written): there
  // is nothing in it to lose, and Claude reads it as empty too.
  if (text.trim() === '') return { kind: 'ok', entries: [], invalidEntries: 0 };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { kind: 'corrupt', reason: `not valid JSON (${(e as Error).message})` };
  }
  if (!Array.isArray(json)) return { kind: 'corrupt', reason: `a JSON ${json === null ? 'null' : typeof json} instead of an array` };
  let invalid = 0;
  for (const e of json) if (!isRawMessage(e)) invalid++;
  return { kind: 'ok', entries: json, invalidEntries: invalid };
}

export interface RawMessage {
  from: string;
  text: string;
  timestamp: string;
  read?: unknown;
  summary?: unknown;
  color?: unknown;
  msg_id?: unknown;
  messageId?: unknown;
  [k: string]: unknown;
}

export function isRawMessage(e: unknown): e is RawMessage {
  if (!e || typeof e !== 'object' || Array.isArray(e)) return false;
  const m = e as Record<string, unknown>;
  return typeof m.from === 'string' && typeof m.text === 'string' && typeof m.timestamp === 'string';
}

/** The id of a raw inbox entry: messageId, else msg_id, else derived from from|timestamp|text. */
export function rawMessageId(m: RawMessage): string {
  if (typeof m.messageId === 'string' && m.messageId) return m.messageId;
  if (typeof m.msg_id === 'string' && m.msg_id) return m.msg_id;
  return deriveMessageId(m.from, m.timestamp, m.text);
}

export function normalizeMessage(m: RawMessage, team: string, to: string): TeamMessage {
  const time = Date.parse(m.timestamp);
  const msg: TeamMessage = {
    id: rawMessageId(m),
    team,
    from: m.from,
    to,
    text: m.text,
    timestamp: m.timestamp,
    time: Number.isFinite(time) ? time : 0,
    read: m.read === true,
  };
  if (typeof m.summary === 'string') msg.summary = m.summary;
  if (typeof m.color === 'string') msg.color = m.color;
  const frame = parseFrame(m.text);
  if (frame) msg.frame = frame;
  return msg;
}

/** What an lstat said of an inbox just before it was read (a later change changes at least one of these). */
export interface InboxLooks {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

export type InboxRead =
  | { kind: 'missing' }
  | { kind: 'ok'; messages: TeamMessage[]; entries: unknown[]; invalidEntries: number; size: number; mtimeMs: number; looks: InboxLooks }
  | { kind: 'corrupt'; reason: string; bytes: Buffer; size: number; mtimeMs: number }
  | { kind: 'error'; reason: string; code?: string };

export interface ReadOptions {
  /** Re-reads of a file that does not parse, since a writer may be mid-write. */
  retries?: number;
  retryDelayMs?: number;
}

export function looksOf(st: { ino: number; size: number; mtimeMs: number; ctimeMs: number }): InboxLooks {
  return { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
}

/** Reads one inbox. A file that does not parse is re-read a few times before it is called corrupt. */
export async function readInbox(path: string, team: string, owner: string, opts: ReadOptions = {}): Promise<InboxRead> {
  const retries = opts.retries ?? 3;
  const delay = opts.retryDelayMs ?? 40;
  // A symlinked inboxes folder would be read through to wherever it points, outside the root.
  const folder = await lstat(dirname(path)).catch(() => undefined);
  if (folder?.isSymbolicLink()) return { kind: 'error', reason: 'its inboxes folder is a symbolic link; not followed', code: 'ELOOP' };
  for (let attempt = 0; ; attempt++) {
    let st;
    try {
      st = await lstat(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { kind: 'missing' };
      return { kind: 'error', reason: `cannot stat (${code})`, code };
    }
    if (st.isSymbolicLink()) return { kind: 'error', reason: 'is a symbolic link; not followed', code: 'ELOOP' };
    if (!st.isFile()) return { kind: 'error', reason: 'is not a regular file', code: 'EISDIR' };
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { kind: 'missing' };
      return { kind: 'error', reason: `cannot read (${code})`, code };
    }
    const parsed = parseInboxBytes(bytes);
    if (parsed.kind === 'ok') {
      const messages: TeamMessage[] = [];
      for (const e of parsed.entries) if (isRawMessage(e)) messages.push(normalizeMessage(e, team, owner));
      return { kind: 'ok', messages, entries: parsed.entries, invalidEntries: parsed.invalidEntries, size: bytes.length, mtimeMs: st.mtimeMs, looks: looksOf(st) };
    }
    if (attempt >= retries) return { kind: 'corrupt', reason: parsed.reason, bytes, size: bytes.length, mtimeMs: st.mtimeMs };
    await sleep(delay * (attempt + 1));
  }
}
