// What the teams spent, as the window holds it (docs/usage.md): each team's usage, kept current
// by `usage` events, and the all-teams view (its days), loaded when shown. Pure reducers.
import type { AllUsage, TeamUsage } from '../../../shared/usage-types';
import type { DeckState } from './deck-state';
import type { UsageState } from './usage-slice';

export { EMPTY_USAGE, memberSpend, usd, compact, type UsageState } from './usage-slice';

export function showUsage(s: DeckState, on: boolean, scope: UsageState['scope'] = s.usage.scope): DeckState {
  return { ...s, view: on ? 'usage' : 'thread', usage: { ...s.usage, scope } };
}

export function applyUsageLoaded(s: DeckState, all: AllUsage, gen: number): DeckState {
  const teams = { ...s.usage.teams };
  for (const t of all.teams) teams[t.team] = t;
  return { ...s, usage: { ...s.usage, teams, all, loaded: gen, error: undefined } };
}

export function applyUsageError(s: DeckState, message: string): DeckState {
  return { ...s, usage: { ...s.usage, error: message } };
}

/** A team's figures now (an event); the all-teams answer keeps its days until loaded again. */
export function applyTeamUsage(s: DeckState, team: string, usage: TeamUsage): DeckState {
  const all = s.usage.all;
  const nextAll = all && { ...all, teams: all.teams.some((t) => t.team === team) ? all.teams.map((t) => (t.team === team ? usage : t)) : [...all.teams, usage] };
  return { ...s, usage: { ...s.usage, teams: { ...s.usage.teams, [team]: usage }, ...(nextAll ? { all: nextAll } : {}) } };
}

