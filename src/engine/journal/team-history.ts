// One team's history: its journal and what the journal folds into (the messages Teamdeck sent,
// with their delivery states, and everything it observed). The only writer of that state: every
// change is a journal record, folded by the one rule (applyRecord) that folds the journal at a
// start, so what the engine holds while it runs is what a restart would read back.
import type { ObservedState, SentState } from './journal-records.js';
import { applyRecord, type FoldedState, type JournalRecord } from './journal-records.js';
import { Journal, type JournalOptions, type JournalPosition } from './journal.js';
import type { KeyCounts } from './record-keys.js';

export class TeamHistory {
  private constructor(
    private readonly journal: Journal,
    private readonly state: FoldedState,
  ) {}

  /** Opens (creating if needed) the journal in `dir` and folds it; `tornBytes`: cut from a torn last line. */
  static async open(dir: string, opts: JournalOptions = {}): Promise<{ history: TeamHistory; tornBytes: number }> {
    const opened = await Journal.open(dir, opts);
    return { history: new TeamHistory(opened.journal, opened.state), tornBytes: opened.tornBytes };
  }

  /** The journal's folder (the team's folder in the state dir). */
  get dir(): string {
    return this.journal.dir;
  }

  /** Sent messages in send order. */
  get sent(): ReadonlyMap<string, Readonly<SentState>> {
    return this.state.sent;
  }

  get observed(): ReadonlyMap<string, Readonly<ObservedState>> {
    return this.state.observed;
  }

  /** Messages matched by text across sources (record-keys.ts). */
  get keys(): Readonly<KeyCounts> {
    return this.state.keys;
  }

  /** Ids journaled as another message's duplicate: never shown. */
  get dups(): ReadonlyMap<string, unknown> {
    return this.state.dups;
  }

  /** Records folded, snapshot included. */
  get records(): number {
    return this.state.records;
  }

  /** Records in the journal's current segment, to decide when to compact. */
  get segmentRecords(): number {
    return this.journal.segmentRecords;
  }

  /** Journals the records and, once they are on disk, folds them in. */
  async commit(...records: JournalRecord[]): Promise<void> {
    await this.journal.append(...records);
    this.fold(records);
  }

  /**
   * Journals the records and folds them in once they are written, before their fdatasync (see
   * Journal.appendWritten): for a record whose loss with the machine an earlier durable one covers.
   */
  async commitWritten(...records: JournalRecord[]): Promise<void> {
    await this.journal.appendWritten(...records);
    this.fold(records);
  }

  /**
   * Folds what was just read (an inbox, a transcript) in now, so that a read that runs meanwhile
   * takes it as known, then journals it; resolves once it is on disk.
   */
  stage(...records: JournalRecord[]): Promise<void> {
    this.fold(records);
    return this.journal.append(...records);
  }

  private fold(records: JournalRecord[]): void {
    for (const r of records) applyRecord(this.state, r, this.journal.dir);
  }

  /** Folds the history into a snapshot and starts a new segment (Journal.compact). */
  compact(): Promise<void> {
    return this.journal.compact(this.state);
  }

  /** Where the journal ends now (call drain() first for a position that includes every append). */
  position(): Promise<JournalPosition> {
    return this.journal.position();
  }

  /** Waits until everything appended so far is on disk. */
  drain(): Promise<void> {
    return this.journal.drain();
  }

  close(): Promise<void> {
    return this.journal.close();
  }
}
