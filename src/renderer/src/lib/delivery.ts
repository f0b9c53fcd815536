import { DELIVERY_STATUSES, type DeliveryStatus } from '../../../shared/types';
import { undeliverableReason } from '../../../shared/message-words';

// Worded in shared/, where the exports use it too.
export { undeliverableReason };

/**
 * The order a message moves through. `undeliverable` ranks above everything: once the host has
 * said no one can ever read a message, no late or repeated event brings it back.
 */
const RANK: Record<DeliveryStatus, number> = { queued: 0, accepted: 1, taken: 2, seen: 3, replied: 4, undeliverable: 5 };

export function isDeliveryStatus(v: unknown): v is DeliveryStatus {
  return typeof v === 'string' && (DELIVERY_STATUSES as readonly string[]).includes(v);
}

/**
 * Delivery only moves forward: a late or repeated event never takes a message back, and
 * `undeliverable` is final. A value this build does not know (an older or newer host) is
 * ignored rather than allowed to replace a known state.
 */
export function laterStatus(a: DeliveryStatus | undefined, b: DeliveryStatus | undefined): DeliveryStatus | undefined {
  const ka = isDeliveryStatus(a) ? a : undefined;
  const kb = isDeliveryStatus(b) ? b : undefined;
  if (!ka) return kb;
  if (!kb) return ka;
  return RANK[kb] > RANK[ka] ? kb : ka;
}

/** States that carry a `reason`: why it still waits, or why it never will arrive. */
export function hasReason(status: DeliveryStatus | undefined): boolean {
  return status === 'queued' || status === 'undeliverable';
}

export const DELIVERY_WORD: Record<DeliveryStatus, string> = {
  queued: 'queued',
  accepted: 'accepted',
  taken: 'taken',
  seen: 'seen',
  replied: 'replied',
  undeliverable: 'undeliverable',
};

function possessive(name: string): string {
  return `${name}’s`;
}

/**
 * Tooltip text that says what each state guarantees, and what it does not: `taken` is the
 * member's process, not its model; only `seen` means the model has it.
 */
export function deliveryHint(status: DeliveryStatus, member: string, reason?: string): string {
  const why = reason?.trim().replace(/[.\s]+$/, '');
  switch (status) {
    case 'queued':
      return `Queued: Teamdeck holds this message durably and will retry${why ? ` (${why})` : ''}.`;
    case 'accepted':
      return `Accepted: written to ${possessive(member)} inbox; its process has not taken it yet.`;
    case 'taken':
      return `Taken by ${possessive(member)} process; not yet in its context.`;
    case 'seen':
      return `Seen: in ${possessive(member)} context.`;
    case 'replied':
      return `Replied: ${member} answered after it had the message.`;
    case 'undeliverable':
      return `Undeliverable: ${undeliverableReason(member, reason)}.`;
    default:
      return '';
  }
}
