// What the team costs, as the window and the command see it (docs/usage.md). Token counts come
// from the members' transcripts; a cost is `null` where a model has no price: never a guess.

export interface UsageCounts {
  /** Model replies (each message id once). */
  messages: number;
  inputTokens: number;
  outputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
}

export interface MemberUsage extends UsageCounts {
  member: string;
  /** The model it used; several, joined by ", ". */
  model?: string;
  /** USD at the price table's prices; null when one of its models has no price. */
  costUsd: number | null;
}

/** One hour of a team's spend, per member (the chart's points). */
export interface UsageSeries {
  /** Hour starts, ms since the epoch, ascending. */
  hours: number[];
  /** The members, in the order of `costUsd` and `tokens`. */
  members: string[];
  /** [member][hour] USD; null where a model of that hour has no price. */
  costUsd: (number | null)[][];
  /** [member][hour] all tokens (input, output, cache write and read). */
  tokens: number[][];
}

export interface TeamUsage {
  team: string;
  members: MemberUsage[];
  total: UsageCounts & { costUsd: number | null };
  /** Claude's own session total, from the lead's `cost-state` rows, where there are any. */
  claudeTotalUsd?: number;
  /** Models seen with no price in the table ("no price for <model>"). */
  unpriced?: string[];
  /** The team's budget, when it has one. */
  budgetUsd?: number;
  series?: UsageSeries;
}

export interface UsageDay {
  /** YYYY-MM-DD, the engine host's local day. */
  date: string;
  costUsd: number | null;
  inputTokens: number;
  outputTokens: number;
}

export interface AllUsage {
  teams: TeamUsage[];
  days: UsageDay[];
  dailyBudgetUsd?: number;
  /** The prices file did not parse: the defaults are used, and this says why. */
  pricesProblem?: string;
}

export interface UsageRequest {
  /** One team (its id or config name); absent: every team. */
  team?: string;
  /** Only from this day on (YYYY-MM-DD, local). */
  since?: string;
}

/** A budget to set, or to clear (`usd: null`): one team's, or the daily one across all teams. */
export type BudgetRequest = { team: string; usd: number | null } | { daily: true; usd: number | null };

export interface Budgets {
  teams: Record<string, number>;
  dailyUsd?: number;
}

export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  cacheWritePerMTok: number;
  cacheReadPerMTok: number;
}

export interface PriceInfo {
  /** The defaults merged with the overrides: what costs are counted at. */
  effective: Record<string, ModelPrice>;
  /** What `<state>/prices.json` holds (the Settings write it). */
  overrides: Record<string, ModelPrice>;
  problem?: string;
}
