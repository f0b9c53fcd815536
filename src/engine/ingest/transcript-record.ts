// The team's record from its members' transcripts (docs/claude-contract.md#record), merged into
// its history with what Teamdeck observed in inboxes and what it sent: each message once. Fed
// by the transcript poll's rows (the same read as receipts and activity: no second read), after
// receipts, so an answer tied to Teamdeck's sends keeps its `replyTo`.
//   - an id Claude gives (`msg_id`), a sent message's id, an answer's `tx-` id: never twice;
//   - a message read from its recipient's side, with no id of Claude's: matched by sender,
//     recipient and exact text against Teamdeck's sends and inbox entries (journal/record-keys.ts);
//     a match is journaled as a `dup`, so that a restart matches the same way.
// Teamdeck's journal stays the record of what it sent and of its delivery states: nothing here
// writes a delivery state.
import type { AppEvent } from '../../shared/contract.js';
import { senderFor } from '../claude/era.js';
import { RecordReader, type RecordMessage } from '../claude/transcript-record.js';
import type { Row } from '../claude/transcript-rows.js';
import { observedToThread } from '../history/views.js';
import type { JournalRecord, ObservedRecord } from '../journal/journal.js';
import { textKey } from '../journal/record-keys.js';
import type { Team } from '../team/team.js';

export interface RecordContext {
  now: () => number;
  emit: (e: AppEvent) => void;
  senderName: () => string;
}

/** Per open team, per agent: the reader of its transcript (the turn in progress, calls awaiting results). */
const readers = new WeakMap<Team, Map<string, RecordReader>>();

function readerOf(rt: Team, agent: string, ours: ReadonlySet<string>): RecordReader {
  let m = readers.get(rt);
  if (!m) readers.set(rt, (m = new Map()));
  let r = m.get(agent);
  if (!r) {
    const lead = rt.lead?.name ?? 'team-lead';
    // Whose sends are read on their own side: every agent whose transcript this team reads.
    const transcribed = (name: string) => name === lead || (rt.transcripts?.files().has(name) ?? false);
    m.set(agent, (r = new RecordReader({ agent, isLead: agent === lead, transcribed, ours })));
  }
  return r;
}

/** The names Teamdeck writes as on this team (its own, and any its journal sent under). */
export function oursOf(rt: Team, senderName: string): Set<string> {
  const ours = new Set([senderFor(rt.era, senderName)]);
  for (const s of rt.history.sent.values()) ours.add(s.from);
  // The user is Claude's name for the human, not one Teamdeck writes as on a current team.
  ours.delete('user');
  return ours;
}

/** The journal records for what the rows hold that the history does not (pure over the history's state). */
export function recordsFor(rt: Team, found: ReadonlyArray<{ agent: string; rows: Row[] }>, ours: ReadonlySet<string>, at: number): JournalRecord[] {
  const records: JournalRecord[] = [];
  const ids = new Set<string>();
  const keyed = new Map<number, number>();
  const known = (id: string) => ids.has(id) || rt.history.observed.has(id) || rt.history.sent.has(id) || rt.history.dups.has(id);
  for (const { agent, rows } of found) {
    for (const m of readerOf(rt, agent, ours).read(rows)) {
      if (known(m.id)) continue;
      ids.add(m.id);
      if (m.byText) {
        const key = textKey(m.from, m.to, m.text);
        const pending = keyed.get(key) ?? 0;
        keyed.set(key, pending + 1);
        if (rt.history.keys.isDuplicate(key, 'transcript', pending)) {
          records.push({ t: 'dup', id: m.id, to: m.to, at, key, side: 'transcript' });
          continue;
        }
      }
      records.push(observedOf(m, at));
    }
  }
  return records;
}

function observedOf(m: RecordMessage, at: number): ObservedRecord {
  const r: ObservedRecord = { t: 'observed', id: m.id, from: m.from, to: m.to, text: m.text, timestamp: m.timestamp, at, via: m.via };
  if (m.summary !== undefined) r.summary = m.summary;
  if (m.color !== undefined) r.color = m.color;
  if (m.sentAs !== undefined) r.sentAs = m.sentAs;
  if (m.byText) r.byText = true;
  // A member's answer to the user: found outside an inbox, in its transcript.
  if (m.answer) r.source = 'transcript';
  return r;
}

/**
 * Folds what the poll read into the team's history and tells the window of what is new (only
 * of rows read as they were written: a history being caught up on is read when asked for).
 */
export async function recordRows(ctx: RecordContext, rt: Team, found: ReadonlyArray<{ agent: string; rows: Row[]; live: boolean }>): Promise<number> {
  const records = recordsFor(rt, found, oursOf(rt, ctx.senderName()), ctx.now());
  if (records.length === 0) return 0;
  const durable = rt.history.stage(...records);
  const live = found.every((f) => f.live);
  let n = 0;
  for (const r of records) {
    if (r.t !== 'observed') continue;
    n++;
    const o = rt.history.observed.get(r.id)!;
    rt.facts.noteObserved(o, rt.era);
    if (live) ctx.emit({ type: 'message', team: rt.id, message: observedToThread(rt, o) });
  }
  await durable;
  // History caught up on is not pushed message by message; a window that already loaded this
  // team's feed or threads fetches them again (a demo or team that appeared while it was open).
  if (!live && n > 0) ctx.emit({ type: 'record', team: rt.id });
  return n;
}
