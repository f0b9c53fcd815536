// A tally as people read it: per member and in total, with costs at the price table's prices,
// per hour for the chart, and per day across teams (docs/usage.md). Pure.
import type { MemberUsage, TeamUsage, UsageCounts, UsageDay, UsageSeries } from '../../shared/usage-types.js';
import { costOf, priceFor, type PriceTable } from './prices.js';
import { addCounts, zeroCounts, type Cell } from './tally.js';

/** A cell's cost, or null when its model has no price. */
export function cellCost(c: Cell, prices: Readonly<PriceTable>): number | null {
  const p = priceFor(c.model, prices);
  return p ? costOf(c, p) : null;
}

const addCost = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a + b);

/** The local day (YYYY-MM-DD) an hour falls in, on the engine's host. */
export function dayOf(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The start of a local day (YYYY-MM-DD), ms since the epoch; NaN for anything else. */
export function dayStart(date: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return NaN;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return dayOf(d.getTime()) === date ? d.getTime() : NaN;
}

const tokens = (c: UsageCounts) => c.inputTokens + c.outputTokens + c.cacheWriteTokens + c.cacheReadTokens;

export interface ReportOptions {
  /** Cells from this time on (ms); absent: all. */
  since?: number;
  /** Members in this order first (the roster's); the others follow by name. */
  order?: readonly string[];
  /** With the chart's points. */
  series?: boolean;
}

/** One team's usage from its cells. */
export function teamReport(team: string, cells: Iterable<Cell>, prices: Readonly<PriceTable>, opts: ReportOptions = {}): TeamUsage {
  const members = new Map<string, { counts: UsageCounts; models: Set<string>; cost: number | null }>();
  const unpriced = new Set<string>();
  const hours = new Set<number>();
  const kept: Cell[] = [];
  for (const c of cells) {
    if (opts.since !== undefined && c.hour < opts.since) continue;
    if (c.messages === 0 && tokens(c) === 0) continue;
    kept.push(c);
    let m = members.get(c.member);
    if (!m) members.set(c.member, (m = { counts: zeroCounts(), models: new Set(), cost: 0 }));
    addCounts(m.counts, c);
    m.models.add(c.model);
    const cost = cellCost(c, prices);
    if (cost === null) unpriced.add(c.model);
    m.cost = addCost(m.cost, cost);
    hours.add(c.hour);
  }
  const rank = new Map((opts.order ?? []).map((n, i) => [n, i]));
  const names = [...members.keys()].sort((a, b) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity) || a.localeCompare(b));
  const total = { ...zeroCounts(), costUsd: 0 as number | null };
  const rows: MemberUsage[] = names.map((member) => {
    const m = members.get(member)!;
    addCounts(total, m.counts);
    total.costUsd = addCost(total.costUsd, m.cost);
    return { member, model: [...m.models].sort().join(', '), ...m.counts, costUsd: m.cost };
  });
  const out: TeamUsage = { team, members: rows, total };
  if (unpriced.size) out.unpriced = [...unpriced].sort();
  if (opts.series) out.series = seriesOf(kept, names, [...hours].sort((a, b) => a - b), prices);
  return out;
}

function seriesOf(cells: Cell[], members: string[], hours: number[], prices: Readonly<PriceTable>): UsageSeries {
  const at = new Map(hours.map((h, i) => [h, i]));
  const row = new Map(members.map((m, i) => [m, i]));
  const costUsd = members.map(() => hours.map((): number | null => 0));
  const tok = members.map(() => hours.map(() => 0));
  for (const c of cells) {
    const i = row.get(c.member)!;
    const j = at.get(c.hour)!;
    costUsd[i]![j] = addCost(costUsd[i]![j]!, cellCost(c, prices));
    tok[i]![j]! += tokens(c);
  }
  return { hours, members, costUsd, tokens: tok };
}

/** Every team's spend per local day, oldest first. */
export function daysOf(cells: Iterable<Cell>, prices: Readonly<PriceTable>, since?: number): UsageDay[] {
  const days = new Map<string, UsageDay>();
  for (const c of cells) {
    if (since !== undefined && c.hour < since) continue;
    const date = dayOf(c.hour);
    let d = days.get(date);
    if (!d) days.set(date, (d = { date, costUsd: 0, inputTokens: 0, outputTokens: 0 }));
    d.costUsd = addCost(d.costUsd, cellCost(c, prices));
    d.inputTokens += c.inputTokens;
    d.outputTokens += c.outputTokens;
  }
  return [...days.values()].sort((a, b) => a.date.localeCompare(b.date));
}
