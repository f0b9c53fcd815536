// Reads one team's journal from where the index last stopped, read-only and beside the engine
// that appends to it: its newest snapshot when the segment the index stopped in was compacted
// away, then each segment from the stopped offset, whole lines only (a line being appended is
// read at the next pass). Yields search rows in batches with the watermark after them, so a
// huge journal is never held in memory whole.
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isRecord, SEG, segName, SNAP, snapName, type JournalSnapshot } from '../journal/journal.js';
import type { Watermark } from './index-db.js';
import { observedRow, sentRow, type IndexRow } from './records.js';

export const NOT_READ: Watermark = { seg: -1, off: 0 };
const CHUNK = 1 << 20;

export interface JournalBatch {
  rows: IndexRow[];
  mark: Watermark;
  /** Bytes of journal this batch covers (progress). */
  bytes: number;
}

interface Layout {
  segs: number[];
  snap: number | undefined;
}

async function layout(dir: string): Promise<Layout> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const num = (re: RegExp) =>
    names
      .map((n) => re.exec(n))
      .filter((m): m is RegExpExecArray => !!m)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
  return { segs: num(SEG), snap: num(SNAP).at(-1) };
}

/** How many bytes are left to read after `from` (for progress). */
export async function bytesAfter(dir: string, from: Watermark): Promise<number> {
  const { segs, snap } = await layout(dir);
  let n = 0;
  let seg = from.seg;
  if (snap !== undefined && seg < snap) {
    n += (await stat(join(dir, snapName(snap))).catch(() => ({ size: 0 }))).size;
    seg = snap;
  }
  for (const s of segs) {
    if (s < seg) continue;
    const size = (await stat(join(dir, segName(s))).catch(() => ({ size: 0 }))).size;
    n += Math.max(0, size - (s === from.seg ? from.off : 0));
  }
  return n;
}

function rowOf(team: string, rec: unknown): IndexRow | undefined {
  if (!isRecord(rec)) return undefined;
  if (rec.t === 'queued') return sentRow(team, { ...rec, queuedAt: rec.at });
  if (rec.t === 'observed') return observedRow(team, rec);
  return undefined;
}

export async function* readJournalFrom(dir: string, team: string, from: Watermark, batchRows = 2_000): AsyncGenerator<JournalBatch> {
  const { segs, snap } = await layout(dir);
  let mark = { ...from };
  if (snap !== undefined && mark.seg < snap) {
    // What the index read was compacted into this snapshot (or nothing was read yet): all of
    // it again; rows already in are skipped by id.
    let s: JournalSnapshot | undefined;
    let size = 0;
    try {
      const text = await readFile(join(dir, snapName(snap)), 'utf8');
      size = text.length;
      s = JSON.parse(text) as JournalSnapshot;
    } catch {
      s = undefined;
    }
    const rows: IndexRow[] = [];
    for (const x of s?.sent ?? []) rows.push(sentRow(team, x));
    for (const o of s?.observed ?? []) {
      const r = observedRow(team, o);
      if (r) rows.push(r);
    }
    mark = { seg: snap, off: 0 };
    for (let i = 0; i < rows.length; i += batchRows) yield { rows: rows.slice(i, i + batchRows), mark: i + batchRows >= rows.length ? mark : from, bytes: 0 };
    yield { rows: [], mark, bytes: size };
  }
  for (const n of segs) {
    if (n < mark.seg) continue;
    const start = n === mark.seg ? mark.off : 0;
    // Compacted away since it was listed: its records are in the snapshot the next pass reads.
    // Any other failure is the caller's (a problem): skipped, the segment would never be indexed.
    const fh = await open(join(dir, segName(n)), 'r').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw e;
    });
    if (!fh) continue;
    try {
      const size = (await fh.stat()).size;
      // A segment shorter than where the index stopped was cut (a torn line repaired): read it again.
      let pos = start <= size ? start : 0;
      let rows: IndexRow[] = [];
      let carry = Buffer.alloc(0);
      let reported = pos;
      while (pos < size) {
        const buf = Buffer.allocUnsafe(Math.min(CHUNK, size - pos));
        const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
        if (bytesRead <= 0) break;
        pos += bytesRead;
        const data = carry.length ? Buffer.concat([carry, buf.subarray(0, bytesRead)]) : buf.subarray(0, bytesRead);
        const lastNl = data.lastIndexOf(0x0a);
        if (lastNl === -1) {
          carry = Buffer.from(data);
          continue;
        }
        carry = Buffer.from(data.subarray(lastNl + 1));
        for (const line of data.subarray(0, lastNl).toString('utf8').split('\n')) {
          if (line.trim() === '') continue;
          let rec: unknown;
          try {
            rec = JSON.parse(line);
          } catch {
            continue; // the engine reports a damaged journal; the index skips what it cannot read
          }
          const r = rowOf(team, rec);
          if (r) rows.push(r);
        }
        mark = { seg: n, off: pos - carry.length };
        if (rows.length >= batchRows) {
          yield { rows, mark, bytes: mark.off - reported };
          reported = mark.off;
          rows = [];
        }
      }
      mark = { seg: n, off: pos - carry.length };
      yield { rows, mark, bytes: Math.max(0, mark.off - reported) };
    } finally {
      await fh.close();
    }
  }
}
