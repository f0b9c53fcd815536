// How a message was presented to a member, and where a member's answer was found, in words.
// The rules mirror Claude Code's framing of inbox entries (docs/claude-contract.md#provenance,
// #user-answers): a non-reserved sender reaches a teammate as a teammate message and the lead
// wrapped as another Claude session's; on legacy teams `user` is the human; on current ones it is
// rated forged.
import type { AnswerSource, TeamEra } from '../../../shared/types';

export { isReservedSender, RESERVED_SENDERS } from '../../../shared/sender-name';
import { isReservedSender } from '../../../shared/sender-name';

export interface Presentation {
  /** The member it was written to. */
  member: string;
  /** The sender name written. */
  sentAs: string;
  isLead: boolean;
  era?: TeamEra;
}

/** The words beside a sent message: "as teamdeck". */
export function sentAsLabel(sentAs: string): string {
  return `as ${sentAs}`;
}

function modelSees(p: Presentation): string {
  if (p.era !== 'current') {
    return isReservedSender(p.sentAs) ? 'Claude shows it to the model as a message from you' : 'Claude shows it to the model as a teammate message';
  }
  if (isReservedSender(p.sentAs)) return 'Claude rates a reserved sender name as forged and tells the model it is unverified';
  return p.isLead
    ? 'Claude shows it to the lead’s model as a teammate message, wrapped as coming from another Claude session'
    : 'Claude shows it to the model as a teammate message';
}

/** Tooltip of a sent message: which inbox, under which name, and how the model is shown it. */
export function sentAsHint(p: Presentation): string {
  return `Written to ${p.member}’s inbox as ${p.sentAs}: ${modelSees(p)}.`;
}

/** How a message typed now will arrive, for the compose box. */
export function arrivalLabel(era: TeamEra, sendAs: string): string {
  if (era === 'current' && !isReservedSender(sendAs)) return `as ${sendAs}, a teammate message`;
  return `as ${sendAs}`;
}

export function arrivalHint(p: Presentation): string {
  return `Goes to ${p.member}’s inbox as ${p.sentAs}: ${modelSees(p)}.`;
}

// The mark is worded in shared/, where the exports use it too.
export { sourceLabel } from '../../../shared/message-words';

export function sourceHint(source: AnswerSource | undefined, member: string): string | undefined {
  switch (source) {
    case 'idle-notification':
      return `The final text ${member} reported when it went idle: the result of its idle notification to the lead.`;
    case 'transcript':
      return `Read from ${member}’s transcript: it addressed this to you, and no inbox carries it.`;
    case 'user-inbox':
      return `${member} sent this to user; found in the team’s user inbox.`;
    case 'socket':
      return `${member} answered Teamdeck’s messaging socket (SendMessage to its address), as one Claude session to another.`;
    default:
      return undefined;
  }
}
