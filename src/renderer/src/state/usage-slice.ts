// The window's usage figures as data (the state's `usage` slice) and how a spend is worded; the
// reducers over it are in usage-state.ts.
import type { AllUsage, TeamUsage } from '../../../shared/usage-types';

export interface UsageState {
  /** Per team id, its latest figures. */
  teams: Readonly<Record<string, TeamUsage>>;
  /** The all-teams view's answer (days and the daily budget), when loaded. */
  all?: AllUsage;
  /** The generation the all-teams answer was loaded in. */
  loaded?: number;
  error?: string;
  /** Shows every team per day, not the selected team. */
  scope: 'team' | 'all';
}

export const EMPTY_USAGE: UsageState = { teams: {}, scope: 'team' };

/** A member's spend in words for the roster: "$1.23", or its tokens where its model has no price. */
export function memberSpend(u: TeamUsage | undefined, member: string): string | undefined {
  const m = u?.members.find((x) => x.member === member);
  if (!m) return undefined;
  if (m.costUsd !== null) return usd(m.costUsd);
  return `${compact(m.inputTokens + m.outputTokens + m.cacheWriteTokens + m.cacheReadTokens)} tok`;
}

export function usd(n: number): string {
  if (n === 0) return '$0';
  if (n < 0.01) return `$${n.toFixed(4)}`;
  if (n < 100) return `$${n.toFixed(2)}`;
  return `$${Math.round(n).toLocaleString('en-US')}`;
}

export function compact(n: number): string {
  if (n < 1_000) return String(n);
  if (n < 1_000_000) return `${(n / 1_000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(n < 10_000_000 ? 1 : 0)}M`;
}
