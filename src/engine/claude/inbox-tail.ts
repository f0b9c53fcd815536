// Huge inboxes (older Claude versions never prune; nothing consumes user.json) are read again on
// every change, and a full read of a 10 MB inbox costs 150-400 ms: the UTF-8 check, JSON.parse,
// a sha256 for every message without an id, every protocol frame parsed. But Claude and Teamdeck
// append by writing the old array back with the new entries before its closing bracket, so the
// bytes of every old entry are unchanged. When a file starts with the bytes its last read had up
// to that bracket, only the tail is new: it is checked and parsed alone, and the old entries are
// taken from that last read. Any other change (a prune, messages flagged read, a torn write) is
// read in full, exactly as before.
import { lstat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { TeamMessage } from '../../shared/types.js';
import { readWhole } from '../files/read-whole.js';
import { isRawMessage, looksOf, normalizeMessage, parseInboxBytes, readInbox, type InboxRead } from './inbox-read.js';

/** Smaller inboxes are parsed in full in a few milliseconds: not worth keeping their bytes for. */
export const TAIL_READ_MIN_BYTES = 1_000_000;
/** How many huge inboxes keep their last read in memory. */
const MAX_KEPT = 16;

const utf8 = new TextDecoder('utf-8', { fatal: true });

interface LastRead {
  /** The file's bytes up to its final `]`, whitespace before it excluded. */
  head: Buffer;
  entries: unknown[];
  messages: TeamMessage[];
  invalidEntries: number;
}

const isWs = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** Length of the bytes of a JSON array text before its closing bracket, or -1 when it does not end in one. */
export function arrayHeadLength(bytes: Uint8Array): number {
  let i = bytes.length - 1;
  while (i >= 0 && isWs(bytes[i]!)) i--;
  if (i < 0 || bytes[i] !== 0x5d /* ] */) return -1;
  i--;
  while (i >= 0 && isWs(bytes[i]!)) i--;
  return i + 1;
}

/**
 * The entries `bytes` adds after `head`, when `bytes` is `head` followed by `, e1, e2 ... ]`
 * (or by `]` alone: nothing new); undefined when it is anything else. `head` must come from a
 * valid, non-empty JSON array, so the whole of `bytes` is valid exactly when this tail is.
 */
export function appendedEntries(head: Buffer, bytes: Buffer): unknown[] | undefined {
  if (bytes.length < head.length || head.length === 0 || head[head.length - 1] === 0x5b /* [ */) return undefined;
  if (!bytes.subarray(0, head.length).equals(head)) return undefined;
  let tail: string;
  try {
    tail = utf8.decode(bytes.subarray(head.length));
  } catch {
    return undefined;
  }
  const t = tail.trimStart();
  if (t.startsWith(']')) return t.slice(1).trim() === '' ? [] : undefined;
  if (!t.startsWith(',')) return undefined;
  let more: unknown;
  try {
    more = JSON.parse(`[${t.slice(1)}`);
  } catch {
    return undefined;
  }
  return Array.isArray(more) && more.length > 0 ? more : undefined;
}

/** A read; `appended` is set when only the last `appended` messages are new since the last read. */
export type TailRead = InboxRead | (Extract<InboxRead, { kind: 'ok' }> & { appended: number });

/** readInbox, reading only the appended tail of a huge inbox that grew by appends since its last read. */
export class InboxReader {
  private last = new Map<string, LastRead>();

  constructor(private readonly minBytes = TAIL_READ_MIN_BYTES) {}

  async read(path: string, team: string, owner: string): Promise<TailRead> {
    // Everything that is not a plain, huge, regular file takes the ordinary path (and its checks),
    // as does one that cannot even be looked at: readInbox then says why.
    const look = (p: string) => lstat(p).catch(() => undefined);
    const folder = await look(dirname(path));
    const st = await look(path);
    if (!folder?.isDirectory() || !st?.isFile() || st.size < this.minBytes) {
      this.last.delete(path);
      return readInbox(path, team, owner);
    }
    let bytes: Buffer;
    try {
      bytes = await readWhole(path);
    } catch {
      this.last.delete(path);
      return readInbox(path, team, owner);
    }
    const prev = this.last.get(path);
    const added = prev ? appendedEntries(prev.head, bytes) : undefined;
    let entries: unknown[];
    let messages: TeamMessage[];
    let invalidEntries: number;
    if (prev && added) {
      entries = prev.entries.concat(added);
      messages = prev.messages.slice();
      invalidEntries = prev.invalidEntries;
      for (const e of added) {
        if (isRawMessage(e)) messages.push(normalizeMessage(e, team, owner));
        else invalidEntries++;
      }
    } else {
      const parsed = parseInboxBytes(bytes);
      if (parsed.kind !== 'ok') {
        // A writer may be mid-write: the ordinary path re-reads before it calls the file corrupt.
        this.last.delete(path);
        return readInbox(path, team, owner);
      }
      entries = parsed.entries;
      invalidEntries = parsed.invalidEntries;
      messages = [];
      for (const e of entries) if (isRawMessage(e)) messages.push(normalizeMessage(e, team, owner));
    }
    const headLength = arrayHeadLength(bytes);
    this.last.delete(path);
    if (headLength > 0 && entries.length > 0) {
      this.last.set(path, { head: bytes.subarray(0, headLength), entries, messages, invalidEntries });
      if (this.last.size > MAX_KEPT) this.last.delete(this.last.keys().next().value!);
    }
    const read = { kind: 'ok' as const, messages, entries, invalidEntries, size: bytes.length, mtimeMs: st.mtimeMs, looks: looksOf(st) };
    return prev && added ? { ...read, appended: messages.length - prev.messages.length } : read;
  }

  forget(path: string): void {
    this.last.delete(path);
  }
}
