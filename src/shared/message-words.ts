// How a message went, in words: the channel a sent message took, why an undeliverable one never
// arrived, and where a member's answer was found. One wording for the window (the thread and
// feed marks) and the exports (history/export.ts). No Node, no DOM.
import type { AnswerSource, ThreadMessage } from './types.js';

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
