import { open } from 'node:fs/promises';

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
