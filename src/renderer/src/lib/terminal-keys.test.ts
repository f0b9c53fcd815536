import { describe, expect, it } from 'vitest';
import { terminalKeyAction, type KeyLike } from './terminal-keys';

const key = (k: string, mods: Partial<KeyLike> = {}): KeyLike => ({ key: k, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });

describe('terminalKeyAction', () => {
  it('copies and pastes with Ctrl+Shift+C/V off macOS, whatever the case of the key', () => {
    expect(terminalKeyAction(key('C', { ctrlKey: true, shiftKey: true }), false)).toBe('copy');
    expect(terminalKeyAction(key('V', { ctrlKey: true, shiftKey: true }), false)).toBe('paste');
    expect(terminalKeyAction(key('v', { ctrlKey: true, shiftKey: true }), false)).toBe('paste');
  });

  it('copies and pastes with Cmd+Shift+C/V on macOS, and leaves Ctrl+Shift there to the program', () => {
    expect(terminalKeyAction(key('c', { metaKey: true, shiftKey: true }), true)).toBe('copy');
    expect(terminalKeyAction(key('v', { metaKey: true, shiftKey: true }), true)).toBe('paste');
    expect(terminalKeyAction(key('c', { ctrlKey: true, shiftKey: true }), true)).toBeUndefined();
  });

  it('leaves plain Ctrl+C and Ctrl+V to the program (interrupt, literal next)', () => {
    expect(terminalKeyAction(key('c', { ctrlKey: true }), false)).toBeUndefined();
    expect(terminalKeyAction(key('v', { ctrlKey: true }), false)).toBeUndefined();
    expect(terminalKeyAction(key('c', { ctrlKey: true, shiftKey: true, altKey: true }), false)).toBeUndefined();
  });

  it('lets the app’s own shortcuts (launch, needs, activity) through to the window', () => {
    expect(terminalKeyAction(key('L', { ctrlKey: true, shiftKey: true }), false)).toBe('app');
    expect(terminalKeyAction(key('N', { ctrlKey: true, shiftKey: true }), false)).toBe('app');
    expect(terminalKeyAction(key('A', { ctrlKey: true, shiftKey: true }), false)).toBe('app');
    expect(terminalKeyAction(key('T', { ctrlKey: true, shiftKey: true }), false)).toBeUndefined();
    expect(terminalKeyAction(key('Escape'), false)).toBeUndefined();
  });
});
