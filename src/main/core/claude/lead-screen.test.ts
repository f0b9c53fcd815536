import { describe, expect, it } from 'vitest';
import { inputBox, inputBoxEmpty, inputText } from './lead-screen.js';

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
