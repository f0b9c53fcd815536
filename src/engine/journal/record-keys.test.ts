import { describe, expect, it } from 'vitest';
import { KeyCounts, textKey } from './record-keys.js';

describe('matching one message across sources by text', () => {
  it('keys by sender, recipient and text, white space around the text aside', () => {
    expect(textKey('user', 'team-lead', 'hi')).toBe(textKey('user', 'team-lead', 'hi\n'));
    expect(textKey('user', 'team-lead', 'hi')).not.toBe(textKey('user', 'researcher', 'hi'));
    expect(textKey('user', 'team-lead', 'hi')).not.toBe(textKey('teamdeck', 'team-lead', 'hi'));
    expect(textKey('a', 'b', 'c')).not.toBe(textKey('a', 'bc', ''));
  });

  it('pairs messages side by side: a second one alike is a new message, not the first one again', () => {
    const k = new KeyCounts();
    const key = textKey('user', 'researcher', 'continue');
    k.add(key, 'other');
    expect(k.isDuplicate(key, 'transcript')).toBe(true);
    k.add(key, 'transcript');
    expect(k.isDuplicate(key, 'transcript')).toBe(false);
    expect(k.isDuplicate(key, 'other')).toBe(false);
    // Two found in one read, not folded in yet: only the first pairs with the one already there.
    k.add(key, 'other');
    expect(k.isDuplicate(key, 'transcript', 0)).toBe(true);
    expect(k.isDuplicate(key, 'transcript', 1)).toBe(false);
  });
});
