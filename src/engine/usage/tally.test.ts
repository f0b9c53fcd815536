import { describe, expect, it } from 'vitest';
import { UsageTally } from './tally.js';
import { DEFAULT_PRICES, costOf, priceFor } from './prices.js';
import { teamReport, daysOf, dayStart, dayOf } from './report.js';
import { budgetNeeds, markOf } from './budget-needs.js';

const row = (id: string, model: string, u: { i: number; o: number; cw?: number; cr?: number }, ts = '2026-12-07T10:15:00.000Z') => ({
  type: 'assistant',
  timestamp: ts,
  message: { id, model, usage: { input_tokens: u.i, output_tokens: u.o, cache_creation_input_tokens: u.cw ?? 0, cache_read_input_tokens: u.cr ?? 0 } },
});

describe('UsageTally', () => {
  it('counts a message written as three rows once', () => {
    const t = new UsageTally();
    const r = row('msg_1', 'claude-opus-4-5', { i: 100, o: 20, cw: 300, cr: 4000 });
    t.add('lead', [r, { ...r }, { ...r }, row('msg_2', 'claude-opus-4-5', { i: 7, o: 3 })]);
    const rep = teamReport('alpha', t.allCells(), DEFAULT_PRICES);
    expect(rep.members).toEqual([{ member: 'lead', model: 'claude-opus-4-5', messages: 2, inputTokens: 107, outputTokens: 23, cacheWriteTokens: 300, cacheReadTokens: 4000, costUsd: expect.any(Number) }]);
    // The same id read again later (another poll) is not counted again either.
    expect(t.add('lead', [r])).toBe(false);
  });

  it('takes the later usage of a message whose rows differ, never both', () => {
    const t = new UsageTally();
    t.add('lead', [row('m', 'claude-opus-4-5', { i: 10, o: 1 })]);
    t.add('lead', [row('m', 'claude-opus-4-5', { i: 10, o: 40 })]);
    const rep = teamReport('alpha', t.allCells(), DEFAULT_PRICES);
    expect(rep.total).toMatchObject({ messages: 1, inputTokens: 10, outputTokens: 40 });
  });

  it('skips other rows and Claude\'s synthetic replies, and keeps the latest cost-state per session', () => {
    const t = new UsageTally();
    t.add('lead', [{ type: 'user', message: { id: 'x' } }, row('s', '<synthetic>', { i: 0, o: 0 }), { type: 'cost-state', sessionId: 'a', totalCostUSD: 0.5 }, { type: 'cost-state', sessionId: 'a', totalCostUSD: 0.75 }]);
    expect([...t.allCells()]).toEqual([]);
    expect(t.claudeTotalUsd()).toBe(0.75);
  });

  it('settled, keeps only the latest ids: a message still streaming in counts once, an old one read again counts again', () => {
    const t = new UsageTally();
    const rows = Array.from({ length: 40 }, (_, i) => row(`m${i}`, 'claude-opus-4-5', { i: 1, o: 1 }));
    t.add('lead', rows);
    t.settle();
    // The last message's rows go on being one message.
    expect(t.add('lead', [rows[39]!])).toBe(false);
    const rep = () => teamReport('alpha', t.allCells(), DEFAULT_PRICES).total.messages;
    expect(rep()).toBe(40);
    // The first id is forgotten: only a file read again from its start would bring it back (offsets prevent that).
    expect(t.add('lead', [rows[0]!])).toBe(true);
    expect(rep()).toBe(41);
  });

  it('survives a round trip through its saved form', () => {
    const t = new UsageTally();
    t.add('lead', [row('a', 'claude-opus-4-5', { i: 1, o: 2, cw: 3, cr: 4 })]);
    t.add('researcher', [row('b', 'claude-haiku-4-5', { i: 5, o: 6 }, '2026-12-07T11:00:00.000Z'), { type: 'cost-state', sessionId: 's', totalCostUSD: 1 }]);
    const back = UsageTally.fromJSON(JSON.parse(JSON.stringify(t.toJSON())));
    expect(teamReport('x', back.allCells(), DEFAULT_PRICES)).toEqual(teamReport('x', t.allCells(), DEFAULT_PRICES));
    expect(back.claudeTotalUsd()).toBe(1);
  });
});

describe('prices and reports', () => {
  it('finds a dated model by its catalog name and prices tokens per million', () => {
    expect(priceFor('claude-sonnet-4-5-20250929', DEFAULT_PRICES)).toEqual(DEFAULT_PRICES['claude-sonnet-4-5']);
    expect(priceFor('claude-opus-4-6[1m]', DEFAULT_PRICES)).toEqual(DEFAULT_PRICES['claude-opus-4-6']);
    expect(priceFor('gpt-banana', DEFAULT_PRICES)).toBeUndefined();
    expect(costOf({ messages: 1, inputTokens: 1_000_000, outputTokens: 1_000_000, cacheWriteTokens: 1_000_000, cacheReadTokens: 1_000_000 }, DEFAULT_PRICES['claude-opus-4-5']!)).toBeCloseTo(5 + 25 + 6.25 + 0.5, 10);
  });

  it('gives no cost for a model without a price, and says which', () => {
    const t = new UsageTally();
    t.add('lead', [row('a', 'claude-opus-4-5', { i: 1000, o: 0 })]);
    t.add('writer', [row('b', 'mystery-model', { i: 10, o: 10 })]);
    const rep = teamReport('alpha', t.allCells(), DEFAULT_PRICES, { order: ['writer', 'lead'], series: true });
    expect(rep.members.map((m) => [m.member, m.costUsd])).toEqual([['writer', null], ['lead', 0.005]]);
    expect(rep.total.costUsd).toBeNull();
    expect(rep.unpriced).toEqual(['mystery-model']);
    expect(rep.series?.members).toEqual(['writer', 'lead']);
    expect(rep.series?.tokens).toEqual([[20], [1000]]);
  });

  it('sums days across cells and filters by a start day', () => {
    const t = new UsageTally();
    t.add('lead', [row('a', 'claude-opus-4-5', { i: 10, o: 1 }, '2026-12-05T12:00:00Z'), row('b', 'claude-opus-4-5', { i: 20, o: 2 }, '2026-12-07T12:00:00Z')]);
    const days = daysOf(t.allCells(), DEFAULT_PRICES);
    expect(days.map((d) => d.inputTokens)).toEqual([10, 20]);
    const since = dayStart(dayOf(Date.parse('2026-12-07T12:00:00Z')));
    expect(daysOf(t.allCells(), DEFAULT_PRICES, since).map((d) => d.inputTokens)).toEqual([20]);
    expect(dayStart('2026-02-30')).toBeNaN();
  });
});

describe('budget needs', () => {
  it('says 80% and 100% by the higher mark, with when each was first crossed', () => {
    expect(markOf(7.9, 10)).toBeUndefined();
    expect(markOf(8, 10)).toBe(80);
    expect(markOf(10, 10)).toBe(100);
    const seen = new Map<string, number>();
    const crossed = (k: string, m: number) => seen.get(`${k}:${m}`) ?? (seen.set(`${k}:${m}`, 42), 42);
    const items = budgetNeeds({ teams: [{ team: 'alpha', spentUsd: 12, budgetUsd: 10 }, { team: 'beta', spentUsd: 1, budgetUsd: 10 }], daily: { date: '2026-12-07', spentUsd: 9, budgetUsd: 10, topTeam: 'alpha' } }, crossed);
    expect(items.map((n) => n.id)).toEqual(['budget:alpha:100', 'budget-daily:2026-12-07:80']);
    expect(items[0]).toMatchObject({ kind: 'budget', team: 'alpha', since: 42 });
    expect(items[0]!.title).toContain('$12 of its $10 budget (120%)');
  });
});
