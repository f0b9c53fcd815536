// Claude's inbox lock and the read under it, with as few trips through libuv's thread pool as
// possible: a send takes the lock, reads the inbox, writes it and lets the lock go, and on a
// busy machine each trip through the pool costs a tenth of a millisecond or more where the
// system call itself takes microseconds. The lock is tried once synchronously (Claude's own
// retries, asynchronous, only when it is held); a small inbox is read synchronously.
import { close, constants, read, fstatSync, mkdir, mkdirSync, openSync, readSync, realpath, realpathSync, rmdir, rmdirSync, stat, statSync, utimes, utimesSync } from 'node:fs';
import lockfile from 'proper-lockfile';
import { promisify } from 'node:util';

/** proper-lockfile settings exactly as Claude Code uses them on inbox files. */
export function claudeLockOptions(inboxPath: string): lockfile.LockOptions {
  return {
    lockfilePath: `${inboxPath}.lock`,
    stale: 10_000,
    retries: { retries: 10, minTimeout: 5, maxTimeout: 100 },
    realpath: false,
  };
}

/**
 * Just the calls proper-lockfile's synchronous lock makes (a mkdir, then a utimes and a stat to
 * learn the mtime precision). It copies the fs object it is given on every call, and a copy of
 * the whole module took a tenth of a millisecond.
 */
const LOCK_FS = { mkdir, mkdirSync, realpath, realpathSync, rmdir, rmdirSync, stat, statSync, utimes, utimesSync };

/** Lets the lock go; never throws (a failed release is left to go stale, as Claude does). */
export type InboxRelease = () => Promise<void>;

/** Releases in progress, by inbox: the next lock of the same inbox by this process waits for its own release. */
const releasing = new Map<string, Promise<void>>();

/** Resolves once every release this process began has finished (tests, shutdown). */
export async function inboxReleasesSettled(): Promise<void> {
  while (releasing.size > 0) await Promise.allSettled([...releasing.values()]);
}

/**
 * Takes the inbox's lock: one synchronous try (a mkdir, a utimes and a stat), then, if someone holds it,
 * the asynchronous lock with the retries in `options`. Throws what proper-lockfile throws. The
 * release removes the lock dir in the thread pool (an rmdir is a journaled change that can take
 * a third of a millisecond), so a caller may answer without waiting for it.
 */
export async function lockInbox(inboxPath: string, options: lockfile.LockOptions): Promise<InboxRelease> {
  await releasing.get(inboxPath);
  let release: () => Promise<void>;
  try {
    lockfile.lockSync(inboxPath, { ...options, retries: 0, fs: LOCK_FS });
    // proper-lockfile keeps the lock by path: the asynchronous unlock removes this one.
    release = () => lockfile.unlock(inboxPath, { lockfilePath: options.lockfilePath, realpath: false });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ELOCKED') throw e;
    release = await lockfile.lock(inboxPath, options);
  }
  return () => {
    // A lock that could not be removed goes stale and is taken over, by us and by Claude alike.
    const done = release().catch(() => {});
    releasing.set(inboxPath, done);
    void done.then(() => {
      if (releasing.get(inboxPath) === done) releasing.delete(inboxPath);
    });
    return done;
  };
}

/** Up to this size an inbox is read synchronously (about 0.1 ms a megabyte from the page cache). */
const SYNC_READ_MAX = 1 << 20;
const readFd = promisify(read);

/** An inbox's bytes, and the open file they were read from (see LockedInboxRead.letGo). */
export interface LockedInboxRead {
  bytes: Buffer;
  /**
   * Closes the file read, in the thread pool. Held open until the new inbox is renamed over it,
   * so the rename does not free the old file's blocks itself (a third of a millisecond for a
   * 200 KB inbox): that happens at this close, off the answer's path.
   */
  letGo: () => void;
}

/**
 * The inbox's bytes. Never follows a final link and never blocks on a FIFO (the file was
 * checked to be a regular file, but may have been swapped since): such a file is refused.
 */
export async function readLockedInbox(inboxPath: string): Promise<LockedInboxRead> {
  const fd = openSync(inboxPath, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  const letGo = () => close(fd, () => {});
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw Object.assign(new Error(`${inboxPath} is not a regular file`), { code: 'EISDIR' });
    // A big one is read from the same open file in the pool (its path might name another by now).
    const small = st.size <= SYNC_READ_MAX;
    let buf = Buffer.allocUnsafe(st.size + 1);
    let length = 0;
    for (;;) {
      if (length === buf.length) buf = Buffer.concat([buf, Buffer.allocUnsafe(buf.length)], buf.length * 2);
      const n = small ? readSync(fd, buf, length, buf.length - length, null) : (await readFd(fd, buf, length, buf.length - length, null)).bytesRead;
      if (n === 0) break;
      length += n;
    }
    return { bytes: buf.subarray(0, length), letGo };
  } catch (e) {
    letGo();
    throw e;
  }
}
