// What a team's history says about its members, folded in as each message is observed so that
// no view re-reads the history: when each member last did anything, who approved its own
// shutdown, which messages the user's answers name, whose transcript Teamdeck reads, and the
// observed messages that may be a member's answer to the user (history/views.ts decides which
// are). Only the methods here write these facts.
import type { TeamEra } from '../../shared/types.js';
import { LEGACY_SENDER } from '../claude/era.js';
import { isShutdownApproval, parseFrame } from '../claude/frames.js';
import { inboxFileStem } from '../claude/paths.js';
import type { ObservedState } from '../journal/journal.js';
import { TeamAsks } from './asks.js';

/** The `result` of an idle notification (current era): the final text of the member's turn. */
export function idleResult(o: ObservedState): string | undefined {
  // (A text left in the journal is never a frame: see textMayStayOnDisk.)
  const text = o.text;
  if (text === undefined || !text.includes('idle_notification') || !text.includes('"result"')) return undefined;
  const f = parseFrame(text);
  const r = f?.type === 'idle_notification' ? f.fields.result : undefined;
  return typeof r === 'string' && r.trim() !== '' ? r : undefined;
}

/**
 * Whether an observed message may be a member's answer to Teamdeck (indexed per member as it is
 * seen). Its text must be in memory: textMayStayOnDisk (journal/journal-records.ts) keeps every
 * such text, and the two rules must change together.
 */
export function isAnswerCandidate(o: ObservedState): boolean {
  return o.source === 'transcript' || o.source === 'socket' || inboxFileStem(o.to) === LEGACY_SENDER || idleResult(o) !== undefined;
}

export class TeamFacts {
  /** Last time each member did anything (ms). */
  private readonly lastEvent = new Map<string, number>();
  /** Members that approved their own shutdown. */
  private readonly terminated = new Set<string>();
  /** Per member, what it said that may be an answer to Teamdeck (see views.answersOf). */
  private readonly candidates = new Map<string, ObservedState[]>();
  /** Sent messages a transcript answer names in its `replyTo`: replied, for certain. */
  private readonly replied = new Set<string>();
  /** Members whose transcript Teamdeck reads: their answers come from it, not from idle notifications. */
  private readonly transcribed = new Set<string>();
  /** Latest message time from each member to the user (legacy `user.json`), for `replied`. */
  private readonly lastReply = new Map<string, number>();
  /** Plan approval and permission asks to the lead not answered yet. */
  readonly asks = new TeamAsks();

  lastEventOf(member: string): number | undefined {
    return this.lastEvent.get(member);
  }

  hasShutDown(member: string): boolean {
    return this.terminated.has(member);
  }

  answerCandidatesOf(member: string): readonly ObservedState[] | undefined {
    return this.candidates.get(member);
  }

  isReplied(sentId: string): boolean {
    return this.replied.has(sentId);
  }

  isTranscribed(member: string): boolean {
    return this.transcribed.has(member);
  }

  lastReplyOf(member: string): number | undefined {
    return this.lastReply.get(member);
  }

  /** The member did something at `time` (ms); true when that is its latest. */
  noteEvent(member: string, time: number): boolean {
    const prev = this.lastEvent.get(member);
    if (prev === undefined || time > prev) {
      this.lastEvent.set(member, time);
      return true;
    }
    return false;
  }

  /** Teamdeck reads this member's transcript: its answers come from there. */
  noteTranscribed(member: string): void {
    this.transcribed.add(member);
  }

  /** Folds one observed message in; true when a roster-visible fact changed. */
  noteObserved(o: ObservedState, era: TeamEra): boolean {
    if (o.from === LEGACY_SENDER && era === 'legacy') return false;
    const time = Date.parse(o.timestamp) || o.at;
    let changed = this.noteEvent(o.from, time);
    if (inboxFileStem(o.to) === LEGACY_SENDER) {
      const prev = this.lastReply.get(o.from) ?? 0;
      if (time > prev) this.lastReply.set(o.from, time);
    }
    for (const id of o.replyTo ?? []) this.replied.add(id);
    this.asks.note(o);
    if (o.source === 'transcript' && (o.replyTo || o.via)) this.transcribed.add(o.from);
    if (isAnswerCandidate(o)) {
      let list = this.candidates.get(o.from);
      if (!list) this.candidates.set(o.from, (list = []));
      list.push(o);
    }
    // Only a shutdown approval matters here, and its text names it (unless escaped): the other
    // frames (most of a team's traffic) need not be parsed again at every start.
    // (A text left in the journal is never a frame: see textMayStayOnDisk.)
    const text = o.text ?? '';
    const frame = text.includes('shutdown_') || text.includes('\\u') ? parseFrame(text) : undefined;
    if (isShutdownApproval(frame) && !this.terminated.has(o.from)) {
      this.terminated.add(o.from);
      changed = true;
    }
    return changed;
  }
}
