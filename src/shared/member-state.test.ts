// Issue 28, item 7: one state for a member, wherever it is shown.
import { describe, expect, it } from 'vitest';
import { memberStateNow, stateWithActivity } from './member-state.js';

describe('member state', () => {
  it('follows the activity where it has evidence, the clock otherwise, and a shutdown always', () => {
    expect(stateWithActivity('active', { kind: 'idle', sources: ['transcript'] })).toBe('idle');
    expect(stateWithActivity('idle', { kind: 'working', sources: ['session'] })).toBe('active');
    expect(stateWithActivity('idle', { kind: 'working', sources: ['config'] })).toBe('idle');
    expect(stateWithActivity('terminated', { kind: 'working', sources: ['transcript'] })).toBe('terminated');
    expect(memberStateNow({ state: 'active', lastEventAt: 1_000 }, 2_000, 5_000)).toBe('active');
    expect(memberStateNow({ state: 'active', lastEventAt: 1_000 }, 9_000, 5_000)).toBe('idle');
  });
});
