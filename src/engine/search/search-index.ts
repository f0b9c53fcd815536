// The engine's search index: follows every team's journal (running and ended teams alike,
// read from the state dir, never from the teams in memory), a few hundred milliseconds behind
// each append, and answers searches newest first. It lives in `<state>/search/index.sqlite`
// and remembers per team how far it read, so a restart reads only what is new; an index that
// is missing, of another version or damaged is moved aside and rebuilt from the journals, one
// team at a time, while searches answer from what is in so far. Nothing here can fail or slow
// a delivery: the journal only tells it a folder changed, and its errors become problems.
import { readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { SearchDirection, SearchHit, SearchRequest, SearchResult } from '../../shared/contract.js';
import { listJournalTeams } from '../journal/team-meta.js';
import { IndexDamagedError, IndexDb, type RawHit, type Watermark } from './index-db.js';
import { bytesAfter, NOT_READ, readJournalFrom } from './journal-reader.js';
import { matchFor, parseQuery } from './query.js';
import { MARK_CLOSE, MARK_OPEN } from './records.js';

export const DEFAULT_SEARCH_LIMIT = 50;
/** New journal lines are indexed in one transaction this long after the first of them. */
export const FLUSH_MS = 200;

export function indexFileOf(stateDir: string): string {
  return join(stateDir, 'search', 'index.sqlite');
}

export interface SearchIndexOptions {
  stateDir: string;
  /** The index was rebuilt, or cannot be used: said once, in words. */
  onProblem?: (message: string) => void;
  flushMs?: number;
}

/** The snippet's marks turned into [start, end) ranges of the plain text. */
export function snippetRanges(marked: string): { text: string; ranges: [number, number][] } {
  let text = '';
  const ranges: [number, number][] = [];
  let open = -1;
  for (const ch of marked) {
    if (ch === MARK_OPEN) open = text.length;
    else if (ch === MARK_CLOSE) {
      if (open >= 0 && text.length > open) ranges.push([open, text.length]);
      open = -1;
    } else text += ch;
  }
  return { text, ranges };
}

const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

export class SearchIndex {
  readonly file: string;
  private readonly journalRoot: string;
  private readonly flushMs: number;
  private db: IndexDb | undefined;
  private opened: Promise<void> | undefined;
  private failure: string | undefined;
  private marks = new Map<string, Watermark>();
  private dirty = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private pumping: Promise<void> | undefined;
  private closed = false;
  private building = false;
  private total = 0;
  private done = 0;

  constructor(private readonly opts: SearchIndexOptions) {
    this.file = indexFileOf(opts.stateDir);
    this.journalRoot = join(opts.stateDir, 'journal');
    this.flushMs = opts.flushMs ?? FLUSH_MS;
  }

  /** Opens the index and starts reading what the journals hold beyond it. Resolves once open. */
  start(): Promise<void> {
    this.opened ??= this.open();
    return this.opened;
  }

  private async open(): Promise<void> {
    try {
      this.db = (await this.openOrMoveAside()).db;
    } catch (e) {
      this.failure = `the search index cannot be used: ${(e as Error).message}`;
      this.opts.onProblem?.(this.failure);
      return;
    }
    if (this.closed) return this.closeDb();
    this.marks = this.db.watermarks();
    const teams = await listJournalTeams(this.opts.stateDir);
    // A new index, or one whose first build was cut short: searches say it is being built.
    this.building = this.db.meta('built') !== '1';
    if (this.building) {
      for (const t of teams) this.total += await bytesAfter(join(this.journalRoot, t), this.marks.get(t) ?? NOT_READ);
    }
    for (const t of teams) this.dirty.add(t);
    this.pump();
  }

  private async openOrMoveAside(): Promise<{ db: IndexDb; created: boolean }> {
    try {
      return await IndexDb.open(this.file);
    } catch (e) {
      if (!(e instanceof IndexDamagedError)) throw e;
      // Kept once for a look, beside the new one; the journals hold everything it held.
      const aside = `${this.file}.damaged`;
      await rm(aside, { force: true });
      await rename(this.file, aside).catch(() => rm(this.file, { force: true }));
      for (const n of await readdir(dirname(this.file)).catch(() => [] as string[])) {
        if (n.startsWith(`${basename(this.file)}-`)) await rm(join(dirname(this.file), n), { force: true });
      }
      this.opts.onProblem?.(`the search index was unusable (${e.message}); it is being rebuilt from the journals`);
      return IndexDb.open(this.file);
    }
  }

  /** A journal folder got new lines on disk. */
  noteWritten(dir: string): void {
    if (this.closed || dirname(dir) !== this.journalRoot) return;
    this.dirty.add(basename(dir));
    if (!this.db || this.timer || this.pumping) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, this.flushMs);
    this.timer.unref?.();
  }

  private pump(): void {
    if (this.pumping || this.closed || !this.db) return;
    this.pumping = this.drain().finally(() => {
      this.pumping = undefined;
      // Lines that came while the last team was being read.
      if (this.dirty.size && !this.closed) this.noteWritten(join(this.journalRoot, [...this.dirty][0]!));
    });
  }

  private async drain(): Promise<void> {
    while (this.dirty.size && !this.closed) {
      const team = this.dirty.values().next().value as string;
      this.dirty.delete(team);
      try {
        await this.indexTeam(team);
      } catch (e) {
        this.opts.onProblem?.(`search index: journal/${team} not indexed: ${(e as Error).message}`);
      }
    }
    if (this.building && this.dirty.size === 0 && !this.closed) {
      this.db?.setMeta('built', '1');
      this.building = false;
    }
  }

  private async indexTeam(team: string): Promise<void> {
    const db = this.db!;
    const from = this.marks.get(team) ?? NOT_READ;
    for await (const b of readJournalFrom(join(this.journalRoot, team), team, from)) {
      if (this.closed) return;
      db.add(b.rows, new Map([[team, b.mark]]));
      this.marks.set(team, b.mark);
      this.done += b.bytes;
      // A big batch has just run synchronously: let deliveries and the window have their turn.
      if (b.rows.length > 0) await yieldToLoop();
    }
  }

  /** Waits until what the journals hold is indexed (at most `ms`). */
  async settled(ms = Infinity): Promise<void> {
    await this.start();
    const deadline = Date.now() + ms;
    while (!this.closed && (this.pumping || this.dirty.size) && Date.now() < deadline) {
      if (this.timer) {
        clearTimeout(this.timer);
        this.timer = undefined;
        this.pump();
      }
      await Promise.race([this.pumping, new Promise((r) => setTimeout(r, Math.min(50, Math.max(1, deadline - Date.now()))))]);
    }
  }

  /**
   * `complete`: wait until everything is indexed (a one-shot command). Otherwise a rebuild in
   * progress answers with what is in so far, marked `building`.
   */
  async search(req: SearchRequest, teamName: (id: string) => string, complete = false): Promise<SearchResult> {
    const parsed = parseQuery(req.query);
    await this.start();
    if (this.failure || !this.db) throw new Error(this.failure ?? 'the search index is closed');
    // Lines journaled in the last moments are in the answer; a rebuild is not waited for.
    await this.settled(complete ? Infinity : this.building ? 0 : 1_000);
    const limit = req.limit ?? DEFAULT_SEARCH_LIMIT;
    const before = req.before === undefined ? undefined : Number(req.before);
    const raw = this.db.query(matchFor(parsed, req.team), req.team, before, limit + 1);
    const more = raw.length > limit;
    const page = raw.slice(0, limit);
    const hits = page.map((r) => toHit(r, teamName));
    const out: SearchResult = { hits, more, building: this.building };
    if (more) out.next = String(page.at(-1)!.rowid);
    if (this.building) out.progress = this.total > 0 ? Math.min(0.99, this.done / this.total) : 0;
    return out;
  }

  /** Messages in the index. */
  count(): number {
    return this.db?.count() ?? 0;
  }

  async stop(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.opened;
    await this.pumping;
    this.closeDb();
  }

  private closeDb(): void {
    try {
      this.db?.close();
    } catch {
      // the next open checks it
    }
    this.db = undefined;
  }
}

function toHit(r: RawHit, teamName: (id: string) => string): SearchHit {
  const h: SearchHit = {
    team: r.team,
    teamName: teamName(r.team),
    messageId: r.mid,
    time: r.time,
    direction: r.dir as SearchDirection,
    from: r.sender,
    to: r.recipient,
    snippet: snippetRanges(r.snip),
  };
  if (r.member) h.member = r.member;
  return h;
}
