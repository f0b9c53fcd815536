import { describe, expect, it } from 'vitest';
import { DELIVERY_STATUSES } from '../../../shared/types';
import { DELIVERY_WORD, deliveryHint, laterStatus } from './delivery';

describe('laterStatus', () => {
  it('orders queued < accepted < taken < seen < replied < undeliverable', () => {
    const order = ['queued', 'accepted', 'taken', 'seen', 'replied', 'undeliverable'] as const;
    for (let i = 0; i < order.length; i++)
      for (let j = 0; j < order.length; j++) expect(laterStatus(order[i], order[j])).toBe(order[Math.max(i, j)]);
  });

  it('keeps what it has over nothing, and over a state it does not know', () => {
    expect(laterStatus(undefined, 'seen')).toBe('seen');
    expect(laterStatus('taken', undefined)).toBe('taken');
    expect(laterStatus('taken', 'read' as never)).toBe('taken');
    expect(laterStatus('read' as never, undefined)).toBeUndefined();
  });
});

describe('words', () => {
  it('has a word and a hint for every state of the contract', () => {
    for (const st of DELIVERY_STATUSES) {
      expect(DELIVERY_WORD[st]).toBe(st);
      expect(deliveryHint(st, 'researcher')).not.toBe('');
    }
  });

  it('says that taken is the process and seen is the model', () => {
    expect(deliveryHint('taken', 'researcher')).toBe('Taken by researcher’s process; not yet in its context.');
    expect(deliveryHint('seen', 'researcher')).toBe('Seen: in researcher’s context.');
  });

  it('gives the reason of a queued or undeliverable message', () => {
    expect(deliveryHint('queued', 'r', 'inbox locked')).toBe('Queued: Teamdeck holds this message durably and will retry (inbox locked).');
    expect(deliveryHint('undeliverable', 'r', 'the team ended before it could be delivered.')).toBe(
      'Undeliverable: the team ended before it could be delivered.',
    );
    expect(deliveryHint('undeliverable', 'r')).toBe('Undeliverable: nothing can ever deliver it to r.');
  });
});
