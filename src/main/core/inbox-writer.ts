import { mkdir, writeFile, lstat, readFile } from 'node:fs/promises';
import { dirname, basename } from 'node:path';
import lockfile from 'proper-lockfile';
import { writeFileAtomic } from './atomic-write.js';
import { parseInboxBytes, isRawMessage, rawMessageId } from './inbox-read.js';
import { preserveBytes } from './preserve.js';

/** proper-lockfile settings exactly as Claude Code uses them on inbox files. */
export function claudeLockOptions(inboxPath: string): lockfile.LockOptions {
  return {
    lockfilePath: `${inboxPath}.lock`,
    stale: 10_000,
    retries: { retries: 10, minTimeout: 5, maxTimeout: 100 },
    realpath: false,
  };
}

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
  const e: InboxEntry = { from: 'user', text, timestamp, read: false };
  if (summary) e.summary = summary;
  e.type = 'message';
  e.msgV = 1;
  e.msg_id = id;
  e.messageId = id;
  return e;
}

export interface ModifyOptions {
  /** Where to keep the bytes of an inbox that does not parse before refusing to touch it. */
  preserveDir?: string;
  /** Label for the kept copy (for example `team/inboxes/name.json`). */
  preserveLabel?: string;
  fsync?: boolean;
  lockOptions?: Partial<lockfile.LockOptions>;
  /** Checked against a fresh read of the file after the write, still under the lock. */
  verify?: (entries: unknown[]) => boolean;
}

/** Claude's steps 1-2: the folder, then the file as `[]` by exclusive create. */
export async function ensureInbox(inboxPath: string): Promise<void> {
  await mkdir(dirname(inboxPath), { recursive: true });
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
 * Runs `change` on the inbox's entries under Claude's lock and writes the result atomically.
 * `change` returns the new array, or undefined to leave the file as it is. An inbox that does
 * not parse is kept (copied to preserveDir) and never rewritten: the call fails as temporary.
 */
export async function modifyInbox<T>(
  inboxPath: string,
  change: (entries: unknown[]) => { entries?: unknown[]; result: T },
  opts: ModifyOptions = {},
): Promise<T> {
  try {
    await ensureInbox(inboxPath);
  } catch (e) {
    throw classify(e, 'cannot create inbox');
  }
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(inboxPath, {
      ...claudeLockOptions(inboxPath),
      ...opts.lockOptions,
      onCompromised: () => {
        // Another process took our lock as stale: the write below may race. The verify
        // step after the rename catches a lost message; nothing else to do here.
      },
    });
  } catch (e) {
    throw classify(e, 'cannot lock inbox');
  }
  try {
    let bytes: Buffer;
    try {
      bytes = await readFile(inboxPath);
    } catch (e) {
      throw classify(e, 'cannot read inbox');
    }
    const parsed = parseInboxBytes(bytes);
    if (parsed.kind === 'corrupt') {
      let preservedAt: string | undefined;
      if (opts.preserveDir) {
        preservedAt = await preserveBytes(opts.preserveDir, opts.preserveLabel ?? basename(inboxPath), bytes).catch(() => undefined);
      }
      throw new AdmissionError(`inbox ${basename(inboxPath)} is unreadable (${parsed.reason}); left untouched${preservedAt ? ', bytes kept' : ''}`, true, 'ECORRUPT', preservedAt);
    }
    const { entries, result } = change(parsed.entries);
    if (entries) {
      try {
        await writeFileAtomic(inboxPath, JSON.stringify(entries, null, 2), { fsync: opts.fsync ?? true });
      } catch (e) {
        throw classify(e, 'cannot write inbox');
      }
      if (opts.verify) {
        const again = parseInboxBytes(await readFile(inboxPath).catch(() => Buffer.alloc(0)));
        if (again.kind !== 'ok' || !opts.verify(again.entries)) {
          throw new AdmissionError(`inbox ${basename(inboxPath)} did not hold the message after writing`, true, 'EVERIFY');
        }
      }
    }
    return result;
  } finally {
    await release().catch(() => {});
  }
}

export interface AppendResult {
  /** true when a message with this id was already in the inbox and nothing was written. */
  duplicate: boolean;
  /** Entries in the inbox after the append. */
  count: number;
}

/**
 * Appends one message the way Claude does, de-duplicated by id, and verifies it by re-reading
 * the file under the same lock. Throws AdmissionError.
 */
export async function appendToInbox(inboxPath: string, entry: InboxEntry, opts: ModifyOptions = {}): Promise<AppendResult> {
  const id = entry.msg_id ?? entry.messageId ?? rawMessageId(entry);
  const has = (entries: unknown[]) => entries.some((e) => isRawMessage(e) && rawMessageId(e) === id);
  return modifyInbox<AppendResult>(
    inboxPath,
    (entries) => {
      if (has(entries)) return { result: { duplicate: true, count: entries.length } };
      const next = [...entries, entry];
      return { entries: next, result: { duplicate: false, count: next.length } };
    },
    { ...opts, verify: (entries) => has(entries) },
  );
}
