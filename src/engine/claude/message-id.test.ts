import { describe, expect, it } from 'vitest';
import { deriveMessageId, newMessageId } from './message-id.js';

describe('deriveMessageId (Claude identifies a message by from|timestamp|text)', () => {
  const base = ['researcher', '2026-02-17T15:30:00.000Z', 'Found the bug'] as const;

  it('is stable for the same three fields', () => {
    expect(deriveMessageId(...base)).toBe(deriveMessageId(...base));
    expect(deriveMessageId(...base)).toMatch(/^h-[0-9a-f]{32}$/);
  });

  it('changes when any one of the three changes', () => {
    const id = deriveMessageId(...base);
    expect(deriveMessageId('other', base[1], base[2])).not.toBe(id);
    expect(deriveMessageId(base[0], '2026-02-17T15:30:00.001Z', base[2])).not.toBe(id);
    expect(deriveMessageId(base[0], base[1], 'Found the bug.')).not.toBe(id);
  });

  it('cannot be collided by moving characters between fields', () => {
    expect(deriveMessageId('ab', 'c', 'd')).not.toBe(deriveMessageId('a', 'bc', 'd'));
    expect(deriveMessageId('a', 'b', 'cd')).not.toBe(deriveMessageId('a', 'bc', 'd'));
  });
});

describe('newMessageId', () => {
  it('returns distinct UUIDs', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newMessageId()));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
