// A member's transcript read as a timeline (docs/claude-contract.md#transcripts): its latest steps,
// oldest first. A transcript grows without bound (a long session reaches hundreds of MB), so only
// its last bytes are read: the first, possibly cut, line of that window is dropped, and so are
// lines too long to be anything but a pasted file or an image.
import { openNoFollow } from '../files/read-whole.js';
import type { TimelineItem } from '../../shared/types.js';
import { timelineItems, type Row } from './transcript-rows.js';

/** How much of the end of a transcript a timeline reads. */
export const TIMELINE_WINDOW_BYTES = 16 * 1024 * 1024;
const MAX_LINE = 4 * 1024 * 1024;

export interface TimelineRead {
  items: TimelineItem[];
  /** The transcript is longer than the window: older steps were not read. */
  cut: boolean;
}

/** The whole rows in the last `windowBytes` of the transcript at `path` (never through a link, never a FIFO). */
export async function readLastRows(path: string, windowBytes: number): Promise<{ rows: Row[]; cut: boolean }> {
  let fh;
  try {
    fh = await openNoFollow(path);
  } catch {
    return { rows: [], cut: false };
  }
  let data: Buffer;
  let start: number;
  try {
    const st = await fh.stat();
    if (!st.isFile()) return { rows: [], cut: false };
    start = Math.max(0, st.size - windowBytes);
    const buf = Buffer.allocUnsafe(st.size - start);
    let n = 0;
    while (n < buf.length) {
      const { bytesRead } = await fh.read(buf, n, buf.length - n, start + n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    data = buf.subarray(0, n);
  } finally {
    await fh.close();
  }
  // A window that starts mid-line begins after that line; a last line without its newline is
  // still being written.
  const first = start > 0 ? data.indexOf(0x0a) + 1 : 0;
  const last = data.lastIndexOf(0x0a);
  const rows: Row[] = [];
  if (last >= first) {
    for (const line of data.subarray(first, last).toString('utf8').split('\n')) {
      if (line.length === 0 || line.length > MAX_LINE) continue;
      try {
        const v: unknown = JSON.parse(line);
        if (v && typeof v === 'object' && !Array.isArray(v)) rows.push(v as Row);
      } catch {
        // a torn or foreign line says nothing
      }
    }
  }
  return { rows, cut: start > 0 };
}

/** The last `limit` timeline items of the transcript at `path` (never through a link, never a FIFO). */
export async function readTimeline(path: string, limit: number, windowBytes = TIMELINE_WINDOW_BYTES): Promise<TimelineRead> {
  const { rows, cut } = await readLastRows(path, windowBytes);
  const names = new Map<string, string>();
  const items: TimelineItem[] = [];
  for (const row of rows) items.push(...timelineItems(row, names));
  return { items: items.slice(-limit), cut };
}
