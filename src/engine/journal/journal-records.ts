// What a team's journal holds: its record types, the state they fold into (sent messages in
// send order, everything observed), and the rule for folding one record into that state. The
// journal's files, its appends, syncs and compaction are journal.ts; reading a text left on
// disk back is journal-texts.ts.
import { mayBeFrame } from '../claude/frames.js';
import { inboxFileStem, LEGACY_SENDER } from '../claude/paths.js';
import type { MessageVia } from '../../shared/types.js';
import { KeyCounts, textKey, type KeySide } from './record-keys.js';

export interface QueuedRecord {
  t: 'queued';
  id: string;
  to: string;
  /** The sender name written into the inbox: `user` (legacy era), Teamdeck's own name (current). */
  from: string;
  text: string;
  summary?: string;
  /** ISO-8601 timestamp written into the inbox entry. */
  timestamp: string;
  at: number;
  /** How it is delivered; absent = the member's inbox (every journal before channels). */
  channel?: 'terminal' | 'socket';
}
export interface DeliveredRecord {
  t: 'delivered';
  id: string;
  to: string;
  at: number;
  /** The inbox already held this id (recovery after a crash between write and journal). */
  duplicate?: boolean;
}
export interface ObservedRecord {
  t: 'observed';
  id: string;
  from: string;
  to: string;
  text: string;
  summary?: string;
  timestamp: string;
  color?: string;
  at: number;
  /** Set on a member's answer found outside an inbox: its transcript, or Teamdeck's messaging socket. */
  source?: 'transcript' | 'socket';
  /** The sent messages this answer's turn had in context (a transcript answer). */
  replyTo?: string[];
  /** Read from a transcript: how it travelled (docs/claude-contract.md#record). */
  via?: MessageVia;
  /** The user's words written under one of Teamdeck's names (`from` is that name). */
  sentAs?: string;
  /** Read from a transcript with no id of Claude's: matched to other sources by text (record-keys.ts). */
  byText?: true;
}
/**
 * A message already in the history under another id, seen once more (record-keys.ts): kept so
 * that the next match is made as this one was, never shown.
 */
export interface DupRecord {
  t: 'dup';
  id: string;
  to: string;
  at: number;
  key: number;
  side: KeySide;
}
export interface ConsumedRecord {
  t: 'consumed';
  id: string;
  to: string;
  at: number;
  how: 'flagged' | 'pruned';
}
/** The message is in the recipient's transcript: its model has it. */
export interface SeenRecord {
  t: 'seen';
  id: string;
  to: string;
  at: number;
}
/** No one can ever read the message (the team ended, the member shut down); nothing was written. */
export interface UndeliverableRecord {
  t: 'undeliverable';
  id: string;
  to: string;
  at: number;
  reason: string;
}
/**
 * The terminal channel is about to type the message. After a crash, a message with an attempt
 * and no delivery may already be in the lead's input: its transcript is checked before typing again.
 */
export interface AttemptRecord {
  t: 'attempt';
  id: string;
  to: string;
  at: number;
}
export type JournalRecord = QueuedRecord | DeliveredRecord | ObservedRecord | ConsumedRecord | SeenRecord | UndeliverableRecord | AttemptRecord | DupRecord;

export interface SentState {
  id: string;
  to: string;
  /** The sender name written (older journals: always `user`). */
  from: string;
  text: string;
  summary?: string;
  timestamp: string;
  queuedAt: number;
  deliveredAt?: number;
  consumedAt?: number;
  seenAt?: number;
  undeliverableAt?: number;
  reason?: string;
  /** Absent = inbox. */
  channel?: 'terminal' | 'socket';
  /** Terminal channel: when typing it was last begun (see AttemptRecord). */
  attemptedAt?: number;
}

/** Where a record's line is: its segment's number, and the line's byte offset and length in it. */
export interface LineRef {
  seg: number;
  off: number;
  len: number;
}

/**
 * An observed message as the engine holds it. Folded from a segment, a plain message between
 * members (no frame, not to or from the user, not an answer) keeps only `ref`: its text stays
 * in the journal and is read back for the few views that show it (the feed, an export).
 * Everything else keeps `text`: what the engine works out from texts (answers, asks, shutdowns,
 * frames) never needs one it does not hold.
 */
export type ObservedState = Omit<ObservedRecord, 't' | 'text'> & { text?: string; ref?: LineRef };

/** An observed message with its text, as it is found (an inbox, a transcript, the socket) and journaled. */
export type ObservedWithText = Omit<ObservedRecord, 't'>;

/**
 * The text of a message whose text the engine keeps (answers, frames, messages to or from the
 * user: see textMayStayOnDisk). Throws for one left in the journal: a view that shows such
 * texts reads them back first (readTexts).
 */
export function keptText(o: ObservedState): string {
  if (o.text === undefined) throw new Error(`message ${o.id}: its text is in the journal, not in memory`);
  return o.text;
}

/** Texts shorter than this stay in memory: the reference would cost about as much. */
export const TEXT_LEFT_ON_DISK_FROM = 64;

/**
 * Whether an observed record's text may stay in the journal only (see ObservedState): never for
 * what history/views.ts isAnswerCandidate would take as an answer, nor for a message from the
 * user (`from: "user"`, or the user's words written under one of Teamdeck's names: `sentAs`,
 * which a member's thread shows: shared/threads.ts isFromUser). The rules must change together
 * (this module cannot call those: they are a layer up).
 */
export function textMayStayOnDisk(r: Pick<ObservedRecord, 'from' | 'to' | 'text' | 'source' | 'sentAs'>): boolean {
  return r.text.length >= TEXT_LEFT_ON_DISK_FROM && r.source === undefined && r.from !== LEGACY_SENDER && r.sentAs === undefined && inboxFileStem(r.to) !== LEGACY_SENDER && !mayBeFrame(r.text);
}

/** The whole state a journal folds into. */
export interface FoldedState {
  /** Sent messages in journal (send) order. */
  sent: Map<string, SentState>;
  observed: Map<string, ObservedState>;
  records: number;
  /** Messages matched by text across sources (record-keys.ts). */
  keys: KeyCounts;
  /** Ids seen once more as another message's duplicate (DupRecord): never shown, never read again. */
  dups: Map<string, { key: number; side: KeySide }>;
}

export function emptyState(): FoldedState {
  return { sent: new Map(), observed: new Map(), records: 0, keys: new KeyCounts(), dups: new Map() };
}

/** The key a sent message is matched by: typed into the lead's terminal, it reads as the user's turn. */
export function sentKey(s: Pick<SentState, 'from' | 'to' | 'text' | 'channel'>): number {
  return textKey(s.channel === 'terminal' ? LEGACY_SENDER : s.from, s.to, s.text);
}

/** Which side of a match an observed message is on, if any: read by text from a transcript, or from an inbox. */
export function observedSide(r: Pick<ObservedRecord, 'source' | 'via' | 'byText'>): KeySide | undefined {
  if (r.byText) return 'transcript';
  return r.source === undefined && r.via === undefined ? 'other' : undefined;
}

/** Counts a folded message's key (a start from a snapshot counts again what the snapshot holds). */
export function countKey(state: FoldedState, r: { from: string; to: string; text: string } & Pick<ObservedRecord, 'source' | 'via' | 'byText'>): void {
  const side = observedSide(r);
  if (side) state.keys.add(textKey(r.from, r.to, r.text), side);
}

export class JournalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JournalError';
  }
}

export function isRecord(v: unknown): v is JournalRecord {
  if (!v || typeof v !== 'object') return false;
  const r = v as Record<string, unknown>;
  if (typeof r.id !== 'string' || typeof r.at !== 'number' || typeof r.to !== 'string') return false;
  switch (r.t) {
    case 'queued':
      return typeof r.from === 'string' && typeof r.text === 'string' && typeof r.timestamp === 'string';
    case 'seen':
    case 'attempt':
      return true;
    case 'undeliverable':
      return typeof r.reason === 'string';
    case 'delivered':
      return true;
    case 'observed':
      return typeof r.from === 'string' && typeof r.text === 'string' && typeof r.timestamp === 'string';
    case 'consumed':
      return r.how === 'flagged' || r.how === 'pruned';
    case 'dup':
      return typeof r.key === 'number' && (r.side === 'transcript' || r.side === 'other');
    default:
      return false;
  }
}

/**
 * Applies one record. Impossible histories fail closed: a delivery or receipt for a message
 * never queued, to another target, or a message queued twice means the journal is not ours
 * or was damaged, and guessing would risk a lost or doubled message. `ref`: where the record's
 * line is, when it came from a segment (an observed text may then stay there).
 */
export function applyRecord(state: FoldedState, r: JournalRecord, where: string, ref?: LineRef): void {
  state.records++;
  switch (r.t) {
    case 'queued': {
      if (state.sent.has(r.id)) throw new JournalError(`${where}: message ${r.id} is queued twice`);
      const s: SentState = { id: r.id, to: r.to, from: r.from, text: r.text, timestamp: r.timestamp, queuedAt: r.at };
      if (r.summary !== undefined) s.summary = r.summary;
      if (r.channel === 'terminal' || r.channel === 'socket') s.channel = r.channel;
      state.sent.set(r.id, s);
      state.keys.add(sentKey(s), 'other');
      return;
    }
    case 'delivered': {
      const s = state.sent.get(r.id);
      if (!s) throw new JournalError(`${where}: delivery of ${r.id} before it was queued`);
      if (s.to !== r.to) throw new JournalError(`${where}: ${r.id} queued for ${s.to} but delivered to ${r.to}`);
      if (s.undeliverableAt !== undefined) throw new JournalError(`${where}: ${r.id} delivered after it was found undeliverable`);
      if (s.deliveredAt === undefined) s.deliveredAt = r.at;
      return;
    }
    case 'consumed': {
      const s = state.sent.get(r.id);
      if (!s) throw new JournalError(`${where}: receipt for ${r.id}, which was never queued`);
      if (s.to !== r.to) throw new JournalError(`${where}: receipt for ${r.id} from ${r.to}, but it was sent to ${s.to}`);
      if (s.deliveredAt === undefined) throw new JournalError(`${where}: ${r.id} read before it was delivered`);
      if (s.consumedAt === undefined) s.consumedAt = r.at;
      return;
    }
    case 'attempt': {
      const s = state.sent.get(r.id);
      if (!s) throw new JournalError(`${where}: ${r.id} attempted, but it was never queued`);
      s.attemptedAt = r.at;
      return;
    }
    case 'seen': {
      const s = state.sent.get(r.id);
      if (!s) throw new JournalError(`${where}: ${r.id} seen, but it was never queued`);
      if (s.to !== r.to) throw new JournalError(`${where}: ${r.id} seen by ${r.to}, but it was sent to ${s.to}`);
      if (s.deliveredAt === undefined) throw new JournalError(`${where}: ${r.id} seen before it was delivered`);
      if (s.seenAt === undefined) s.seenAt = r.at;
      return;
    }
    case 'undeliverable': {
      const s = state.sent.get(r.id);
      if (!s) throw new JournalError(`${where}: ${r.id} undeliverable, but it was never queued`);
      if (s.to !== r.to) throw new JournalError(`${where}: ${r.id} undeliverable to ${r.to}, but it was sent to ${s.to}`);
      if (s.deliveredAt !== undefined) throw new JournalError(`${where}: ${r.id} undeliverable after it was delivered`);
      if (s.undeliverableAt === undefined) {
        s.undeliverableAt = r.at;
        s.reason = r.reason;
      }
      return;
    }
    case 'dup': {
      if (!state.dups.has(r.id)) {
        state.dups.set(r.id, { key: r.key, side: r.side });
        state.keys.add(r.key, r.side);
      }
      return;
    }
    case 'observed': {
      if (!state.observed.has(r.id)) {
        countKey(state, r);
        // Every field set (undefined where the record has none): the messages folded from a
        // journal, most of a history, share one shape, with no property store of their own.
        const onDisk = ref !== undefined && textMayStayOnDisk(r);
        state.observed.set(r.id, {
          id: r.id,
          from: r.from,
          to: r.to,
          text: onDisk ? undefined : r.text,
          ref: onDisk ? ref : undefined,
          summary: r.summary,
          timestamp: r.timestamp,
          color: r.color,
          at: r.at,
          source: r.source,
          replyTo: r.replyTo,
          via: r.via,
          sentAs: r.sentAs,
          byText: r.byText,
        });
      }
      return;
    }
  }
}
