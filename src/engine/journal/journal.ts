// The app's own append-only, fsync'd journal: one per team, in the state dir. It is the
// durable outbox (queued -> delivered) and the durable history (everything observed in any
// inbox), because Claude prunes inboxes after reading them. Every append is fdatasync'd; most
// are answered after it, a `delivered` record once written (appendWritten).
import { open, readdir, readFile, mkdir, rm, truncate, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { writeSync } from 'node:fs';
import { writeFileAtomic, folderSyncsInFlight, fsyncDir, SYNC_WRITE_MAX } from '../files/atomic-write.js';
import { SEG, SNAP, segName, snapName } from './journal-files.js';
import { applyRecord, countKey, emptyState, isRecord, sentKey, JournalError, keptText, type FoldedState, type JournalRecord, type ObservedState, type ObservedWithText, type SentState } from './journal-records.js';
import { readTexts } from './journal-texts.js';

// The record types and the folding rule are imported from here, as they always were.
export * from './journal-records.js';

/** Journal records in one segment before the engine folds it into a snapshot. */
export const COMPACT_AFTER = 50_000;

interface Snapshot {
  v: 1;
  /** The first segment not folded into this snapshot. */
  nextSegment: number;
  records: number;
  sent: SentState[];
  observed: ObservedWithText[];
  /** The DupRecords folded in (record-keys.ts). */
  dups?: Array<{ id: string; key: number; side: 'transcript' | 'other' }>;
}

export { SEG, SNAP, segName, snapName } from './journal-files.js';
export type { Snapshot as JournalSnapshot };

export interface JournalOptions {
  /**
   * Told the journal folder after each batch of appends is on disk (the search index follows
   * the journals this way). It must not throw and must not block: it only schedules.
   */
  onWritten?: (dir: string) => void;
}

export interface JournalPosition {
  segment: number;
  bytes: number;
}

export interface JournalOpenResult {
  journal: Journal;
  state: FoldedState;
  /** Bytes cut from a torn last line, if any (a crash mid-append). */
  tornBytes: number;
}

interface Pending {
  line: string;
  /** Answered once written, before the fdatasync that follows (see appendWritten). */
  early: boolean;
  /** Already in the file; the flush only has to fdatasync it. */
  written: boolean;
  resolve: () => void;
  reject: (e: unknown) => void;
}

export class Journal {
  private queue: Pending[] = [];
  private flushing = false;
  /** No line may be written now: an asynchronous write, or the switch to a new segment, is under way. */
  private held = false;
  private closed = false;
  /** Records in the current segment, to decide when to compact. */
  segmentRecords: number;
  /** Why compaction gave up in this run (a text it could not read back), once it has. */
  private compactRefused: string | undefined;

  private constructor(
    readonly dir: string,
    private fh: FileHandle,
    private segment: number,
    segmentRecords: number,
    private readonly onWritten: JournalOptions['onWritten'],
  ) {
    this.segmentRecords = segmentRecords;
  }

  /** Opens (creating if needed) the journal in `dir` and folds it. */
  static async open(dir: string, opts: JournalOptions = {}): Promise<JournalOpenResult> {
    await mkdir(dir, { recursive: true });
    const names = await readdir(dir);
    const segs = names.map((n) => SEG.exec(n)).filter((m): m is RegExpExecArray => !!m).map((m) => Number(m[1])).sort((a, b) => a - b);
    const snaps = names.map((n) => SNAP.exec(n)).filter((m): m is RegExpExecArray => !!m).map((m) => Number(m[1])).sort((a, b) => a - b);

    const state = emptyState();
    let from = 0;
    const snapN = snaps.at(-1);
    if (snapN !== undefined) {
      const file = join(dir, snapName(snapN));
      let snap: Snapshot;
      try {
        snap = JSON.parse(await readFile(file, 'utf8')) as Snapshot;
      } catch (e) {
        throw new JournalError(`${file}: snapshot unreadable (${(e as Error).message})`);
      }
      if (snap.v !== 1 || snap.nextSegment !== snapN) throw new JournalError(`${file}: not a Teamdeck journal snapshot`);
      // Snapshots before the current era did not store the sender: it was always `user`.
      for (const s of snap.sent) {
        const sent = { ...s, from: s.from ?? 'user' };
        state.sent.set(s.id, sent);
        state.keys.add(sentKey(sent), 'other');
      }
      for (const o of snap.observed) {
        state.observed.set(o.id, o);
        countKey(state, o);
      }
      for (const d of snap.dups ?? []) {
        state.dups.set(d.id, { key: d.key, side: d.side });
        state.keys.add(d.key, d.side);
      }
      state.records = snap.records;
      from = snap.nextSegment;
    }
    const live = segs.filter((n) => n >= from);
    let tornBytes = 0;
    let lastCount = 0;
    for (let i = 0; i < live.length; i++) {
      const n = live[i]!;
      const file = join(dir, segName(n));
      const isLast = i === live.length - 1;
      const r = await foldSegment(file, n, state, isLast);
      tornBytes += r.tornBytes;
      lastCount = r.records;
    }
    const current = live.at(-1) ?? from;
    const fh = await open(join(dir, segName(current)), 'a');
    if (live.length === 0) await fsyncDir(dir);
    return { journal: new Journal(dir, fh, current, live.length ? lastCount : 0, opts.onWritten), state, tornBytes };
  }

  /** Appends records and resolves once they are on disk (fsync). Concurrent appends share one fsync. */
  append(...records: JournalRecord[]): Promise<void> {
    return this.enqueue(records, false);
  }

  /**
   * Appends records and resolves once they are written to the file, in order with every other
   * append; their fdatasync follows at once in the same flush. For a record a crash of this
   * process must not lose (the kernel holds it) but whose loss with the machine is recovered
   * from an earlier durable record: `delivered`, after a durable `queued`.
   */
  appendWritten(...records: JournalRecord[]): Promise<void> {
    return this.enqueue(records, true);
  }

  private enqueue(records: JournalRecord[], early: boolean): Promise<void> {
    if (this.closed) return Promise.reject(new JournalError('journal is closed'));
    const line = records.map((r) => JSON.stringify(r)).join('\n') + '\n';
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ line, early, written: false, resolve, reject });
      this.segmentRecords += records.length;
      // Not kept waiting behind a flush's fdatasync: written now, with whatever is queued before it.
      if (early && this.flushing && !this.held) this.writeQueued(this.queue);
      void this.flush();
    });
  }

  /**
   * Writes the lines of `batch` not yet written, in order, synchronously when they are small (a
   * few hundred bytes take microseconds, where a trip through the thread pool takes a tenth of a
   * millisecond on a busy machine), and answers the early ones. False when they are too big to
   * write synchronously (the flush writes them). A failed write fails the lines it held.
   */
  private writeQueued(batch: Pending[]): boolean {
    const lines = batch.filter((p) => !p.written);
    if (lines.length === 0) return true;
    const bytes = Buffer.from(lines.map((p) => p.line).join(''), 'utf8');
    if (bytes.length > SYNC_WRITE_MAX) return false;
    try {
      for (let at = 0; at < bytes.length; ) at += writeSync(this.fh.fd, bytes, at, bytes.length - at);
    } catch (e) {
      for (const p of lines) p.reject(e);
      this.queue = this.queue.filter((p) => !lines.includes(p));
      throw e;
    }
    markWritten(lines);
    return true;
  }

  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        try {
          if (!this.writeQueued(batch)) {
            const unwritten = batch.filter((p) => !p.written);
            const bytes = Buffer.from(unwritten.map((p) => p.line).join(''), 'utf8');
            this.held = true;
            try {
              for (let at = 0; at < bytes.length; ) at += (await this.fh.write(bytes, at, bytes.length - at)).bytesWritten;
            } finally {
              this.held = false;
            }
            markWritten(unwritten);
          }
          // An inbox rename whose folder fsync still runs goes to disk before anything written after it.
          const renames = folderSyncsInFlight();
          if (renames) await renames;
          await this.fh.datasync();
          for (const p of batch) if (!p.early) p.resolve();
          this.onWritten?.(this.dir);
        } catch (e) {
          // (An early line already answered stays answered: it was written.)
          for (const p of batch) if (!(p.early && p.written)) p.reject(e);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /**
   * Where the journal ends now: its current segment and that segment's size. Records are only
   * ever appended, and a compaction starts a new segment, so the same position means the same
   * journal. Call after drain() for a position that includes everything appended.
   */
  async position(): Promise<JournalPosition> {
    return { segment: this.segment, bytes: (await this.fh.stat()).size };
  }

  /** Waits until everything appended so far is on disk. */
  async drain(): Promise<void> {
    while (this.flushing || this.queue.length > 0) await new Promise((r) => setTimeout(r, 1));
  }

  /**
   * Writes the folded state as a snapshot and starts a new segment, then removes what the
   * snapshot covers. A crash at any point leaves either the old files or the new snapshot
   * plus segments that fold to the same state.
   */
  async compact(state: FoldedState): Promise<void> {
    // One that could not read its texts back is not tried again in this run (each try would read
    // the whole segment again); the journal goes on in its current segment.
    if (this.compactRefused !== undefined) return;
    await this.drain();
    while (this.flushing) await this.drain();
    // Hold new appends in the queue until the new segment is in place: one written to the old
    // segment after the snapshot was taken would be deleted with that segment.
    this.flushing = true;
    this.held = true;
    try {
      // The texts left in the segments about to go are taken into memory: the snapshot holds
      // them, and the references into those segments would lead nowhere.
      let texts: Map<ObservedState, string>;
      try {
        texts = await readTexts(this.dir, state.observed.values());
      } catch (e) {
        this.compactRefused = (e as Error).message;
        throw new JournalError(`not compacted: ${this.compactRefused}`);
      }
      for (const [o, text] of texts) {
        const { ref: _ref, ...rest } = o;
        state.observed.set(o.id, { ...rest, text });
      }
      await this.switchSegment(state);
    } finally {
      this.held = false;
      this.flushing = false;
      if (this.queue.length > 0) void this.flush();
    }
  }

  private async switchSegment(state: FoldedState): Promise<void> {
    const next = this.segment + 1;
    const snap: Snapshot = {
      v: 1,
      nextSegment: next,
      records: state.records,
      sent: [...state.sent.values()],
      observed: [...state.observed.values()].map(withText),
      dups: [...state.dups].map(([id, d]) => ({ id, ...d })),
    };
    const newFh = await open(join(this.dir, segName(next)), 'a');
    await writeFileAtomic(join(this.dir, snapName(next)), JSON.stringify(snap));
    const old = this.fh;
    this.fh = newFh;
    this.segment = next;
    this.segmentRecords = 0;
    await old.close();
    for (const n of await readdir(this.dir)) {
      const s = SEG.exec(n) ?? SNAP.exec(n);
      if (s && Number(s[1]) < next) await rm(join(this.dir, n), { force: true });
    }
    await fsyncDir(this.dir);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.drain();
    this.closed = true;
    await this.fh.close();
  }
}

/** compact() took every text left in the segments into memory; keptText throws for one it missed. */
function withText(o: ObservedState): ObservedWithText {
  keptText(o);
  return o as ObservedWithText;
}

/** Lines now in the file: the early ones are answered (the rest after the fdatasync). */
function markWritten(lines: Pending[]): void {
  for (const p of lines) {
    p.written = true;
    if (p.early) p.resolve();
  }
}

async function foldSegment(file: string, seg: number, state: FoldedState, isLast: boolean): Promise<{ tornBytes: number; records: number }> {
  const buf = await readFile(file);
  let end = buf.length;
  let tornBytes = 0;
  // The tail is repaired only once every line folded: a journal refused as damaged is left
  // exactly as it was found.
  let repair: (() => Promise<void>) | undefined;
  if (end > 0 && buf[end - 1] !== 0x0a) {
    const lastNl = buf.lastIndexOf(0x0a);
    const tail = buf.subarray(lastNl + 1).toString('utf8');
    let whole = false;
    try {
      whole = isRecord(JSON.parse(tail));
    } catch {
      whole = false;
    }
    if (!isLast) throw new JournalError(`${file}: last line is incomplete, but this is not the newest segment`);
    if (whole) {
      // The record was written whole; only its newline is missing. Keep it.
      repair = async () => {
        const fh = await open(file, 'a');
        await fh.write('\n');
        await fh.datasync();
        await fh.close();
      };
    } else {
      // A torn append from a crash: nobody was told it was stored (we answer after fsync).
      tornBytes = end - (lastNl + 1);
      end = lastNl + 1;
      const cut = end;
      repair = () => truncate(file, cut);
    }
  }
  // Line by line from the bytes: each line's offset and length in the file are where an
  // observed text can be read back (journal-texts.ts), whatever the bytes hold; and no string the
  // size of the segment is made (one would go straight to V8's old space and stay there, as
  // garbage, until a full collection).
  let lineNo = 0;
  let records = 0;
  let start = 0;
  while (start < end) {
    let nl = buf.indexOf(0x0a, start);
    if (nl === -1 || nl > end) nl = end;
    const off = start;
    const len = nl - off;
    const line = buf.toString('utf8', off, nl);
    start = nl + 1;
    lineNo++;
    if (line.trim() === '') continue;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch (e) {
      throw new JournalError(`${file}:${lineNo}: malformed journal line (${(e as Error).message})`);
    }
    if (!isRecord(rec)) throw new JournalError(`${file}:${lineNo}: not a journal record`);
    applyRecord(state, rec, `${file}:${lineNo}`, rec.t === 'observed' ? { seg, off, len } : undefined);
    records++;
  }
  await repair?.();
  return { tornBytes, records };
}
