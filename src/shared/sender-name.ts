// The rules for the sender name Teamdeck writes on current-era teams, in one place for the
// engine, the hosts' validation and the Settings dialog (no zod, no Node: the renderer uses it).

/** Sender names Claude Code reserves: an unsigned entry from one of them is rated forged (any case). */
export const RESERVED_SENDERS = ['user', 'team-lead', 'system'] as const;

export const DEFAULT_SENDER_NAME = 'teamdeck';
export const MAX_SENDER_NAME = 64;
export const SENDER_NAME_CHARS = /^[A-Za-z0-9_-]+$/;

export type SenderNameIssue = 'empty' | 'reserved' | 'too-long' | 'characters';

export function isReservedSender(name: string): boolean {
  return (RESERVED_SENDERS as readonly string[]).includes(name.trim().toLowerCase());
}

/**
 * A name Teamdeck writes as: the one set now, or the default any other Teamdeck writes as. Such
 * a name is the user writing through Teamdeck, never a member (names are compared as Claude
 * files them: every character outside [A-Za-z0-9_-] as '-').
 */
export function isTeamdeckName(name: string, current: string = DEFAULT_SENDER_NAME): boolean {
  const stem = (s: string) => s.replace(/[^a-zA-Z0-9_-]/g, '-');
  return stem(name) === stem(current) || stem(name) === DEFAULT_SENDER_NAME;
}

/** What is wrong with a sender name, or undefined when it can be used. */
export function senderNameIssue(name: string): SenderNameIssue | undefined {
  if (name.length === 0) return 'empty';
  if (isReservedSender(name)) return 'reserved';
  if (name.length > MAX_SENDER_NAME) return 'too-long';
  if (!SENDER_NAME_CHARS.test(name)) return 'characters';
  return undefined;
}
