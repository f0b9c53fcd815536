// Which conversation a message belongs to: the user's thread with one member, or the team's own
// traffic (shown in the feed only). One rule for the engine's threads and exports, the search
// index and the window. No Node, no DOM.
//
// A message is, as the user sees it:
//   you      the user wrote it, to `member` (through Teamdeck on any channel, or another tool);
//   member   `member` wrote it to the user: an answer (to the user's inbox, or found outside an
//            inbox, which its `source` says: a transcript, Teamdeck's socket, an idle notification);
//   context  `member`'s own protocol event (went idle, shutdown approved, plan asked for): Claude
//            addresses it to the lead, and the window shows it in the member's thread as context;
//            threads read by a program (the CLI, exports) and search keep it in the feed;
//   team     anything else: teammates' traffic.

/** The human's name in Claude's files (the legacy era's sender, and the stem of its mailbox). */
export const USER = 'user';

/**
 * Claude's inbox file stem for a member name: every character outside [a-zA-Z0-9_-] becomes
 * '-' (Claude Code's own rule; the engine's claude/paths.ts uses it for file names). Two names
 * with one stem share one inbox, so they are one member's.
 */
export function inboxFileStem(memberName: string): string {
  return memberName.replace(/[^a-zA-Z0-9_-]/g, '-');
}

/** The fields of a message the rule reads (a ThreadMessage has them all). */
export interface Addressed {
  from: string;
  to: string;
  /** On a message the user sent: the name Teamdeck wrote it under (`teamdeck`, `user`). */
  sentAs?: string;
  /** Where a member's answer was found outside an inbox. */
  source?: string;
  /** Set when the text is a protocol frame. */
  frame?: unknown;
}

export type ThreadPlace = { kind: 'you' | 'member' | 'context'; member: string } | { kind: 'team' };

/**
 * The user wrote it. On current teams the name written is Teamdeck's own (`sentAs`, e.g.
 * `teamdeck`), so `from` alone does not say it.
 */
export function isFromUser(m: Pick<Addressed, 'from' | 'sentAs'>): boolean {
  return m.from === USER || (m.sentAs !== undefined && m.from === m.sentAs);
}

/** Addressed to the user: legacy answers in the user's inbox, and answers found elsewhere (they carry a `source`). */
export function isToUser(m: Pick<Addressed, 'to' | 'source'>): boolean {
  return inboxFileStem(m.to) === USER || m.source !== undefined;
}

/**
 * The two ends of a message as the user reads them: the user is "you" on every path (the
 * window's feed and threads, the CLI, exports), never `user` on one and Teamdeck's sender name
 * on another.
 */
export function endsAsSeen(m: Pick<Addressed, 'from' | 'to' | 'sentAs' | 'source'>): { from: string; to: string } {
  return { from: isFromUser(m) ? YOU : m.from, to: isToUser(m) ? YOU : m.to };
}

/** What the user is called wherever a message's ends are shown. */
export const YOU = 'you';

/** Where the message belongs (see the top of this file). */
export function threadPlace(m: Addressed): ThreadPlace {
  if (isFromUser(m)) return { kind: 'you', member: m.to };
  if (isToUser(m)) return { kind: 'member', member: m.from };
  if (m.frame !== undefined) return { kind: 'context', member: m.from };
  return { kind: 'team' };
}

/** Two names for one member: the same name, or names Claude files in one inbox. */
export function sameMember(a: string, b: string): boolean {
  return a === b || inboxFileStem(a) === inboxFileStem(b);
}

/**
 * Whether the message is in the user's thread with `member`. `context`: the member's own protocol
 * events count too (the window's thread; not a thread read by a program, nor search).
 */
export function inThread(m: Addressed, member: string, opts: { context: boolean }): boolean {
  const place = threadPlace(m);
  if (place.kind === 'team' || (place.kind === 'context' && !opts.context)) return false;
  return sameMember(place.member, member);
}

/** A message that can make a member's unread badge grow: its words to the user, not protocol events. */
export function isUnreadCandidate(m: Addressed): boolean {
  return threadPlace(m).kind === 'member' && m.frame === undefined;
}
