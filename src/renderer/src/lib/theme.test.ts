// Issue 28, item 15: the theme switch.
import { describe, expect, it } from 'vitest';
import { isDark, themeAttribute } from './theme';

describe('theme', () => {
  it('follows the system for "system" (and no choice), and the choice otherwise', () => {
    expect([isDark(undefined, true), isDark('system', true), isDark('system', false)]).toEqual([true, true, false]);
    expect([isDark('light', true), isDark('dark', false)]).toEqual([false, true]);
  });

  it('sets the root attribute only for an explicit choice, so the stylesheet follows the system otherwise', () => {
    expect([themeAttribute(undefined), themeAttribute('system'), themeAttribute('light'), themeAttribute('dark')]).toEqual([undefined, undefined, 'light', 'dark']);
  });
});
