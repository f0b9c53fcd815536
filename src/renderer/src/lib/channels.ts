// How a message reaches a member (docs/claude-contract.md#channels), in words: the compose box's
// channel choice and the mark on each sent message. Only the lead's own terminal carries the user's
// voice; an inbox message is a teammate's, the messaging socket another Claude session's.
import type { ChannelKind, ChannelOption } from '../../../shared/types';

/** The short words on the compose box's channel switch. */
export function channelShort(kind: ChannelKind, sendAs: string): string {
  switch (kind) {
    case 'terminal':
      return 'as you';
    case 'socket':
      return 'as another session';
    default:
      return `as ${sendAs}`;
  }
}

/** The channel a send uses: the user's choice while it is available, else the host's preferred one. */
export function pickChannel(options: readonly ChannelOption[] | undefined, choice: ChannelKind | undefined): ChannelOption | undefined {
  if (!options || options.length === 0) return undefined;
  const chosen = choice ? options.find((o) => o.kind === choice && o.available) : undefined;
  return chosen ?? options.find((o) => o.preferred) ?? options.find((o) => o.available) ?? options[0];
}

// The mark on each sent message is worded in shared/, where the exports use it too.
export { channelMark } from '../../../shared/message-words';

/** The tooltip of a terminal or socket message (an inbox message keeps its sender-name hint). */
export function channelHint(kind: ChannelKind | undefined, member: string, isLead: boolean): string | undefined {
  switch (kind) {
    case 'terminal':
      return isLead
        ? `Typed into ${member}’s terminal as your own turn: Claude treats it as you, the user.`
        : `Typed into the lead’s terminal as “@${member} …”: Claude writes it to ${member}’s inbox as you, the user.`;
    case 'socket':
      return `Sent over ${member}’s messaging socket: its model sees a message from another Claude session, never from you.`;
    default:
      return undefined;
  }
}

/**
 * What the channels of a member depend on, as one string: when it changes (the team's terminal
 * starts or exits, the roster changes, the team ends), the compose box asks the host again.
 */
export function channelInputs(p: {
  teamState?: string;
  leadReadsInbox?: boolean;
  terminal?: { id: string; state: string };
  roster?: readonly { name: string; state: string; isLead: boolean }[];
}): string {
  // Active and idle reach a member the same ways: only joining, leaving and shutting down count.
  const roster = (p.roster ?? []).map((r) => `${r.name}${r.state === 'terminated' ? ':gone' : ''}${r.isLead ? ':lead' : ''}`).join(',');
  const terminal = p.terminal ? `${p.terminal.id}:${p.terminal.state}` : '';
  return [p.teamState ?? '', p.leadReadsInbox ? 'reads' : '', terminal, roster].join('|');
}
