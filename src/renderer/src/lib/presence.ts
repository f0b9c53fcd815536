import { USER } from '../../../shared/threads';
import type { MemberActivity, MemberState, RosterEntry } from '../../../shared/types';

/**
 * The state a dot shows now. TERMINATED comes from the host (only a shutdown approval makes it);
 * ACTIVE/IDLE are recomputed here from the last event and a ticking clock, so dots age between
 * host events.
 */
export function displayState(
  entry: Pick<RosterEntry, 'state' | 'lastEventAt'>,
  now: number,
  idleMinutes: number,
  activity?: Pick<MemberActivity, 'kind' | 'sources'>,
): MemberState {
  if (entry.state === 'terminated') return 'terminated';
  // What the member's own transcript (or the lead's sessions file) says it is doing outranks the
  // guess from the last event's age: "active" beside "idle since 2:59" read as a contradiction.
  // A config flag alone is not that evidence; without it the 5-minute rule decides.
  const seen = activity?.sources.some((s) => s !== 'config') ?? false;
  if (seen && (activity!.kind === 'working' || activity!.kind === 'waiting')) return 'active';
  if (seen && activity!.kind === 'idle') return 'idle';
  const threshold = Math.max(0, idleMinutes) * 60_000;
  if (entry.lastEventAt !== undefined && entry.lastEventAt > 0 && now - entry.lastEventAt < threshold) return 'active';
  return 'idle';
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
