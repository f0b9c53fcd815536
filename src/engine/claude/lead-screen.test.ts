import { describe, expect, it } from 'vitest';
import { inputBox, inputBoxEmpty, inputText, PASTE_MAX_CHARS, PASTE_MAX_NEWLINES, pastePieces, plainTurn, unwrapPasted } from './lead-screen.js';

const RULE = '─'.repeat(60);
const screen = (box: string) => ['╭ Claude Code', '', 'some output', RULE, box, RULE, '  ⏵⏵ bypass permissions on'].join('\n');

describe('the lead screen', () => {
  it('finds the input box between the last two rules', () => {
    expect(inputBox(screen('❯ hello'))).toBe('❯ hello');
    expect(inputText('❯ hello\n  world  ')).toBe('hello\nworld');
  });
  it('an empty box is empty; a box with text is not', () => {
    expect(inputBoxEmpty(screen('❯ '))).toBe(true);
    expect(inputBoxEmpty(screen('> '))).toBe(true);
    expect(inputBoxEmpty(screen('❯ half typed'))).toBe(false);
  });
  it('no box on screen (a dialog) is not empty', () => {
    expect(inputBox('Do you want to proceed?\n❯ 1. Yes\n  2. No')).toBeUndefined();
    expect(inputBoxEmpty('Do you want to proceed?\n❯ 1. Yes\n  2. No')).toBe(false);
  });
});

describe('typing a turn', () => {
  it('splits into inline pieces that rebuild the text', () => {
    const text = 'a'.repeat(1_900) + '\nline2\nline3\nline4';
    const pieces = pastePieces(text);
    expect(pieces.join('')).toBe(text);
    for (const p of pieces) {
      expect(p.length).toBeLessThanOrEqual(PASTE_MAX_CHARS);
      expect(p.split('\n').length - 1).toBeLessThanOrEqual(PASTE_MAX_NEWLINES);
    }
    expect(pastePieces('short')).toEqual(['short']);
  });
  it('keeps ! and / from becoming a shell or slash command', () => {
    expect(plainTurn('!rm -rf x')).toBe(' !rm -rf x');
    expect(plainTurn('/exit')).toBe(' /exit');
    expect(plainTurn('hello /x')).toBe('hello /x');
  });
  it('unwraps pasted material', () => {
    expect(unwrapPasted('\n\n<pasted_content id="2d60">\nbody\nmore\n</pasted_content id="2d60">\n')).toBe('body\nmore');
    expect(unwrapPasted('plain')).toBe('plain');
  });
});
