// How a message went, in words: the channel a sent message took, why an undeliverable one never
// arrived, and where a member's answer was found. One wording for the window (the thread and
// feed marks) and the exports (history/export.ts). No Node, no DOM.
import type { AnswerSource, MessageVia, ThreadMessage } from './types.js';

/** What a sent message's row says about how it went: "typed as you", "as another session", "as teamdeck". */
export function channelMark(m: Pick<ThreadMessage, 'channel' | 'sentAs'>): string | undefined {
  switch (m.channel) {
    case 'terminal':
      return 'typed as you';
    case 'socket':
      return 'as another session';
    default:
      return m.sentAs ? `as ${m.sentAs}` : undefined;
  }
}

/** Why an undeliverable message never arrived, as the end of a sentence. */
export function undeliverableReason(member: string, reason?: string): string {
  const r = reason?.trim().replace(/[.\s]+$/, '');
  return r || `nothing can ever deliver it to ${member}`;
}

/** The subtle mark under a member's answer; nothing for the legacy user inbox, the usual path. */
export function sourceLabel(source: AnswerSource | undefined): string | undefined {
  switch (source) {
    case 'idle-notification':
      return 'from its idle notification';
    case 'transcript':
      return 'from its transcript';
    case 'socket':
      return 'over the messaging socket';
    default:
      return undefined;
  }
}

/**
 * How a message read from the members' transcripts travelled, in words (docs/claude-contract.md#record).
 * `sentAs`: the name a message of the user's was written under, for `teamdeck`.
 */
export function viaWords(via: MessageVia, sentAs?: string): string {
  switch (via) {
    case 'typed':
      return "typed in the lead's terminal";
    case 'at-name':
      return "an @name line typed in the lead's terminal";
    case 'answer':
      return 'the final text of its turn';
    case 'spawn':
      return 'the spawn prompt';
    case 'message':
      return 'a teammate message';
    case 'teamdeck':
      return `as ${sentAs ?? 'teamdeck'} via inbox`;
    case 'socket':
      return sentAs ? `as ${sentAs} via socket` : "on the session's messaging socket";
  }
}
