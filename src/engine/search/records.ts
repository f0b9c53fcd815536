// Which journal records become search rows, and what each row says: the text the user sees
// in a thread or the feed (a protocol frame as its words, an idle notification's result as its
// text), who wrote it, and which thread opens it.
import type { SearchDirection } from '../../shared/contract.js';
import { threadPlace, USER } from '../../shared/threads.js';
import { describeFrame, parseFrame } from '../claude/frames.js';
import type { ObservedWithText, SentState } from '../journal/journal.js';
import { wellFormed } from './query.js';

export interface IndexRow {
  team: string;
  /** The message id as the thread or feed shows it. */
  id: string;
  /** The member whose thread with the user shows it; '' for teammates' traffic (the feed). */
  member: string;
  direction: SearchDirection;
  from: string;
  to: string;
  /** ms since the epoch: the message's own timestamp, else when Teamdeck saw it. */
  time: number;
  text: string;
}

/** The two characters snippets mark matches with: never left in indexed text. */
export const MARK_OPEN = '\u0002';
export const MARK_CLOSE = '\u0003';
const MARKS = /[\u0002\u0003]/g;

function timeOf(timestamp: string, at: number): number {
  const t = Date.parse(timestamp);
  return Number.isFinite(t) ? t : at;
}

function clean(text: string): string {
  return wellFormed(text.replace(MARKS, ' '));
}

/** A message the user sent. */
export function sentRow(team: string, s: Pick<SentState, 'id' | 'to' | 'text' | 'summary' | 'timestamp' | 'queuedAt'>): IndexRow {
  return { team, id: s.id, member: s.to, direction: 'you', from: USER, to: s.to, time: timeOf(s.timestamp, s.queuedAt), text: clean(s.text) };
}

/** A message observed in an inbox, a transcript or the messaging socket; undefined when it has no words. */
export function observedRow(team: string, o: ObservedWithText): IndexRow | undefined {
  const time = timeOf(o.timestamp, o.at);
  const base = { team, id: o.id, from: o.from, to: o.to, time };
  // Search shows what a program reads: the user's words and answers in threads; everything
  // else, a member's own protocol events too, in the feed (shared/threads.ts).
  const place = threadPlace(o);
  if (place.kind === 'you') return { ...base, member: place.member, direction: 'you', text: clean(o.text) };
  if (place.kind === 'member') return { ...base, member: place.member, direction: 'member', text: clean(o.text) };
  const frame = parseFrame(o.text);
  let text = o.text;
  if (frame) {
    const result = frame.type === 'idle_notification' && typeof frame.fields.result === 'string' ? frame.fields.result : '';
    text = [describeFrame(frame), result].filter((x) => x.trim() !== '').join('\n');
  }
  if (text.trim() === '') return undefined;
  return { ...base, member: '', direction: 'team', text: clean(text) };
}
