import { USER } from '../../../shared/threads';
import { memberStateNow } from '../../../shared/member-state';
import type { MemberActivity, MemberState, RosterEntry } from '../../../shared/types';

/**
 * The state a dot shows now: the shared rule (src/shared/member-state.ts), recomputed here from
 * the last event and a ticking clock, so dots age between host events.
 */
export function displayState(
  entry: Pick<RosterEntry, 'state' | 'lastEventAt'>,
  now: number,
  idleMinutes: number,
  activity?: Pick<MemberActivity, 'kind' | 'sources'>,
): MemberState {
  return memberStateNow(entry, now, idleMinutes * 60_000, activity);
}

export const STATE_WORD: Record<MemberState, string> = {
  active: 'active',
  idle: 'idle',
  terminated: 'terminated',
};

/** Lead first, then config members in config order, then members known only from inbox traffic. */
export function rosterOrder(roster: readonly RosterEntry[]): RosterEntry[] {
  const visible = roster.filter((m) => m.name !== USER);
  const rank = (m: RosterEntry) => (m.isLead ? 0 : m.inConfig ? 1 : 2);
  return visible
    .map((m, i) => ({ m, i }))
    .sort((a, b) => rank(a.m) - rank(b.m) || a.i - b.i)
    .map((x) => x.m);
}
