// What the usage contract tests compare `teamdeck usage --json` with: the sums the scripted
// model reported per member (the stand-in's log), and the cost those tokens make at a price.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiRequest } from './script.js';
import type { Team } from './team.js';
import { waitFor } from './wait.js';

export interface Sums {
  messages: number;
  inputTokens: number;
  outputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
}
export interface MemberJson extends Sums {
  member: string;
  model?: string;
  costUsd: number | null;
}
export interface UsageJson {
  team: string;
  members: MemberJson[];
  total: Sums & { costUsd: number | null };
  claudeTotalUsd?: number;
}
export interface Price {
  inputPerMTok: number;
  outputPerMTok: number;
  cacheWritePerMTok: number;
  cacheReadPerMTok: number;
}

/** The member an agent of the stand-in's log is on the team. */
export const memberOf = (agent: string) => (agent === 'lead' ? 'team-lead' : agent);

/** What the model reported, per member: every answered request once (side calls leave no row: §19). */
export function scriptedSums(log: ApiRequest[]): Map<string, Sums> {
  const out = new Map<string, Sums>();
  for (const r of log) {
    if (!r.usage || r.agent === 'side' || r.agent === 'unknown') continue;
    const m = memberOf(r.agent);
    const s = out.get(m) ?? { messages: 0, inputTokens: 0, outputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0 };
    s.messages++;
    s.inputTokens += r.usage.input_tokens;
    s.outputTokens += r.usage.output_tokens;
    s.cacheWriteTokens += r.usage.cache_creation_input_tokens;
    s.cacheReadTokens += r.usage.cache_read_input_tokens;
    out.set(m, s);
  }
  return out;
}

/** The tokens times the price, in USD. */
export const costAt = (price: Price, s: Sums) => (s.inputTokens * price.inputPerMTok + s.outputTokens * price.outputPerMTok + s.cacheWriteTokens * price.cacheWritePerMTok + s.cacheReadTokens * price.cacheReadPerMTok) / 1e6;

export const countsOf = (m: Sums): Sums => ({ messages: m.messages, inputTokens: m.inputTokens, outputTokens: m.outputTokens, cacheWriteTokens: m.cacheWriteTokens, cacheReadTokens: m.cacheReadTokens });

/** Each member's counts, by name (an ended team has no roster to order them by). */
export const byMember = (u: UsageJson) => Object.fromEntries(u.members.map((m) => [m.member, countsOf(m)]));

/** Waits until no model request has come for `quietMs`: every reply so far is in the transcripts. */
export async function quiet(team: Team, quietMs = 1_500, timeoutMs = 20_000): Promise<void> {
  await waitFor(() => Date.now() - (team.api.log.at(-1)?.at ?? 0) >= quietMs, { what: 'the team to go quiet', timeoutMs, intervalMs: 100 });
}

/** A state folder `<run>/<name>` whose prices.json prices `model` at `price` (and no other model). */
export function pricedStateDir(team: Team, name: string, model: string, price: Price): string {
  const dir = join(team.run.run, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'prices.json'), JSON.stringify({ [model]: price }));
  return dir;
}
