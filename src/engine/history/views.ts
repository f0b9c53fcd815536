// What the user sees of a team's history: delivery states of sent messages, members' answers
// found per era, and threads and feeds built from the journal's folded state.
import { inThread, isFromUser, USER } from '../../shared/threads.js';
import type { AnswerSource, DeliveryStatus, ThreadMessage } from '../../shared/types.js';
import { LEGACY_SENDER } from '../claude/era.js';
import { parseFrame } from '../claude/frames.js';
import { inboxFileStem } from '../claude/paths.js';
import { keptText, type ObservedState, type SentState } from '../journal/journal.js';
import { idleResult, isAnswerCandidate } from '../team/facts.js';
import type { Team } from '../team/team.js';

/** An idle notification's `result` counts as an answer to a message taken up to this long after it was observed. */
const TAKEN_SLACK_MS = 5_000;

export interface Answer {
  id: string;
  member: string;
  text: string;
  /** When the member answered (ms). */
  time: number;
  source: AnswerSource;
  observed: ObservedState;
}

function observedTime(o: ObservedState): number {
  const t = Date.parse(o.timestamp);
  return Number.isFinite(t) ? t : o.at;
}

/**
 * A member's answers to Teamdeck, oldest first:
 * - legacy: what it sent to `inboxes/user.json`;
 * - current: the last text of each turn that had Teamdeck's messages in context, and what it
 *   tried to send to Teamdeck's name or to `user` (both from its transcript); for a member whose
 *   transcript cannot be read, the `result` of an idle notification that ended a turn after it
 *   took a message from Teamdeck (dropped when the same text already came from a transcript).
 */
export function answersOf(rt: Team, member: string): Answer[] {
  const out: Answer[] = [];
  const candidates = rt.facts.answerCandidatesOf(member);
  if (!candidates) return out;
  const sent = [...rt.history.sent.values()].filter((s) => s.to === member && s.deliveredAt !== undefined);
  const texts = new Set<string>();
  const idle: Answer[] = [];
  for (const o of candidates) {
    if (o.source === 'transcript' || o.source === 'socket') {
      out.push({ id: o.id, member, text: keptText(o), time: observedTime(o), source: o.source, observed: o });
      texts.add(keptText(o).trim());
    } else if (rt.era === 'legacy') {
      if (inboxFileStem(o.to) === LEGACY_SENDER) out.push({ id: o.id, member, text: keptText(o), time: observedTime(o), source: 'user-inbox', observed: o });
    } else if (!rt.facts.isTranscribed(member)) {
      // Only for a member whose transcript Teamdeck cannot read: an idle notification ends a
      // turn but does not say which messages the turn had (Claude takes waiting mail, then
      // writes the idle notification of the turn that just ended), so this is a best guess.
      const result = idleResult(o);
      if (result === undefined) continue;
      const time = observedTime(o);
      const answers = sent.some((s) => Date.parse(s.timestamp) < time && s.deliveredAt! <= o.at && (s.consumedAt ?? s.seenAt ?? Infinity) <= o.at + TAKEN_SLACK_MS);
      if (answers) idle.push({ id: `${o.id}:result`, member, text: result, time, source: 'idle-notification', observed: o });
    }
  }
  for (const a of idle) if (!texts.has(a.text.trim())) out.push(a);
  return out.sort((a, b) => a.time - b.time);
}

/** Time of the member's latest answer, for `replied`. */
export function latestAnswerAt(rt: Team, member: string): number | undefined {
  if (rt.era === 'legacy') return rt.facts.lastReplyOf(member);
  return answersOf(rt, member).at(-1)?.time;
}

/** latestAnswerAt, computed once per member for a whole list. */
export function answerClock(rt: Team): (member: string) => number | undefined {
  const memo = new Map<string, number | undefined>();
  return (member) => {
    if (!memo.has(member)) memo.set(member, latestAnswerAt(rt, member));
    return memo.get(member);
  };
}

export function statusOf(rt: Team, s: SentState, lastAnswer = latestAnswerAt(rt, s.to)): DeliveryStatus {
  if (s.undeliverableAt !== undefined) return 'undeliverable';
  if (s.deliveredAt === undefined) return 'queued';
  // Tied to the answer (by its transcript turn, or by the lead's socket reply): replied, even
  // before its taking or its transcript row is seen (a socket reply can come first).
  if (rt.facts.isReplied(s.id)) return 'replied';
  if (s.consumedAt === undefined && s.seenAt === undefined) return 'accepted';
  // Else (legacy, or no transcript) any answer after it.
  if (!rt.facts.isTranscribed(s.to) && lastAnswer !== undefined && lastAnswer > Date.parse(s.timestamp)) return 'replied';
  return s.seenAt !== undefined ? 'seen' : 'taken';
}

/** `text`: the message's text when it was read back from the journal (readTexts). */
export function observedToThread(rt: Team, o: ObservedState, text?: string): ThreadMessage {
  const m: ThreadMessage = {
    id: o.id,
    team: rt.id,
    from: o.from,
    to: o.to,
    text: text ?? keptText(o),
    timestamp: o.timestamp,
    time: observedTime(o),
    read: false,
  };
  if (o.summary !== undefined) m.summary = o.summary;
  if (o.color !== undefined) m.color = o.color;
  if (o.source) m.source = o.source;
  if (o.via) m.via = o.via;
  if (o.sentAs !== undefined) m.sentAs = o.sentAs;
  const frame = o.source ? undefined : parseFrame(m.text);
  if (frame) m.frame = frame;
  return m;
}

function answerToThread(rt: Team, a: Answer): ThreadMessage {
  const base = observedToThread(rt, a.observed);
  if (a.source === 'idle-notification') {
    // The answer is the frame's `result`, shown as the member's own message.
    const { frame: _frame, summary: _summary, ...rest } = base;
    return { ...rest, id: a.id, text: a.text, source: a.source };
  }
  return { ...base, source: a.source };
}

/** The answer an observed message carries, as the member's thread shows it, if it is one. */
export function answerFor(rt: Team, o: ObservedState): ThreadMessage | undefined {
  if (!isAnswerCandidate(o)) return undefined;
  const a = answersOf(rt, o.from).find((x) => x.observed === o);
  return a ? answerToThread(rt, a) : undefined;
}

/** What deliveries know of a sent message beside its journal (delivery/deliveries.ts notesOf). */
export interface SentNotes {
  /** Why it waits, while it is queued. */
  waitReason(id: string): string | undefined;
  /** What Claude last said of it on its messaging socket (held, released, declined...). */
  peerNote(id: string): string | undefined;
}

export function sentToThread(rt: Team, s: SentState, notes: SentNotes, lastAnswer?: number): ThreadMessage {
  const status = statusOf(rt, s, lastAnswer ?? latestAnswerAt(rt, s.to));
  const m: ThreadMessage = {
    id: s.id,
    team: rt.id,
    // The human is the author, whatever name was written into the inbox (`sentAs`).
    from: LEGACY_SENDER,
    to: s.to,
    text: s.text,
    timestamp: s.timestamp,
    time: Date.parse(s.timestamp),
    read: s.consumedAt !== undefined,
    status,
    sentAs: s.from,
  };
  if (s.summary !== undefined) m.summary = s.summary;
  if (s.channel) m.channel = s.channel;
  const reason = status === 'undeliverable' ? s.reason : status === 'queued' ? notes.waitReason(s.id) : notes.peerNote(s.id);
  if (reason) m.reason = reason;
  return m;
}

/**
 * The user's thread with one member, as a program reads it (shared/threads.ts, without the
 * member's protocol events): its answers (answersOf), and the user's words to it: what Teamdeck
 * sent, and on a legacy team what another tool wrote from `user` into its inbox.
 */
export function threadOf(rt: Team, member: string, notes: SentNotes): ThreadMessage[] {
  const out: ThreadMessage[] = [];
  const answers = answersOf(rt, member);
  for (const a of answers) out.push(answerToThread(rt, a));
  const mine = (m: { from: string; to: string }) => isFromUser(m) && inThread(m, member, { context: false });
  // Messages from the user written by someone else (another tool, an older Teamdeck) on a
  // legacy team; and on any, the user's words read from transcripts (typed in the lead's
  // terminal, an `@name` line, sent as Teamdeck by a Teamdeck that did not journal them).
  for (const o of rt.history.observed.values()) if ((rt.era === 'legacy' || o.via !== undefined) && mine(o)) out.push(observedToThread(rt, o));
  const last = answers.at(-1)?.time ?? (rt.era === 'legacy' ? rt.facts.lastReplyOf(member) : undefined);
  for (const s of rt.history.sent.values()) if (mine({ from: USER, to: s.to })) out.push(sentToThread(rt, s, notes, last));
  return sortByTime(out);
}

/**
 * Everything the team said, and everything sent to it. `texts`: the texts left in the journal,
 * read back (readTexts over the team's observed messages).
 */
export function feedOf(rt: Team, texts: ReadonlyMap<ObservedState, string>, notes: SentNotes): ThreadMessage[] {
  const out: ThreadMessage[] = [...rt.history.observed.values()].map((o) => observedToThread(rt, o, o.text ?? texts.get(o)));
  const clock = answerClock(rt);
  for (const s of rt.history.sent.values()) out.push(sentToThread(rt, s, notes, clock(s.to)));
  return sortByTime(out);
}

export function sortByTime<T extends { time: number }>(list: T[]): T[] {
  // Stable: messages with the same time keep journal order.
  return list.map((m, i) => [m, i] as const).sort((a, b) => a[0].time - b[0].time || a[1] - b[1]).map(([m]) => m);
}
