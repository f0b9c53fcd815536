import { constants, open } from 'node:fs/promises';

/**
 * readFile, in as few reads as the file allows. readFile reads in 512 KiB chunks and each
 * chunk waits its turn on the event loop: a 10 MB inbox took 20 turns, which made it slow to
 * read whenever the process was busy. Reads until end of file, however the file changes size.
 */
export async function readWhole(path: string): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    let buf = Buffer.allocUnsafe(Math.max(1, (await fh.stat()).size + 1));
    let length = 0;
    for (;;) {
      if (length === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, length);
        buf = bigger;
      }
      const { bytesRead } = await fh.read(buf, length, buf.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return buf.subarray(0, length);
  } finally {
    await fh.close();
  }
}

/** A file that must not be read: a link, not a regular file, or larger than the bound. */
export class UnreadableFileError extends Error {
  constructor(
    readonly why: 'link' | 'not-file' | 'too-big',
    message: string,
  ) {
    super(message);
    this.name = 'UnreadableFileError';
  }
}

/**
 * Opens a file of another program's for reading without ever blocking or following a final
 * link: O_NOFOLLOW (a link swapped in after an lstat is refused too) and O_NONBLOCK (opening a
 * FIFO for reading otherwise waits for a writer, forever, holding one of libuv's four threads;
 * the caller's fstat then refuses it as not a file). No effect on a regular file's reads.
 */
export function openNoFollow(path: string) {
  return open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
}

/**
 * A small file of another program's (a sessions, task or config file): never through a symbolic
 * link, never blocking on a FIFO (openNoFollow), a regular file only, and at most `max` bytes
 * (a file that grows past it while read is refused, not cut).
 */
export async function readBounded(path: string, max: number): Promise<Buffer> {
  let fh;
  try {
    fh = await openNoFollow(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw new UnreadableFileError('link', 'is a symbolic link; not followed');
    throw e;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new UnreadableFileError('not-file', 'is not a file');
    if (st.size > max) throw new UnreadableFileError('too-big', `is ${st.size} bytes; at most ${max} are read`);
    // Room for the file as it is, plus a byte to see it grow; more only if it does (the bound is
    // often far above the size: every read of a task file took a megabyte, of a config eight).
    let buf = Buffer.allocUnsafe(st.size + 1);
    let length = 0;
    for (;;) {
      if (length === buf.length) {
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, max + 1));
        buf.copy(bigger, 0, 0, length);
        buf = bigger;
      }
      const { bytesRead } = await fh.read(buf, length, buf.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > max) throw new UnreadableFileError('too-big', `grew past ${max} bytes while read`);
    }
    return buf.subarray(0, length);
  } finally {
    await fh.close();
  }
}
