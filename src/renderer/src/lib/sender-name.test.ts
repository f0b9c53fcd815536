import { describe, expect, it } from 'vitest';
import { DEFAULT_SENDER_NAME, senderNameProblem } from './sender-name';

describe('senderNameProblem', () => {
  it('accepts the default and plain names up to 64 characters', () => {
    for (const n of [DEFAULT_SENDER_NAME, 'deck_2', 'A-b_9', 'x'.repeat(64)]) expect(senderNameProblem(n)).toBeUndefined();
  });

  it('refuses an empty name', () => {
    expect(senderNameProblem('')).toMatch(/Enter a sender name/);
  });

  it('refuses reserved names in any case, and says why', () => {
    for (const n of ['user', 'User', 'TEAM-LEAD', 'System']) expect(senderNameProblem(n)).toMatch(/reserved: Claude rates messages from reserved names as forged/);
  });

  it('refuses other characters, naming them', () => {
    expect(senderNameProblem('team deck')).toBe('Only letters, digits, “-” and “_” (not a space).');
    expect(senderNameProblem('deck@home')).toMatch(/“@”/);
    expect(senderNameProblem('dé')).toMatch(/“é”/);
  });

  it('refuses more than 64 characters', () => {
    expect(senderNameProblem('x'.repeat(65))).toBe('At most 64 characters (this one has 65).');
  });
});
