import { describe, expect, it } from 'vitest';
import type { RosterEntry } from '../../../shared/types';
import { displayState, rosterOrder } from './presence';

const NOW = 1_800_000_000_000;

describe('displayState', () => {
  it('is ACTIVE while the last event is younger than the idle threshold, then IDLE', () => {
    const e = { state: 'active' as const, lastEventAt: NOW - 4 * 60_000 };
    expect(displayState(e, NOW, 5)).toBe('active');
    // The same entry ages into IDLE as the clock ticks, without any new event.
    expect(displayState(e, NOW + 60_000, 5)).toBe('idle');
    expect(displayState(e, NOW + 60_000, 10)).toBe('active');
  });

  it('trusts the host for TERMINATED whatever the clock says', () => {
    expect(displayState({ state: 'terminated', lastEventAt: NOW }, NOW, 5)).toBe('terminated');
  });

  it('shows IDLE for a member with no events, even if the host said active', () => {
    expect(displayState({ state: 'active' }, NOW, 5)).toBe('idle');
  });
});

describe('displayState with the activity line (issue 28, item 7)', () => {
  it('says what the activity line says: never "active" beside "idle since", never "idle" while working', () => {
    const recent = { state: 'active' as const, lastEventAt: NOW - 60_000 };
    const transcript = ['transcript'] as ('transcript' | 'session' | 'config')[];
    expect(displayState(recent, NOW, 5, { kind: 'idle', sources: transcript })).toBe('idle');
    const old = { state: 'idle' as const, lastEventAt: NOW - 60 * 60_000 };
    expect(displayState(old, NOW, 5, { kind: 'working', sources: transcript })).toBe('active');
    expect(displayState(old, NOW, 5, { kind: 'waiting', sources: ['session'] })).toBe('active');
    // Nothing known from a transcript or the sessions file: the idle rule decides, and a shutdown still wins.
    expect(displayState(recent, NOW, 5, { kind: 'unknown', sources: transcript })).toBe('active');
    expect(displayState(old, NOW, 5, { kind: 'working', sources: ['config'] })).toBe('idle');
    expect(displayState({ state: 'terminated' as const, lastEventAt: NOW }, NOW, 5, { kind: 'working', sources: transcript })).toBe('terminated');
  });
});

describe('rosterOrder', () => {
  const e = (name: string, extra: Partial<RosterEntry> = {}): RosterEntry => ({ name, inboxName: name, isLead: false, inConfig: true, state: 'idle', ...extra });

  it('puts the lead first, then config order, then members known only from inboxes; never "user"', () => {
    const order = rosterOrder([e('b'), e('gone', { inConfig: false }), e('user', { inConfig: false }), e('team-lead', { isLead: true }), e('a')]);
    expect(order.map((m) => m.name)).toEqual(['team-lead', 'b', 'a', 'gone']);
  });
});
