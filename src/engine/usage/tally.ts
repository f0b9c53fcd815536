// What a team's members spent, counted from their transcript rows (docs/claude-contract.md#usage):
// every `assistant` row carries its message's id, model and usage, and a message streamed as
// several content blocks is written as several rows with the same id and the same whole-message
// usage, so each id counts once. Pure: rows in, counts out; the rows are the ones the engine
// already tails (it never reads a file for this), and the counts are small enough to keep per
// team: one cell per member, model and hour.

/** Tokens of one kind of message set, and how many messages they came from. */
export interface Counts {
  messages: number;
  inputTokens: number;
  outputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
}

export const zeroCounts = (): Counts => ({ messages: 0, inputTokens: 0, outputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0 });

export function addCounts(into: Counts, c: Counts, sign = 1): void {
  into.messages += sign * c.messages;
  into.inputTokens += sign * c.inputTokens;
  into.outputTokens += sign * c.outputTokens;
  into.cacheWriteTokens += sign * c.cacheWriteTokens;
  into.cacheReadTokens += sign * c.cacheReadTokens;
}

/** One cell: a member's messages of one model within one hour (UTC). */
export interface Cell extends Counts {
  member: string;
  model: string;
  /** The hour's start, ms since the epoch. */
  hour: number;
}

const HOUR = 3_600_000;

/** The model Claude writes on rows it made itself (an API error shown as a reply): never a cost. */
const SYNTHETIC = '<synthetic>';

/**
 * How many message ids are remembered per member to count a message once. A message's rows are
 * written together (a streamed reply's blocks, one after another), so only the latest few matter;
 * the bound keeps a months-long transcript from holding every id it ever had.
 */
const RECENT_IDS = 2_048;
/** Ids kept per member once a team's transcripts were read to their end (settle). */
const SETTLED_IDS = 16;

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);

/** The usage of one assistant row, or undefined for any other row. */
export function rowUsage(row: Record<string, unknown>): { id: string; model: string; time: number; counts: Counts } | undefined {
  if (row.type !== 'assistant') return undefined;
  const m = row.message as { id?: unknown; model?: unknown; usage?: Record<string, unknown> } | undefined;
  if (!m || typeof m.id !== 'string' || typeof m.model !== 'string' || m.model === SYNTHETIC || !m.usage || typeof m.usage !== 'object') return undefined;
  const u = m.usage;
  const time = typeof row.timestamp === 'string' ? Date.parse(row.timestamp) : NaN;
  return {
    id: m.id,
    model: m.model,
    time,
    counts: { messages: 1, inputTokens: num(u.input_tokens), outputTokens: num(u.output_tokens), cacheWriteTokens: num(u.cache_creation_input_tokens), cacheReadTokens: num(u.cache_read_input_tokens) },
  };
}

/** Claude's own running total of one session (a `cost-state` row of the lead's transcript). */
export function costStateOf(row: Record<string, unknown>): { sessionId: string; usd: number } | undefined {
  if (row.type !== 'cost-state' || typeof row.totalCostUSD !== 'number' || !Number.isFinite(row.totalCostUSD)) return undefined;
  return { sessionId: typeof row.sessionId === 'string' ? row.sessionId : '', usd: row.totalCostUSD };
}

/** What a tally keeps on disk: its cells and Claude's totals (per session). */
export interface TallyData {
  v: 1;
  /** [member, model, hour, messages, input, output, cacheWrite, cacheRead] */
  cells: Array<[string, string, number, number, number, number, number, number]>;
  claude: Record<string, number>;
}

/** One team's usage: cells by member, model and hour, and Claude's own session totals. */
export class UsageTally {
  private readonly cells = new Map<string, Cell>();
  /** Per member: id → what was counted for it (a later row of the same message replaces it). */
  private readonly recent = new Map<string, Map<string, { key: string; counts: Counts }>>();
  /** Claude's latest total per session id (cost-state rows). */
  private readonly claude = new Map<string, number>();
  /** Bumped on every change: a view built from an older version is stale. */
  version = 0;

  /**
   * Counts the rows of one member's transcript, in the order they were written. A row of a
   * message already counted replaces that message's usage (Claude writes the same usage on each;
   * a later one can only be more complete), so nothing is counted twice.
   */
  add(member: string, rows: Iterable<Record<string, unknown>>): boolean {
    let changed = false;
    let seen = this.recent.get(member);
    for (const row of rows) {
      const cost = costStateOf(row);
      if (cost) {
        if (this.claude.get(cost.sessionId) !== cost.usd) {
          this.claude.set(cost.sessionId, cost.usd);
          changed = true;
        }
        continue;
      }
      const u = rowUsage(row);
      if (!u) continue;
      if (!seen) this.recent.set(member, (seen = new Map()));
      const before = seen.get(u.id);
      if (before) {
        if (sameCounts(before.counts, u.counts)) continue;
        addCounts(this.cells.get(before.key)!, before.counts, -1);
      }
      const hour = Number.isFinite(u.time) ? Math.floor(u.time / HOUR) * HOUR : (before ? this.cells.get(before.key)!.hour : 0);
      const key = `${member}\u0000${u.model}\u0000${hour}`;
      let cell = this.cells.get(key);
      if (!cell) this.cells.set(key, (cell = { member, model: u.model, hour, ...zeroCounts() }));
      addCounts(cell, u.counts);
      seen.delete(u.id);
      seen.set(u.id, { key, counts: u.counts });
      if (seen.size > RECENT_IDS) seen.delete(seen.keys().next().value!);
      changed = true;
    }
    if (changed) this.version++;
    return changed;
  }

  /**
   * The member's transcripts were read to their end (an ended team's): only the last few ids
   * are kept, as many as a reply streaming in when the reading stopped can still repeat. Three
   * hundred imported teams kept 2,048 each per member, some 130 MB held for good.
   */
  settle(keep = SETTLED_IDS): void {
    for (const seen of this.recent.values()) {
      while (seen.size > keep) seen.delete(seen.keys().next().value!);
    }
  }

  /** Every cell, in no particular order. */
  allCells(): Iterable<Cell> {
    return this.cells.values();
  }

  /** Claude's own total over the team's sessions, where its lead wrote any `cost-state` row. */
  claudeTotalUsd(): number | undefined {
    if (this.claude.size === 0) return undefined;
    let sum = 0;
    for (const v of this.claude.values()) sum += v;
    return sum;
  }

  toJSON(): TallyData {
    const cells: TallyData['cells'] = [];
    for (const c of this.cells.values()) {
      if (c.messages === 0 && c.inputTokens === 0 && c.outputTokens === 0) continue;
      cells.push([c.member, c.model, c.hour, c.messages, c.inputTokens, c.outputTokens, c.cacheWriteTokens, c.cacheReadTokens]);
    }
    return { v: 1, cells, claude: Object.fromEntries(this.claude) };
  }

  /** A tally as it was saved: the ids are not kept, so rows read again would count again (they are not: reads go on from their offsets). */
  static fromJSON(data: TallyData): UsageTally {
    const t = new UsageTally();
    for (const [member, model, hour, messages, inputTokens, outputTokens, cacheWriteTokens, cacheReadTokens] of data.cells) {
      t.cells.set(`${member}\u0000${model}\u0000${hour}`, { member, model, hour, messages, inputTokens, outputTokens, cacheWriteTokens, cacheReadTokens });
    }
    for (const [k, v] of Object.entries(data.claude)) t.claude.set(k, v);
    return t;
  }
}

function sameCounts(a: Counts, b: Counts): boolean {
  return a.inputTokens === b.inputTokens && a.outputTokens === b.outputTokens && a.cacheWriteTokens === b.cacheWriteTokens && a.cacheReadTokens === b.cacheReadTokens;
}
