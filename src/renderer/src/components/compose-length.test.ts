// Issue 28, item 6: the window counts the text as the engine does and refuses before Send.
import { describe, expect, it } from 'vitest';
import { MAX_TEXT_BYTES, textProblem } from '../../../shared/send-rules';
import { lengthNote } from './Compose';

describe('the compose box length note', () => {
  it('says nothing for an ordinary message, counts from three quarters of the limit, and says when it is over', () => {
    expect(lengthNote('hello')).toBeUndefined();
    expect(lengthNote('x'.repeat(40_000))).toBeUndefined();
    expect(lengthNote('x'.repeat(50_000))).toEqual({ over: false, words: '50,000 / 65,536 bytes' });
    expect(lengthNote('x'.repeat(70_000))).toEqual({ over: true, words: '70,000 / 65,536 bytes: too long to send; the limit is 65,536 bytes' });
    // Bytes, as the engine counts: 33,000 two-byte characters are over.
    expect(lengthNote('é'.repeat(33_000))?.over).toBe(true);
  });

  it('agrees with the engine on every side of the limit', () => {
    for (const n of [MAX_TEXT_BYTES - 1, MAX_TEXT_BYTES, MAX_TEXT_BYTES + 1]) {
      const text = 'x'.repeat(n);
      expect(lengthNote(text)?.over ?? false, String(n)).toBe(textProblem(text) !== undefined);
    }
  });
});
