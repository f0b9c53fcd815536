// The search index: one SQLite file with an FTS5 table (node-sqlite3-wasm: SQLite compiled to
// WebAssembly, direct file access, no native build). A row's rowid is its time (ms) * 1024 plus
// a slot, so FTS5's own rowid order is newest first and a page is `rowid < cursor`. Beside the
// rows: which messages are in (team, id), and per team how far its journal was read.
import { chmodSync, closeSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database as DatabaseClass } from 'node-sqlite3-wasm';
import { wasmOnBaselineCompiler } from './v8-flags.js';
import { MARK_CLOSE, MARK_OPEN, type IndexRow } from './records.js';

type Db = DatabaseClass;
type Statement = ReturnType<Db['prepare']>;

let Database: typeof DatabaseClass | undefined;

/**
 * Loads SQLite (compiling its WebAssembly, about 1 MB) the first time the index is opened:
 * commands that never search never pay for it.
 *
 * Its code stays on V8's baseline WebAssembly compiler (wasmOnBaselineCompiler: 35-50 MB less
 * resident memory). A search then takes 2.1 ms p50 against 1.7 ms and 37 ms p99 against 27 ms
 * (240 FTS5 queries on a 1,000,000-message index, SQLite alone), and the first searches are
 * faster, with no recompiling. SQLite is the only WebAssembly the engine loads.
 */
async function sqlite(): Promise<typeof DatabaseClass> {
  if (!Database) {
    wasmOnBaselineCompiler();
    const mod = (await import('node-sqlite3-wasm')) as typeof import('node-sqlite3-wasm') & { default?: typeof import('node-sqlite3-wasm') };
    Database = (mod.default ?? mod).Database;
  }
  return Database;
}

/** Bump when the tables change: an index of another version is rebuilt. */
export const SCHEMA_VERSION = 3;
const SLOTS = 1024;
/** Times are clamped into what a rowid can hold exactly (a double's integers). */
const MAX_TIME = Math.floor(Number.MAX_SAFE_INTEGER / SLOTS) - 1;

/** Where a team's journal was read up to: segment number and byte offset (-1: not at all). */
export interface Watermark {
  seg: number;
  off: number;
}

export interface RawHit {
  rowid: number;
  team: string;
  member: string;
  dir: string;
  mid: string;
  sender: string;
  recipient: string;
  time: number;
  snip: string;
}

export class IndexDamagedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IndexDamagedError';
  }
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS progress(team TEXT PRIMARY KEY, seg INTEGER NOT NULL, off INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS ids(
  rid INTEGER PRIMARY KEY, team TEXT NOT NULL, mid TEXT NOT NULL,
  member TEXT NOT NULL, dir TEXT NOT NULL, sender TEXT NOT NULL, recipient TEXT NOT NULL, time INTEGER NOT NULL,
  UNIQUE(team, mid)
);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(text, team, tokenize = 'unicode61 remove_diacritics 2');`;

export class IndexDb {
  private insertId: Statement;
  private isIn: Statement;
  private insertRow: Statement;
  private lastSlot: Statement;
  private setMark: Statement;

  private constructor(
    readonly file: string,
    private db: Db,
  ) {
    // The message's facts beside its text: the FTS table holds only what is searched (text and
    // team), and each insert binds as few strings as it can (each is copied into WebAssembly).
    this.insertId = db.prepare('INSERT OR IGNORE INTO ids(rid, team, mid, member, dir, sender, recipient, time) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    this.isIn = db.prepare('SELECT rid FROM ids WHERE team = ? AND mid = ?');
    this.insertRow = db.prepare('INSERT INTO fts(rowid, text, team) VALUES (?, ?, ?)');
    // Asked of the ids table, never of the FTS table: a query there would flush the rows this
    // transaction has pending. `all`, not `get`: a statement left mid-step holds its read.
    this.lastSlot = db.prepare('SELECT max(rid) AS r FROM ids WHERE rid >= ? AND rid < ?');
    this.setMark = db.prepare('INSERT OR REPLACE INTO progress(team, seg, off) VALUES (?, ?, ?)');
  }

  /**
   * Opens the index, creating it when there is none (`created`). Throws IndexDamagedError when
   * the file is not a usable index of this version: the caller moves it aside and rebuilds.
   * `check`: run SQLite's quick_check (after an unclean shutdown).
   */
  static async open(file: string, opts: { check?: boolean } = {}): Promise<{ db: IndexDb; created: boolean; clean: boolean }> {
    const Database = await sqlite();
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    let created = false;
    try {
      statSync(file);
    } catch {
      created = true;
      closeSync(openSync(file, 'a', 0o600));
    }
    chmodSync(file, 0o600);
    // The library locks with a `<file>.lock` folder; one left by a process that died would
    // keep the index busy forever. Only the state dir's owner opens it, so it is stale.
    rmSync(`${file}.lock`, { recursive: true, force: true });
    let db: Db;
    try {
      db = new Database(file);
    } catch (e) {
      throw new IndexDamagedError(`cannot open the index: ${(e as Error).message}`);
    }
    try {
      db.exec('PRAGMA synchronous = NORMAL; PRAGMA cache_size = -16000;');
      const version = created ? undefined : IndexDb.version(db);
      if (!created && version !== SCHEMA_VERSION) throw new IndexDamagedError(`index version ${version ?? 'unknown'}, expected ${SCHEMA_VERSION}`);
      const clean = created || db.get("SELECT v FROM meta WHERE k = 'clean'")?.v === '1';
      if (!created && (opts.check || !clean)) {
        const r = db.all('PRAGMA quick_check') as { quick_check: string }[];
        if (r.length !== 1 || r[0]!.quick_check !== 'ok') throw new IndexDamagedError(`index damaged: ${r.map((x) => x.quick_check).slice(0, 3).join('; ')}`);
      }
      db.exec(SCHEMA);
      db.run("INSERT OR REPLACE INTO meta(k, v) VALUES ('version', ?), ('clean', '0')", [String(SCHEMA_VERSION)]);
      return { db: new IndexDb(file, db), created, clean };
    } catch (e) {
      try {
        db.close();
      } catch {
        // already unusable
      }
      if (e instanceof IndexDamagedError) throw e;
      throw new IndexDamagedError(`index unreadable: ${(e as Error).message}`);
    }
  }

  private static version(db: Db): number | undefined {
    try {
      const v = db.get("SELECT v FROM meta WHERE k = 'version'")?.v;
      return typeof v === 'string' ? Number(v) : undefined;
    } catch {
      return undefined;
    }
  }

  watermarks(): Map<string, Watermark> {
    const out = new Map<string, Watermark>();
    for (const r of this.db.all('SELECT team, seg, off FROM progress') as { team: string; seg: number; off: number }[]) out.set(r.team, { seg: r.seg, off: r.off });
    return out;
  }

  /** Adds rows (a message already in is skipped) and moves watermarks, in one transaction. Returns rows added. */
  add(rows: readonly IndexRow[], marks: ReadonlyMap<string, Watermark> = new Map()): number {
    let added = 0;
    this.db.exec('BEGIN');
    try {
      for (const r of rows) {
        const base = Math.max(0, Math.min(MAX_TIME, Math.floor(r.time))) * SLOTS;
        const facts = [r.team, r.id, r.member, r.direction, r.from, r.to, Math.floor(r.time)];
        let rowid = base;
        if (this.insertId.run([rowid, ...facts]).changes === 0) {
          // Already in (a snapshot read again), or another message has this millisecond's first slot.
          if (this.isIn.all([r.team, r.id]).length > 0) continue;
          const last = this.lastSlot.all([base, base + SLOTS])[0]?.r;
          // Every slot of that millisecond taken (over 1,024 messages in it): the next free rowid after it.
          rowid = typeof last === 'number' ? last + 1 : base;
          this.insertId.run([rowid, ...facts]);
        }
        this.insertRow.run([rowid, r.text, r.team]);
        added++;
      }
      for (const [team, m] of marks) this.setMark.run([team, m.seg, m.off]);
      this.db.exec('COMMIT');
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
    return added;
  }

  /** Newest first, below `before` (a rowid), at most `limit`. */
  query(match: string, team: string | undefined, before: number | undefined, limit: number): RawHit[] {
    const where = ['fts MATCH ?'];
    // Only the page's rows are looked up in ids (by rowid) for their facts.
    const params: (string | number)[] = [match];
    if (team !== undefined) {
      where.push('fts.team = ?');
      params.push(team);
    }
    if (before !== undefined) {
      where.push('fts.rowid < ?');
      params.push(before);
    }
    params.push(limit);
    const sql = `SELECT fts.rowid AS rowid, i.team, i.member, i.dir, i.mid, i.sender, i.recipient, i.time,
      snippet(fts, 0, '${MARK_OPEN}', '${MARK_CLOSE}', '…', 24) AS snip
      FROM fts JOIN ids AS i ON i.rid = fts.rowid WHERE ${where.join(' AND ')} ORDER BY fts.rowid DESC LIMIT ?`;
    return this.db.all(sql, params) as unknown as RawHit[];
  }

  meta(k: string): string | undefined {
    const v = this.db.get('SELECT v FROM meta WHERE k = ?', [k])?.v;
    return typeof v === 'string' ? v : undefined;
  }

  setMeta(k: string, v: string): void {
    this.db.run('INSERT OR REPLACE INTO meta(k, v) VALUES (?, ?)', [k, v]);
  }

  count(): number {
    return Number(this.db.get('SELECT count(*) AS n FROM ids')?.n ?? 0);
  }

  /** Marks the index closed cleanly (no check at the next open) and closes it. */
  close(): void {
    if (!this.db.isOpen) return;
    try {
      for (const st of [this.insertId, this.isIn, this.insertRow, this.lastSlot, this.setMark]) st.finalize();
      this.db.run("INSERT OR REPLACE INTO meta(k, v) VALUES ('clean', '1')");
    } finally {
      this.db.close();
    }
  }
}
