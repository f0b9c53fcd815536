import type { DeliveryStatus } from '../../../shared/types';

const RANK: Record<DeliveryStatus, number> = { queued: 0, accepted: 1, read: 2, replied: 3 };

/** Delivery only moves forward: a late or repeated event never takes a message back. */
export function laterStatus(a: DeliveryStatus | undefined, b: DeliveryStatus | undefined): DeliveryStatus | undefined {
  if (!a) return b;
  if (!b) return a;
  return RANK[b] > RANK[a] ? b : a;
}

export const DELIVERY_WORD: Record<DeliveryStatus, string> = {
  queued: 'queued',
  accepted: 'accepted',
  read: 'read',
  replied: 'replied',
};

/** Tooltip text that says what each state guarantees. */
export function deliveryHint(status: DeliveryStatus, reason?: string): string {
  switch (status) {
    case 'queued':
      return `Queued: Teamdeck holds this message durably and will retry${reason ? ` (${reason})` : ''}.`;
    case 'accepted':
      return 'Accepted: the inbox holds the message; it is picked up at the next poll.';
    case 'read':
      return 'Read: the member has taken the message from its inbox.';
    case 'replied':
      return 'Replied: the member answered after reading it.';
  }
}
