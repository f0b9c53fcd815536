// Floors for the readers of Claude's transcripts: what reading the same bytes costs before any
// of Teamdeck's own work, each pass the way the engine reads (8 MB at a time, one file after
// another, whole lines only), the page cache warm. They say how far below a plain read any
// reader of that kind can go (docs/performance.md#floors):
//   - plain:  the bytes read, nothing done with them (the issues' "plain read");
//   - find:   the bytes read, and every line that holds a `"usage"` key found with its bounds
//             (Buffer.indexOf, native code), nothing decoded: the least a usage reader does;
//   - parse:  the bytes read, and every line decoded and JSON.parse'd, nothing kept: the least a
//             reader that parses rows does.
import { closeSync, openSync, readSync } from 'node:fs';
import type { Row } from './stats.js';

/** As the engine's tail reads (files/jsonl-tail.ts MAX_READ_PER_POLL). */
const CHUNK = 8 * 1024 * 1024;
const USAGE = Buffer.from('"usage"');

export interface Floors {
  plainMs: number;
  findMs: number;
  parseMs: number;
  /** Lines with a usage key (find) and lines parsed (parse), as a check that each pass did its work. */
  usageLines: number;
  lines: number;
}

/** Reads each file in CHUNK pieces and hands each run of whole lines to `lines(buf, end)`. */
function pass(paths: readonly string[], lines: (buf: Buffer, end: number) => number): { ms: number; count: number } {
  const buf = Buffer.allocUnsafe(CHUNK);
  let count = 0;
  const t0 = performance.now();
  for (const p of paths) {
    const fd = openSync(p, 'r');
    try {
      let carry = 0;
      for (;;) {
        const n = readSync(fd, buf, carry, buf.length - carry, null);
        if (n <= 0) break;
        const end = carry + n;
        const last = buf.lastIndexOf(10, end - 1);
        if (last < 0) {
          // One line longer than the buffer: the engine skips such a line; so does this.
          carry = 0;
          continue;
        }
        count += lines(buf, last + 1);
        buf.copy(buf, 0, last + 1, end);
        carry = end - last - 1;
      }
    } finally {
      closeSync(fd);
    }
  }
  return { ms: performance.now() - t0, count };
}

const plain = () => 0;

/** A plain read of the files, 8 MB at a time, nothing done with the bytes (ms). */
export function plainRead(paths: readonly string[]): number {
  return pass(paths, plain).ms;
}

function findUsage(buf: Buffer, end: number): number {
  let n = 0;
  for (let at = buf.indexOf(USAGE, 0); at >= 0 && at < end; ) {
    // The line's bounds, as a reader that then takes the row's fields from it needs them.
    const lineStart = buf.lastIndexOf(10, at) + 1;
    const lineEnd = buf.indexOf(10, at);
    if (lineEnd > lineStart) n++;
    at = buf.indexOf(USAGE, lineEnd);
  }
  return n;
}

function parseAll(buf: Buffer, end: number): number {
  let n = 0;
  for (let start = 0; start < end; ) {
    const nl = buf.indexOf(10, start);
    if (nl > start) {
      try {
        JSON.parse(buf.toString('utf8', start, nl));
        n++;
      } catch {
        // an unreadable line costs its try
      }
    }
    start = nl + 1;
  }
  return n;
}

/** The three floors, `runs` times each in turn (the same page cache for all), medians. */
export function measureFloors(paths: readonly string[], runs = 3): Floors {
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
  pass(paths, plain); // pulls the files into the page cache if they were not there
  const p: number[] = [];
  const f: number[] = [];
  const j: number[] = [];
  let usageLines = 0;
  let lines = 0;
  for (let i = 0; i < runs; i++) {
    p.push(pass(paths, plain).ms);
    const fu = pass(paths, findUsage);
    f.push(fu.ms);
    usageLines = fu.count;
    const pa = pass(paths, parseAll);
    j.push(pa.ms);
    lines = pa.count;
  }
  return { plainMs: med(p), findMs: med(f), parseMs: med(j), usageLines, lines };
}

/** A row of the table for one floor (or any pass) against the plain read; `unit` 's' shows seconds. */
export function floorRow(scenario: string, figure: string, unit: 'ms' | 's', ms: number, plainMs: number, note: string): Row {
  const k = unit === 's' ? 1000 : 1;
  return { scenario, figure, unit, median: ms / k, compare: 'plain read of the same bytes', compareValue: plainMs / k, ratio: ms / plainMs, note };
}
