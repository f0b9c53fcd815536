import { open, rename, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';

/**
 * Writes a file the way Claude's current versions do (`<file>.tmp.<8 hex>` renamed over
 * the target, so watchers can ignore `*.tmp.*`), plus the fsyncs Claude skips: the data
 * before the rename, and the folder after it, so an answer of `accepted` survives power loss.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  opts: {
    fsync?: boolean;
    mode?: number;
    /** Awaited once the temp file is written (and fsync'd), before the rename shows it; if it throws, the temp file is removed and nothing is shown. */
    beforeRename?: () => Promise<void>;
    /** Run once the rename is done, alongside the folder's fsync; both are finished when this returns. */
    afterRename?: () => Promise<void>;
  } = {},
): Promise<void> {
  const fsync = opts.fsync ?? true;
  const tmp = `${path}.tmp.${randomBytes(4).toString('hex')}`;
  // `mode` (before the umask) for files only their owner may read, e.g. 0o600.
  const fh = await open(tmp, 'wx', opts.mode ?? 0o644);
  try {
    // One write for the whole buffer: writeFile's 512 KiB chunks each wait their turn on the
    // event loop, which made rewriting a 10 MB inbox slow whenever the process was busy.
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let at = 0; at < bytes.length; ) at += (await fh.write(bytes, at, bytes.length - at)).bytesWritten;
    if (fsync) await fh.sync();
  } catch (e) {
    await fh.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    throw e;
  }
  await fh.close();
  try {
    await opts.beforeRename?.();
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => {});
    throw e;
  }
  const [synced, after] = await Promise.allSettled([fsync ? fsyncDir(dirname(path)) : undefined, opts.afterRename?.()]);
  if (synced.status === 'rejected') throw synced.reason;
  if (after.status === 'rejected') throw after.reason;
}

export async function fsyncDir(dir: string): Promise<void> {
  let fh;
  try {
    fh = await open(dir, 'r');
    await fh.sync();
  } catch {
    // Some platforms (Windows) cannot open or fsync a directory; the rename is still atomic.
  } finally {
    await fh?.close().catch(() => {});
  }
}
