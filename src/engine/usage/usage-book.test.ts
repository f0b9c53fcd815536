import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageBook } from './usage-book.js';

const row = (id: string, u: { i: number; o: number }, model = 'claude-opus-4-5') => ({
  type: 'assistant',
  timestamp: new Date().toISOString(),
  message: { id, model, usage: { input_tokens: u.i, output_tokens: u.o, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } },
});

let dir: string;
let problems: Array<string | undefined>;
let clock: number;
const book = () => new UsageBook({ stateDir: dir, now: () => clock, changed: () => {}, pricesProblem: (m) => problems.push(m) });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'teamdeck-usage-book-'));
  problems = [];
  clock = Date.now();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('UsageBook', () => {
  it('keeps a team\'s figures in the state folder for the next engine', async () => {
    const a = book();
    await a.load();
    a.onRows('alpha', 'lead', [row('m1', { i: 1_000_000, o: 0 }), row('m1', { i: 1_000_000, o: 0 })], true);
    await a.flush();
    const b = book();
    await b.load();
    expect(b.report('alpha').total).toMatchObject({ messages: 1, inputTokens: 1_000_000, costUsd: 5 });
    // A new engine reading the same transcripts again from the start shows the saved figures until it has caught up.
    b.onRows('alpha', 'lead', [], false);
    expect(b.report('alpha').total.messages).toBe(1);
  });

  it('merges prices.json over the defaults, and says so when the file is bad, keeping the defaults', async () => {
    await writeFile(join(dir, 'prices.json'), JSON.stringify({ 'my-model': { inputPerMTok: 1, outputPerMTok: 2, cacheWritePerMTok: 0, cacheReadPerMTok: 0 } }));
    const a = book();
    await a.load();
    a.onRows('alpha', 'lead', [row('m1', { i: 1_000_000, o: 1_000_000 }, 'my-model'), row('m2', { i: 10, o: 0 }, 'unknown-model')]);
    const r = a.report('alpha');
    expect(r.members[0]).toMatchObject({ costUsd: null });
    expect(r.unpriced).toEqual(['unknown-model']);
    expect(problems).toEqual([]);
    await writeFile(join(dir, 'prices.json'), '{"my-model": {"inputPerMTok": -1}}');
    await a.loadPrices();
    expect(problems.at(-1)).toMatch(/^prices\.json: my-model/);
    expect(a.prices().effective['claude-opus-4-5']).toBeDefined();
    await expect(a.setPrices({ x: { inputPerMTok: 1e9, outputPerMTok: 0, cacheWritePerMTok: 0, cacheReadPerMTok: 0 } })).rejects.toThrow(/^prices: x\.inputPerMTok/);
    await a.setPrices({ 'unknown-model': { inputPerMTok: 100_000, outputPerMTok: 0, cacheWritePerMTok: 0, cacheReadPerMTok: 0 }, 'my-model': { inputPerMTok: 1, outputPerMTok: 2, cacheWritePerMTok: 0, cacheReadPerMTok: 0 } });
    expect(problems.at(-1)).toBeUndefined();
    expect(a.report('alpha').total.costUsd).toBeCloseTo(3 + 1, 9);
    expect(JSON.parse(await readFile(join(dir, 'prices.json'), 'utf8'))).toHaveProperty('unknown-model');
  });

  it('puts a budget at 80% and at 100% in the needs, each mark with the time it was first crossed', async () => {
    const a = book();
    await a.load();
    await a.setBudget({ team: 'alpha', usd: 10 });
    a.onRows('alpha', 'lead', [row('m1', { i: 1_600_000, o: 0 })]); // $8
    const first = a.needs(() => true);
    expect(first.map((n) => n.id)).toEqual(['budget:alpha:80']);
    const since = first[0]!.since;
    clock += 60_000;
    expect(a.needs(() => true)[0]!.since).toBe(since);
    a.onRows('alpha', 'lead', [row('m2', { i: 400_000, o: 0 })]); // $10
    expect(a.needs(() => true).map((n) => n.id)).toEqual(['budget:alpha:100']);
    // An ended team's budget needs nothing.
    expect(a.needs(() => false)).toEqual([]);
    await a.setBudget({ daily: true, usd: 5 });
    expect(a.needs(() => false).map((n) => n.id)).toEqual([expect.stringMatching(/^budget-daily:\d{4}-\d{2}-\d{2}:100$/)]);
    // Kept: a restarted engine does not announce the marks again.
    await a.flush();
    const b = book();
    await b.load();
    b.onRows('alpha', 'lead', [row('m1', { i: 1_600_000, o: 0 }), row('m2', { i: 400_000, o: 0 })]);
    expect(b.needs(() => true).find((n) => n.id === 'budget:alpha:100')?.since).toBe(a.needs(() => true).find((n) => n.id === 'budget:alpha:100')?.since);
    await b.setBudget({ team: 'alpha', usd: null });
    expect(b.needs(() => true).map((n) => n.kind)).toEqual(['budget']);
    expect(b.budgets()).toEqual({ teams: {}, dailyUsd: 5 });
  });
});
