// Folding what an inbox holds now into the team's history: every message not seen before is
// journaled as `observed` (Claude prunes inboxes, the journal keeps them), and a sent message
// that its owner flagged or removed is `consumed` (shown as `taken`). Presence and answer
// facts follow from what was observed (team/facts.ts).
import type { TeamMessage } from '../../shared/types.js';
import { inboxFileStem } from '../claude/paths.js';
import type { JournalRecord, ObservedRecord } from '../journal/journal.js';
import { textKey } from '../journal/record-keys.js';
import type { Team } from '../team/team.js';

export interface InboxFold {
  records: JournalRecord[];
  /** The ids of the messages this read found for the first time. */
  fresh: string[];
}

/**
 * The journal records for one read of `owner`'s inbox. `from` is the first message not folded
 * in before (the file only grew by appends since); `readStartSeq` is the write sequence when
 * the read began: only a read that began after our write may judge a message gone.
 */
export function foldInbox(
  rt: Team,
  owner: string,
  messages: TeamMessage[],
  from: number,
  readStartSeq: number,
  at: number,
  /** The write sequence at which this process wrote a sent message into its inbox (0: not in this run). */
  writtenSeq: (id: string) => number,
): InboxFold {
  const records: JournalRecord[] = [];
  const fresh: string[] = [];
  const ownerStem = inboxFileStem(owner);
  // What this read finds is folded in by the caller (TeamHistory.stage): until then these say
  // what it already found (an inbox can hold an id twice).
  const consumed = new Set<string>();
  const observed = new Set<string>();
  // Per text key, entries of this read not folded in yet (record-keys.ts).
  const keyed = new Map<number, number>();
  for (let i = from; i < messages.length; i++) {
    const m = messages[i]!;
    const sent = rt.history.sent.get(m.id);
    if (sent) {
      if (m.read && sent.deliveredAt !== undefined && sent.consumedAt === undefined && !consumed.has(sent.id)) {
        consumed.add(sent.id);
        records.push({ t: 'consumed', id: sent.id, to: sent.to, at, how: 'flagged' });
      }
      continue;
    }
    if (rt.history.observed.has(m.id) || rt.history.dups.has(m.id) || observed.has(m.id)) continue;
    // Already read from a transcript, where it has no id (an `@name` line, an idle notification).
    const key = textKey(m.from, owner, m.text);
    const pending = keyed.get(key) ?? 0;
    keyed.set(key, pending + 1);
    if (rt.history.keys.isDuplicate(key, 'other', pending)) {
      observed.add(m.id);
      records.push({ t: 'dup', id: m.id, to: owner, at, key, side: 'other' });
      continue;
    }
    // The record alone: the history folds it into the message it keeps (a first read of a long
    // inbox makes one object per message fewer).
    const r: ObservedRecord = { t: 'observed', id: m.id, from: m.from, to: owner, text: m.text, timestamp: m.timestamp, at };
    if (m.summary !== undefined) r.summary = m.summary;
    if (m.color !== undefined) r.color = m.color;
    observed.add(r.id);
    records.push(r);
    fresh.push(r.id);
  }
  // A delivered message that is no longer in its inbox was consumed (pruned) by its owner.
  let present: Set<string> | undefined;
  for (const s of rt.history.sent.values()) {
    if (s.deliveredAt === undefined || s.consumedAt !== undefined || consumed.has(s.id) || inboxFileStem(s.to) !== ownerStem) continue;
    const seq = writtenSeq(s.id);
    if (seq > readStartSeq) continue;
    present ??= new Set(messages.map((m) => m.id));
    if (present.has(s.id)) continue;
    records.push({ t: 'consumed', id: s.id, to: s.to, at, how: 'pruned' });
  }
  return { records, fresh };
}
