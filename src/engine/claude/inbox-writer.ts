import { mkdir, writeFile, lstat } from 'node:fs/promises';
import { lstatSync, type BigIntStats } from 'node:fs';
import { dirname, basename } from 'node:path';
import lockfile from 'proper-lockfile';
import { folderSyncsSettled, writeFileAtomic } from '../files/atomic-write.js';
import { parseInboxBytes } from './inbox-read.js';
import { appendedEntries, arrayHeadLength } from './inbox-tail.js';
import { claudeLockOptions, inboxReleasesSettled, lockInbox, readLockedInbox, type LockedInboxRead, type InboxRelease } from './inbox-lock.js';
import { preserveBytes } from '../files/preserve.js';

/**
 * Test-only fault injection, inert unless set: `TEAMDECK_BREAK=no-dedup` writes an id the inbox
 * already holds again, `recreate-folders` makes a vanished team folder again. Only the soak
 * against the real Claude Code (bench/soak-claude.ts) sets them, to show it catches each break.
 */
const BREAK = process.env.TEAMDECK_BREAK;
export const RECREATES_TEAM_FOLDERS = BREAK === 'recreate-folders';

export { claudeLockOptions } from './inbox-lock.js';

/** A failure to admit a message into an inbox. `temporary` ones leave the message queued for retry. */
export class AdmissionError extends Error {
  constructor(
    message: string,
    readonly temporary: boolean,
    readonly code?: string,
    readonly preservedAt?: string,
  ) {
    super(message);
    this.name = 'AdmissionError';
  }
}

function classify(e: unknown, what: string): AdmissionError {
  if (e instanceof AdmissionError) return e;
  const code = (e as NodeJS.ErrnoException).code;
  const msg = (e as Error).message;
  if (code === 'ELOCKED') return new AdmissionError(`inbox is locked by another process (${what})`, true, code);
  // Permission, space, busy, missing or misshapen folders: all things the user or time can fix.
  return new AdmissionError(`${what}: ${code ?? msg}`, true, code);
}

export interface InboxEntry {
  from: string;
  text: string;
  timestamp: string;
  read: boolean;
  summary?: string;
  type?: string;
  msgV?: number;
  msg_id?: string;
  messageId?: string;
  [k: string]: unknown;
}

/** The entry Teamdeck writes for a message from the user, in Claude's field order. */
export function userInboxEntry(id: string, text: string, timestamp: string, summary?: string): InboxEntry {
  return {
    from: 'user',
    text,
    ...(summary ? { summary } : {}),
    timestamp,
    read: false,
    type: 'message',
    msgV: 1,
    msg_id: id,
    messageId: id,
  };
}

export interface ModifyOptions {
  /** Where to keep the bytes of an inbox that does not parse before refusing to touch it. */
  preserveDir?: string;
  /** Label for the kept copy (for example `team/inboxes/name.json`). */
  preserveLabel?: string;
  fsync?: boolean;
  lockOptions?: Partial<lockfile.LockOptions>;
  /** Check after writing, still under the lock, that the inbox is still the file written (default true). */
  verify?: boolean;
  /**
   * What follows the rename (the folder's fsync, the lock's release, closing the old file):
   * waited for before returning (default), or left running in the background for a caller that
   * answers first because its own durable record makes a lost rename recoverable (a send).
   */
  afterWrite?: 'wait' | 'background';
  /**
   * Awaited under the lock once the new contents are in the temp file (fsync'd), before the
   * rename makes them visible. What it throws is rethrown as it is, with nothing written.
   */
  beforeRename?: () => Promise<void>;
}

/**
 * The inbox's folder and its team folder must not be symbolic links: a write (or the mkdir,
 * the lock, the temp file) through one would land outside the teams root.
 */
export function refuseLinkedFolders(inboxPath: string): void {
  const inboxes = dirname(inboxPath);
  for (const [dir, what] of [
    [dirname(inboxes), 'team folder'],
    [inboxes, 'inboxes folder'],
  ] as const) {
    if (lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink()) {
      throw new AdmissionError(`the ${what} ${basename(dir)} is a symbolic link; refusing to write through it`, false, 'ELOOP');
    }
  }
}

/**
 * Claude's steps 1-2: the inboxes folder, then the file as `[]` by exclusive create. Only the
 * inboxes folder is ever made, never the team folder above it: a team folder that is gone was
 * deleted by Claude, and recreating it would leave a ghost team that nobody reads (ENOENT).
 */
export async function ensureInbox(inboxPath: string): Promise<void> {
  refuseLinkedFolders(inboxPath);
  try {
    await mkdir(dirname(inboxPath), { recursive: RECREATES_TEAM_FOLDERS });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  try {
    await writeFile(inboxPath, '[]', { flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const st = await lstat(inboxPath);
  if (st.isSymbolicLink()) throw new AdmissionError(`${basename(inboxPath)} is a symbolic link; refusing to write through it`, false, 'ELOOP');
  if (!st.isFile()) throw new AdmissionError(`${basename(inboxPath)} is not a regular file`, true, 'EISDIR');
}

/**
 * Claude's write cycle around `work`: the inbox exists (never through a linked folder), its
 * lock is held, and `work` gets the file's current bytes. `write` puts new contents in place
 * atomically and checks, still under the lock, that the file holds exactly those bytes.
 */
async function underInboxLock<T>(
  inboxPath: string,
  opts: ModifyOptions,
  work: (bytes: Buffer, write: (out: Buffer) => Promise<void>) => Promise<T>,
): Promise<T> {
  try {
    refuseLinkedFolders(inboxPath);
    if (!lstatSync(inboxPath, { throwIfNoEntry: false })?.isFile()) await ensureInbox(inboxPath);
  } catch (e) {
    throw classify(e, 'cannot create inbox');
  }
  let release: InboxRelease;
  try {
    release = await lockInbox(inboxPath, {
      ...claudeLockOptions(inboxPath),
      ...opts.lockOptions,
      onCompromised: () => {
        // Another process took our lock as stale: the write may race. The verify step after
        // the rename catches a lost message; nothing else to do here.
      },
    });
  } catch (e) {
    throw classify(e, 'cannot lock inbox');
  }
  let read: LockedInboxRead | undefined;
  try {
    try {
      read = await readLockedInbox(inboxPath);
    } catch (e) {
      throw classify(e, 'cannot read inbox');
    }
    const bytes = read.bytes;
    return await work(bytes, async (out) => {
      const gate = opts.beforeRename;
      let refused: { e: unknown } | undefined;
      const beforeRename = gate
        ? async () => {
            try {
              await gate();
            } catch (e) {
              refused = { e };
              throw e;
            }
          }
        : undefined;
      // Under the lock nobody else may write, so the inbox must still be the very file we
      // wrote: same inode, size and modification time (any write since, renamed over it or in
      // place, changes one of them). Checked before the lock is let go.
      const verify = async (written: BigIntStats) => {
        const now = lstatSync(inboxPath, { bigint: true, throwIfNoEntry: false });
        if (!now || now.dev !== written.dev || now.ino !== written.ino || now.size !== written.size || now.mtimeNs !== written.mtimeNs) {
          throw new AdmissionError(`inbox ${basename(inboxPath)} did not hold what was written; will retry`, true, 'EVERIFY');
        }
      };
      try {
        await writeFileAtomic(inboxPath, out, {
          fsync: opts.fsync ?? true,
          beforeRename,
          ...((opts.verify ?? true) ? { afterRename: verify } : {}),
          ...(opts.afterWrite ? { folderSync: opts.afterWrite } : {}),
        });
      } catch (e) {
        if (refused) throw refused.e;
        throw classify(e, 'cannot write inbox');
      }
    });
  } finally {
    read?.letGo();
    const released = release();
    if (opts.afterWrite !== 'background') await released;
  }
}

/** The refusal for an inbox that does not parse, after keeping its bytes where asked to. */
async function unreadable(inboxPath: string, reason: string, bytes: Buffer, opts: ModifyOptions): Promise<AdmissionError> {
  let preservedAt: string | undefined;
  if (opts.preserveDir) {
    // The copy is extra: the inbox is left untouched either way, and the refusal says whether its bytes were kept.
    preservedAt = await preserveBytes(opts.preserveDir, opts.preserveLabel ?? basename(inboxPath), bytes).catch(() => undefined);
  }
  return new AdmissionError(`inbox ${basename(inboxPath)} is unreadable (${reason}); left untouched${preservedAt ? ', bytes kept' : ''}`, true, 'ECORRUPT', preservedAt);
}

/**
 * Runs `change` on the inbox's entries under Claude's lock and writes the result atomically.
 * `change` returns the new array, or undefined to leave the file as it is. An inbox that does
 * not parse is kept (copied to preserveDir) and never rewritten: the call fails as temporary.
 */
export async function modifyInbox<T>(
  inboxPath: string,
  change: (entries: unknown[]) => { entries?: unknown[]; result: T },
  opts: ModifyOptions = {},
): Promise<T> {
  return underInboxLock(inboxPath, opts, async (bytes, write) => {
    const parsed = parseInboxBytes(bytes);
    if (parsed.kind === 'corrupt') throw await unreadable(inboxPath, parsed.reason, bytes, opts);
    const { entries, result } = change(parsed.entries);
    if (entries) await write(Buffer.from(JSON.stringify(entries, null, 2), 'utf8'));
    return result;
  });
}

export interface AppendResult {
  /** true when a message with this id was already in the inbox and nothing was written. */
  duplicate: boolean;
  /** Entries in the inbox after this message was appended (or found). */
  count: number;
}

/** The explicit id of an entry, if it carries one (Teamdeck's and current Claude's do). */
function explicitId(e: unknown): string | undefined {
  if (!e || typeof e !== 'object') return undefined;
  const m = e as Record<string, unknown>;
  if (typeof m.messageId === 'string' && m.messageId) return m.messageId;
  if (typeof m.msg_id === 'string' && m.msg_id) return m.msg_id;
  return undefined;
}

/**
 * Recently validated inbox contents per path, with the explicit ids they hold. When a read
 * returns bytes we have already parsed (our own last write, or the same messages rewritten
 * after a prune), parsing them again would only repeat work: a byte comparison is enough.
 */
const validated = new Map<string, Array<{ bytes: Buffer; ids: Set<string>; count: number }>>();
const VALIDATED_PER_PATH = 2;

function remember(path: string, bytes: Buffer, ids: Set<string>, count: number): void {
  const list = (validated.get(path) ?? []).filter((v) => v.bytes !== bytes);
  list.unshift({ bytes, ids, count });
  list.length = Math.min(list.length, VALIDATED_PER_PATH);
  validated.set(path, list);
  if (validated.size > 4096) validated.delete(validated.keys().next().value!);
}

/**
 * Appends entries to the text of a valid JSON array without re-serializing what is there:
 * the existing bytes stay exactly as they were, and for a file in Claude's own format
 * (JSON.stringify with 2-space indent) the result is what Claude would have written.
 */
export function appendToArrayText(bytes: Buffer, entries: unknown[]): Buffer {
  let end = bytes.length - 1;
  while (end >= 0 && isWs(bytes[end]!)) end--;
  if (end < 0 || bytes[end] !== 0x5d /* ] */) throw new Error('not a JSON array text');
  let before = end - 1;
  while (before >= 0 && isWs(bytes[before]!)) before--;
  const empty = bytes[before] === 0x5b; /* [ */
  const body = entries.map((e) => '  ' + JSON.stringify(e, null, 2).replace(/\n/g, '\n  ')).join(',\n');
  // Claude's JSON.parse rejects a byte-order mark (the file would read as empty and be
  // overwritten), so it is dropped rather than carried into what Claude must read.
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const head = bytes.subarray(bom, before + 1);
  return Buffer.concat([head, Buffer.from(`${empty ? '' : ','}\n${body}\n]`, 'utf8')]);
}

function isWs(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

/**
 * Appends messages in order, as one locked read-modify-write the way Claude does, skipping
 * any whose id the inbox already holds (de-duplication), and verifies the write by re-reading
 * the file under the same lock. Every entry must carry an explicit id. Throws AdmissionError;
 * an inbox that does not parse is kept (copied to preserveDir) and never rewritten.
 */
export async function appendManyToInbox(inboxPath: string, batch: InboxEntry[], opts: ModifyOptions = {}): Promise<AppendResult[]> {
  const ids = batch.map((e) => {
    const id = explicitId(e);
    if (!id) throw new Error('appendManyToInbox: every entry needs msg_id or messageId');
    return id;
  });
  return underInboxLock(inboxPath, opts, async (bytes, write) => {
    const known = validated.get(inboxPath)?.find((v) => v.bytes.equals(bytes));
    // Kept as the most recent: after a prune the file is again what it was before our last
    // write, and our write must not push those bytes out before the next prune brings them back.
    if (known) remember(inboxPath, known.bytes, known.ids, known.count);
    let present = known?.ids;
    let count = known?.count ?? 0;
    if (!present) {
      // A teammate appended since (Claude keeps the old bytes and adds before the closing
      // bracket): only the new entries need checking. Matters for huge inboxes.
      for (const v of validated.get(inboxPath) ?? []) {
        const added = appendedEntries(v.bytes.subarray(0, Math.max(0, arrayHeadLength(v.bytes))), bytes);
        if (!added) continue;
        present = new Set(v.ids);
        for (const e of added) {
          const id = explicitId(e);
          if (id) present.add(id);
        }
        count = v.count + added.length;
        remember(inboxPath, bytes, present, count);
        break;
      }
    }
    if (!present) {
      const parsed = parseInboxBytes(bytes);
      if (parsed.kind === 'corrupt') throw await unreadable(inboxPath, parsed.reason, bytes, opts);
      // Our ids are explicit; an entry without one can only match by a derived id, which
      // never equals an explicit one, so only explicit ids need comparing.
      present = new Set<string>();
      for (const e of parsed.entries) {
        const id = explicitId(e);
        if (id) present.add(id);
      }
      count = parsed.entries.length;
      remember(inboxPath, bytes, present, count);
    }
    const results: AppendResult[] = [];
    const adding: InboxEntry[] = [];
    const after = new Set(present);
    batch.forEach((entry, i) => {
      const dup = BREAK !== 'no-dedup' && after.has(ids[i]!);
      if (!dup) {
        adding.push(entry);
        after.add(ids[i]!);
        count++;
      }
      results.push({ duplicate: dup, count });
    });
    if (adding.length === 0) return results;
    // A blank file (an inbox mid-creation) holds nothing: append to an empty array.
    const out = appendToArrayText(bytes.every(isWs) ? Buffer.from('[]') : bytes, adding);
    await write(out);
    remember(inboxPath, out, after, count);
    return results;
  });
}

export async function appendToInbox(inboxPath: string, entry: InboxEntry, opts: ModifyOptions = {}): Promise<AppendResult> {
  const [r] = await appendManyToInbox(inboxPath, [entry], opts);
  return r!;
}

/** Resolves once what sends left running after their answer is done: lock releases and inbox folder fsyncs (shutdown, tests). */
export async function inboxWritesSettled(): Promise<void> {
  await inboxReleasesSettled();
  await folderSyncsSettled();
}
