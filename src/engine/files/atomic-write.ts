import { open, rename, unlink } from 'node:fs/promises';
import { closeSync, fstatSync, fsync, openSync, renameSync, writeSync, type BigIntStats } from 'node:fs';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';

/** Folder fsyncs started by `folderSync: 'background'` writes and not finished yet. */
const folderSyncs = new Set<Promise<void>>();

/**
 * The folder fsyncs running now, settled; undefined when none is. The journal waits for them
 * before its own fdatasync: a `delivered` record written after a rename whose folder fsync is
 * still running must not reach the disk before that rename does (some file systems, btrfs for
 * one, can make one file durable on its own).
 */
export function folderSyncsInFlight(): Promise<unknown> | undefined {
  return folderSyncs.size > 0 ? Promise.allSettled([...folderSyncs]) : undefined;
}

/** Resolves once every folder fsync that writes left running has finished (tests, shutdown). */
export async function folderSyncsSettled(): Promise<void> {
  while (folderSyncs.size > 0) await Promise.allSettled([...folderSyncs]);
}

/**
 * Up to this size the temp file is written, closed, renamed and checked with synchronous calls:
 * each takes microseconds on a local disk where a round trip through libuv's thread pool takes
 * a tenth of a millisecond or more on a busy machine, and a send makes several. Only the fsyncs,
 * which take milliseconds, go through the pool. Bigger files are written the asynchronous way.
 */
export const SYNC_WRITE_MAX = 1 << 20;

const fsyncFd = promisify(fsync);

/**
 * Writes a file the way Claude's current versions do (`<file>.tmp.<8 hex>` renamed over
 * the target, so watchers can ignore `*.tmp.*`), plus the fsyncs Claude skips: the data
 * before the rename, so the file is never seen torn or empty after a power loss, and the
 * folder after it, so the rename itself survives one.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  opts: {
    fsync?: boolean;
    mode?: number;
    /** Awaited once the temp file is written (and fsync'd), before the rename shows it; if it throws, the temp file is removed and nothing is shown. */
    beforeRename?: () => Promise<void>;
    /** Run once the rename is done, with the temp file's own stat (taken after its fsync), to check the target is still that file. */
    afterRename?: (written: BigIntStats) => Promise<void>;
    /**
     * 'wait' (the default): returns after the folder's fsync. 'background': returns once the
     * rename is done and leaves the folder's fsync running (see folderSyncsSettled), for a caller
     * whose own durable record makes a lost rename recoverable (the delivery journal).
     */
    folderSync?: 'wait' | 'background';
  } = {},
): Promise<void> {
  const sync = opts.fsync ?? true;
  const tmp = `${path}.tmp.${randomBytes(4).toString('hex')}`;
  // One write for the whole buffer: writeFile's 512 KiB chunks each wait their turn on the
  // event loop, which made rewriting a 10 MB inbox slow whenever the process was busy.
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const small = bytes.length <= SYNC_WRITE_MAX;
  const check = opts.afterRename;
  const written = small ? await writeTempNow(tmp, bytes, sync, !!check, opts.mode) : await writeTemp(tmp, bytes, sync, !!check, opts.mode);
  try {
    await opts.beforeRename?.();
    // (The rename frees the old file's blocks, so a big one goes through the pool too.)
    if (small) renameSync(tmp, path);
    else await rename(tmp, path);
  } catch (e) {
    // The rename's error is the one the caller needs; a temp file left behind is never taken for the file.
    await unlink(tmp).catch(() => {});
    throw e;
  }
  const synced = sync ? fsyncDir(dirname(path)) : Promise.resolve();
  const background = opts.folderSync === 'background';
  if (background) {
    folderSyncs.add(synced);
    void synced.finally(() => folderSyncs.delete(synced));
  }
  const [dirDone, after] = await Promise.allSettled([background ? undefined : synced, check && written ? check(written) : undefined]);
  if (dirDone.status === 'rejected') throw dirDone.reason;
  if (after.status === 'rejected') throw after.reason;
}

/** The temp file with synchronous calls around one fsync in the pool (see SYNC_WRITE_MAX). Its stat after the fsync, when asked for. */
async function writeTempNow(tmp: string, bytes: Uint8Array, sync: boolean, stat: boolean, mode = 0o644): Promise<BigIntStats | undefined> {
  // `mode` (before the umask) for files only their owner may read, e.g. 0o600.
  const fd = openSync(tmp, 'wx', mode);
  try {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    if (sync) await fsyncFd(fd);
    return stat ? fstatSync(fd, { bigint: true }) : undefined;
  } catch (e) {
    // The write's error is the one the caller needs; a temp file left behind is never taken for the file.
    await unlink(tmp).catch(() => {});
    throw e;
  } finally {
    closeSync(fd);
  }
}

async function writeTemp(tmp: string, bytes: Uint8Array, sync: boolean, stat: boolean, mode = 0o644): Promise<BigIntStats | undefined> {
  const fh = await open(tmp, 'wx', mode);
  try {
    for (let at = 0; at < bytes.length; ) at += (await fh.write(bytes, at, bytes.length - at)).bytesWritten;
    if (sync) await fh.sync();
    return stat ? await fh.stat({ bigint: true }) : undefined;
  } catch (e) {
    // The write's error is the one the caller needs; a temp file left behind is never taken for the file.
    await unlink(tmp).catch(() => {});
    throw e;
  } finally {
    await fh.close();
  }
}

export async function fsyncDir(dir: string): Promise<void> {
  let fh;
  try {
    fh = await open(dir, 'r');
    await fh.sync();
  } catch {
    // Some platforms (Windows) cannot open or fsync a directory; the rename is still atomic.
  } finally {
    // Only opened to fsync: closing it can lose nothing.
    await fh?.close().catch(() => {});
  }
}
