// What a member's dot and state word say, in one rule for the window and the CLI (no Node, no
// DOM). TERMINATED comes from the engine (a shutdown approval, or the team's end). Otherwise what
// the member's own transcript (or the lead's sessions file) says it is doing outranks the guess
// from the last event's age: "active" beside "idle since 2:59" read as a contradiction. A config
// flag alone is not that evidence; without evidence, the idle threshold decides.
import type { MemberActivity, MemberState, RosterEntry } from './types.js';

type Evidence = Pick<MemberActivity, 'kind' | 'sources'>;

/** `byClock` (the idle threshold's answer), unless the activity has evidence of the opposite. */
export function stateWithActivity(byClock: MemberState, activity: Evidence | undefined): MemberState {
  if (byClock === 'terminated') return 'terminated';
  const seen = activity?.sources.some((s) => s !== 'config') ?? false;
  if (seen && (activity!.kind === 'working' || activity!.kind === 'waiting')) return 'active';
  if (seen && activity!.kind === 'idle') return 'idle';
  return byClock;
}

/** The state now, from the last event's age against `idleMs`, and the activity. */
export function memberStateNow(entry: Pick<RosterEntry, 'state' | 'lastEventAt'>, now: number, idleMs: number, activity?: Evidence): MemberState {
  if (entry.state === 'terminated') return 'terminated';
  const recent = entry.lastEventAt !== undefined && entry.lastEventAt > 0 && now - entry.lastEventAt < Math.max(0, idleMs);
  return stateWithActivity(recent ? 'active' : 'idle', activity);
}
