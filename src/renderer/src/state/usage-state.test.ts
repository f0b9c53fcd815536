// The window's usage: an event replaces one team's figures (and its line in the all-teams view),
// a load takes every team's, and a member's spend is worded for the roster.
import { describe, expect, it } from 'vitest';
import type { AllUsage, TeamUsage } from '../../../shared/usage-types';
import { initialState } from './deck-state';
import { applyEvent } from './host-events';
import { applyUsageLoaded, memberSpend, showUsage } from './usage-state';

const usage = (team: string, cost: number | null, input = 10): TeamUsage => ({
  team,
  members: [{ member: 'researcher', model: 'm', messages: 1, inputTokens: input, outputTokens: 2_000, cacheWriteTokens: 0, cacheReadTokens: 0, costUsd: cost }],
  total: { messages: 1, inputTokens: input, outputTokens: 2_000, cacheWriteTokens: 0, cacheReadTokens: 0, costUsd: cost },
});

describe('usage state', () => {
  it('keeps each team\'s latest figures from events, in the all-teams answer too', () => {
    const s0 = initialState({ viewedBaseline: 0, now: 0 });
    const all: AllUsage = { teams: [usage('a', 1), usage('b', 2)], days: [{ date: '2026-12-07', costUsd: 3, inputTokens: 20, outputTokens: 4_000 }] };
    const s1 = applyUsageLoaded(s0, all, 0);
    expect(Object.keys(s1.usage.teams)).toEqual(['a', 'b']);
    const s2 = applyEvent(s1, { type: 'usage', team: 'b', usage: usage('b', 5) }, 0);
    expect(s2.usage.teams.b!.total.costUsd).toBe(5);
    expect(s2.usage.all!.teams.map((t) => t.total.costUsd)).toEqual([1, 5]);
    expect(s2.usage.all!.days).toBe(all.days);
    const s3 = applyEvent(s2, { type: 'usage', team: 'c', usage: usage('c', 0.5) }, 0);
    expect(s3.usage.all!.teams.map((t) => t.team)).toEqual(['a', 'b', 'c']);
    expect(showUsage(s3, true, 'all')).toMatchObject({ view: 'usage', usage: { scope: 'all' } });
    expect(showUsage(s3, false).view).toBe('thread');
  });

  it('words a spend in dollars, or in tokens where the model has no price', () => {
    expect(memberSpend(usage('a', 1.234), 'researcher')).toBe('$1.23');
    expect(memberSpend(usage('a', 0.0042), 'researcher')).toBe('$0.0042');
    expect(memberSpend(usage('a', null, 1_000_000), 'researcher')).toBe('1.0M tok');
    expect(memberSpend(usage('a', 1), 'writer')).toBeUndefined();
  });
});
