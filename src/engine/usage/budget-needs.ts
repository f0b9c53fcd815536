// A budget that is 80% or 100% spent is a need: one item per team (and one for the day across
// all teams), worded by the higher mark reached (docs/usage.md#budgets). Pure: spend and budgets
// in, items out. Each mark's item keeps the time it was first crossed (the caller remembers it),
// so a window that opens later does not announce it again: a notification comes once per mark.
import type { NeedItem } from '../../shared/types.js';

export const BUDGET_MARKS = [100, 80] as const;
export type BudgetMark = (typeof BUDGET_MARKS)[number];

const usd = (n: number) => `$${n < 10 ? n.toFixed(2) : n.toFixed(0)}`;

/** The highest mark `spent` reached of `budget`, if any. */
export function markOf(spent: number, budget: number): BudgetMark | undefined {
  return BUDGET_MARKS.find((m) => spent >= (budget * m) / 100);
}

export interface BudgetState {
  /** Team id → [spent, budget]; only teams that have a budget. */
  teams: ReadonlyArray<{ team: string; spentUsd: number; budgetUsd: number }>;
  /** Today's spend across all teams, the daily budget, and the team that spent most today. */
  daily?: { date: string; spentUsd: number; budgetUsd: number; topTeam: string };
}

/**
 * The budget needs. `crossed(key, mark)` gives when that mark was first seen crossed (and
 * remembers now if it was not): the item's `since`.
 */
export function budgetNeeds(state: BudgetState, crossed: (key: string, mark: BudgetMark) => number): NeedItem[] {
  const out: NeedItem[] = [];
  for (const t of state.teams) {
    const mark = markOf(t.spentUsd, t.budgetUsd);
    if (!mark) continue;
    const key = `team:${t.team}`;
    const over = mark === 100;
    out.push({
      id: `budget:${t.team}:${mark}`,
      kind: 'budget',
      team: t.team,
      title: `${t.team} has spent ${usd(t.spentUsd)} of its ${usd(t.budgetUsd)} budget (${Math.floor((t.spentUsd / t.budgetUsd) * 100)}%)`,
      detail: over ? 'The budget is spent. Teamdeck does not stop the team: end it, or raise the budget.' : 'It is at 80% of its budget.',
      since: crossed(key, mark),
    });
  }
  const d = state.daily;
  const mark = d && markOf(d.spentUsd, d.budgetUsd);
  if (d && mark) {
    out.push({
      id: `budget-daily:${d.date}:${mark}`,
      kind: 'budget',
      team: d.topTeam,
      title: `All teams have spent ${usd(d.spentUsd)} today of the ${usd(d.budgetUsd)} daily budget (${Math.floor((d.spentUsd / d.budgetUsd) * 100)}%)`,
      detail: mark === 100 ? `The daily budget is spent; ${d.topTeam} spent the most today.` : `It is at 80% of the daily budget; ${d.topTeam} spent the most today.`,
      since: crossed(`daily:${d.date}`, mark),
    });
  }
  return out;
}
