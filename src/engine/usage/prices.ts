// What a million tokens cost, per model, and what a tally costs at those prices
// (docs/usage.md#prices). The defaults are Claude Code's own table: 2.1.332 bakes a model
// catalog into its binary ("Hand-maintained baked-in model catalog"), whose `pricing_tiers`
// give `input`, `output`, `cache_write_5m`, `cache_write_1h`, `cache_read` per million tokens
// and whose `models` name a tier each (checked against the 2.1.332 binary; see
// docs/claude-contract.md#usage). A user's `<state>/prices.json` and the Settings merge over them.
// A model with no price has no cost: never a guess.
import type { z } from 'zod';
import type { ModelPrice } from '../../shared/usage-types.js';
import type { Counts } from './tally.js';

export type { ModelPrice };

export type PriceTable = Record<string, ModelPrice>;

const tier = (inputPerMTok: number, outputPerMTok: number, cacheWritePerMTok: number, cacheReadPerMTok: number): ModelPrice => ({ inputPerMTok, outputPerMTok, cacheWritePerMTok, cacheReadPerMTok });

// The catalog's tiers (2.1.332 `pricing_tiers`), cache writes at the 5-minute rate.
const T3_15 = tier(3, 15, 3.75, 0.3);
const T2_10 = tier(2, 10, 2.5, 0.2);
const T2_10_CR010 = tier(2, 10, 2.5, 0.1);
const T15_75 = tier(15, 75, 18.75, 1.5);
const T5_25 = tier(5, 25, 6.25, 0.5);
const T4_20_CR020 = tier(4, 20, 5, 0.2);
const T10_50 = tier(10, 50, 12.5, 1);
const T10_50_CR025 = tier(10, 50, 12.5, 0.25);
const T8_40_CR020 = tier(8, 40, 10, 0.2);
const HAIKU_35 = tier(0.8, 4, 1, 0.08);
const HAIKU_45 = tier(1, 5, 1.25, 0.1);
// 2.1.332 prices Haiku 5.5 higher above 100,000 prompt tokens (its `long_prompt`); the base rate is kept here.
const HAIKU_55 = tier(0.1, 0.5, 0.125, 0.01);

/**
 * Claude Code 2.1.332's catalog: each model id (and the dated id its first-party API answers
 * with, which is what transcripts record) at its tier.
 */
export const DEFAULT_PRICES: Readonly<PriceTable> = Object.freeze({
  'claude-3-5-haiku': HAIKU_35,
  'claude-3-5-haiku-20241022': HAIKU_35,
  'claude-haiku-4-5': HAIKU_45,
  'claude-haiku-4-5-20251001': HAIKU_45,
  'claude-haiku-5-5': HAIKU_55,
  'claude-3-5-sonnet': T3_15,
  'claude-3-5-sonnet-20241022': T3_15,
  'claude-3-7-sonnet': T3_15,
  'claude-3-7-sonnet-20250219': T3_15,
  'claude-sonnet-4-0': T3_15,
  'claude-sonnet-4-20250514': T3_15,
  'claude-sonnet-4-5': T3_15,
  'claude-sonnet-4-5-20250929': T3_15,
  'claude-sonnet-4-6': T3_15,
  'claude-sonnet-5': T2_10,
  'claude-sonnet-5-5': T2_10_CR010,
  'claude-opus-4-0': T15_75,
  'claude-opus-4-20250514': T15_75,
  'claude-opus-4-1': T15_75,
  'claude-opus-4-1-20250805': T15_75,
  'claude-opus-4-5': T5_25,
  'claude-opus-4-5-20251101': T5_25,
  'claude-opus-4-6': T5_25,
  'claude-opus-4-7': T5_25,
  'claude-opus-4-8': T5_25,
  'claude-opus-5': T5_25,
  'claude-opus-5-5': T4_20_CR020,
  'claude-fable-5': T10_50,
  'claude-fable-5-1': T10_50_CR025,
  'claude-fable-5-2': T8_40_CR020,
  'claude-mythos-5': T10_50,
  'claude-mythos-5-1': T10_50_CR025,
  'claude-mythos-5-2': T8_40_CR020,
});

/** `<state>/prices.json` and the Settings' prices: model name → its four prices (the contract's schema). */
export { priceTableSchema } from '../../shared/contract-schema.js';

/** The first problem of a prices file, in words. */
export function pricesProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue && issue.path.length ? issue.path.map(String).join('.') : 'the file';
  return `${where}: ${issue?.message ?? 'not a price table'}`;
}

/** A transcript's model name as the catalog names it: `[1m]` and a trailing date left out. */
function baseModel(model: string): string {
  return model.replace(/\[[12]m\]$/i, '').replace(/-\d{8}$/, '');
}

/** The model's price in the table: its exact name, else its name without a context suffix or date. */
export function priceFor(model: string, table: Readonly<PriceTable>): ModelPrice | undefined {
  if (Object.hasOwn(table, model)) return table[model];
  const base = baseModel(model);
  return Object.hasOwn(table, base) ? table[base] : undefined;
}

/** What these tokens cost at this price, in USD. */
export function costOf(c: Counts, p: ModelPrice): number {
  return (c.inputTokens * p.inputPerMTok + c.outputTokens * p.outputPerMTok + c.cacheWriteTokens * p.cacheWritePerMTok + c.cacheReadTokens * p.cacheReadPerMTok) / 1_000_000;
}
