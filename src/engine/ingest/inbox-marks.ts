// Which inboxes a team's journal already holds exactly as they are, so that a start need not
// read them again: `<state>/journal/<team>/inbox-marks.json`, written when the engine stops.
//
// A start used to read and fold every inbox of every running team, although the journal
// already held all of it: with 20 teams of 5,000 messages that was more than half of each
// team's opening (a JSON parse, an id and a frame parse per message). A mark says: the inbox
// looked like this (inode, size, mtime, ctime) when it was last read, and everything that read
// found is in the journal as it ends here (its segment and that segment's size). At the next
// start, a team whose journal ends at the same place skips each inbox that still looks the same.
// Anything else (a crash before the marks were written, an inbox changed, a journal that
// grew, was compacted or repaired, a marks file that is missing or unreadable) reads in full,
// as before: the marks can only save work, never change what is folded.
//
// A read that began less than RACY_MS after the file's last change is not marked: a write in
// the same tick of the file clock, of the same size, would leave it looking the same (git's
// "racily clean" entries, for the same reason).
import { join } from 'node:path';
import type { InboxLooks } from '../claude/inbox-read.js';
import { writeFileAtomic } from '../files/atomic-write.js';
import type { JournalPosition } from '../journal/journal.js';
import { readBounded } from '../files/read-whole.js';

export const INBOX_MARKS_FILE = 'inbox-marks.json';
/** A file changed this recently before its read began is read again at the next start. */
export const RACY_MS = 2_000;
/** A marks file larger than this is not read (a team has a few dozen inboxes at most). */
const MAX_MARKS_BYTES = 1 << 20;

/** One inbox as last read, and what that read found (for the problems a read reports). */
export interface InboxMark extends InboxLooks {
  messages: number;
  invalidEntries: number;
}

interface MarksFile {
  v: 1;
  /** Where the journal ended when the marks were written. */
  journal: JournalPosition;
  inboxes: Record<string, InboxMark>;
}

/** The mark for a read whose file looked like `looks` just before it, begun at `readAt` (wall clock); undefined when it must not be marked. */
export function markOf(looks: InboxLooks, size: number, messages: number, invalidEntries: number, readAt: number): InboxMark | undefined {
  // The bytes read are not the size the lstat saw: the file changed while it was read.
  if (size !== looks.size || size === 0) return undefined;
  if (!(readAt - Math.max(looks.mtimeMs, looks.ctimeMs) >= RACY_MS)) return undefined;
  return { ...looks, messages, invalidEntries };
}

/** Whether `looks` (an lstat now) is the file `mark` was read from, unchanged. */
export function sameLooks(mark: InboxLooks, looks: InboxLooks): boolean {
  return mark.ino === looks.ino && mark.size === looks.size && mark.mtimeMs === looks.mtimeMs && mark.ctimeMs === looks.ctimeMs;
}

export async function writeInboxMarks(journalDir: string, at: JournalPosition, marks: ReadonlyMap<string, InboxMark>): Promise<void> {
  const file: MarksFile = { v: 1, journal: at, inboxes: Object.fromEntries(marks) };
  // No fsync: a marks file lost or torn by a power loss is only read as none.
  await writeFileAtomic(join(journalDir, INBOX_MARKS_FILE), JSON.stringify(file), { fsync: false });
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function isMark(v: unknown): v is InboxMark {
  if (!v || typeof v !== 'object') return false;
  const m = v as Record<string, unknown>;
  return isCount(m.ino) && isCount(m.size) && isTime(m.mtimeMs) && isTime(m.ctimeMs) && isCount(m.messages) && isCount(m.invalidEntries);
}

/**
 * The marks written for a journal that ends at `at`, or undefined when there are none, they are
 * unreadable, or the journal no longer ends where it did then.
 */
export async function readInboxMarks(journalDir: string, at: JournalPosition): Promise<Map<string, InboxMark> | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse((await readBounded(join(journalDir, INBOX_MARKS_FILE), MAX_MARKS_BYTES)).toString('utf8'));
  } catch {
    return undefined;
  }
  const f = parsed as Partial<MarksFile> | null;
  if (!f || f.v !== 1 || !f.journal || !f.inboxes || typeof f.inboxes !== 'object') return undefined;
  if (f.journal.segment !== at.segment || f.journal.bytes !== at.bytes) return undefined;
  const out = new Map<string, InboxMark>();
  for (const [owner, m] of Object.entries(f.inboxes)) if (isMark(m)) out.set(owner, m);
  return out;
}
