import { describe, expect, it } from 'vitest';
import type { MemberActivity } from '../../../shared/types';
import { activityLine, activityTicks, toolLabel } from './activity';
import { elapsed } from './time';

const NOW = new Date(2026, 1, 17, 15, 0, 0).getTime(); // local time, so "today" does not depend on the zone
const SEC = 1000;
const MIN = 60 * SEC;

function act(over: Partial<MemberActivity>): MemberActivity {
  return { member: 'researcher', kind: 'idle', sources: ['transcript'], ...over };
}

describe('elapsed', () => {
  it('counts seconds, then minutes with seconds, minutes, hours and days', () => {
    expect(elapsed(0)).toBe('0 s');
    expect(elapsed(42 * SEC + 900)).toBe('42 s');
    expect(elapsed(59 * SEC)).toBe('59 s');
    expect(elapsed(60 * SEC)).toBe('1 min 00 s');
    expect(elapsed(3 * MIN + 5 * SEC)).toBe('3 min 05 s');
    expect(elapsed(12 * MIN + 30 * SEC)).toBe('12 min');
    expect(elapsed(2 * 60 * MIN + 5 * MIN)).toBe('2 h 05 min');
    expect(elapsed(3 * 24 * 60 * MIN + 4 * 60 * MIN)).toBe('3 d 4 h');
  });

  it('never counts backwards or shows NaN', () => {
    expect(elapsed(-5 * SEC)).toBe('0 s');
    expect(elapsed(Number.NaN)).toBe('0 s');
  });
});

describe('activityLine', () => {
  it('working on a tool: its name, its input and how long, from tool.since', () => {
    const a = act({ kind: 'working', since: NOW - 5 * MIN, tool: { name: 'Bash', summary: 'npm test', since: NOW - 42 * SEC } });
    const line = activityLine(a, NOW);
    expect(line).toMatchObject({ kind: 'working', text: 'working · Bash: npm test', elapsed: '42 s' });
    expect(line.full).toBe('working · Bash: npm test · 42 s');
    expect(activityLine(a, NOW + 3 * SEC).full).toBe('working · Bash: npm test · 45 s');
    expect(activityLine(a, NOW, { short: true }).full).toBe('Bash: npm test · 42 s');
    expect(activityTicks(a)).toBe(true);
  });

  it('keeps a multi-line tool input on one line, and a tool without input by its name', () => {
    expect(toolLabel({ name: 'Bash', summary: 'cd web &&\n  npm test' })).toBe('Bash: cd web && npm test');
    expect(toolLabel({ name: 'TodoWrite', summary: '  ' })).toBe('TodoWrite');
  });

  it('working between tools: since the turn began', () => {
    expect(activityLine(act({ kind: 'working', since: NOW - 3 * MIN - 5 * SEC }), NOW).full).toBe('working · 3 min 05 s');
    expect(activityLine(act({ kind: 'working' }), NOW).full).toBe('working');
  });

  it('waiting: what for, in the host’s words, and for how long; the roster says what the human owes', () => {
    const a = act({ kind: 'waiting', since: NOW - 95 * SEC, waitingFor: "a permission answer in the lead's terminal" });
    expect(activityLine(a, NOW).full).toBe("waiting for a permission answer in the lead's terminal · 1 min 35 s");
    expect(activityLine(a, NOW, { short: true }).full).toBe('needs permission · 1 min 35 s');
    expect(activityLine(act({ kind: 'waiting', waitingFor: 'for the lead to approve its plan' }), NOW).full).toBe('waiting for the lead to approve its plan');
    expect(activityLine(act({ kind: 'waiting', waitingFor: 'the lead to approve its plan' }), NOW, { short: true }).full).toBe('needs plan approval');
    expect(activityLine(act({ kind: 'waiting' }), NOW).full).toBe('waiting for an answer');
  });

  it('idle: since when its last turn ended, as a clock reads it; no counter, no ticking', () => {
    const a = act({ kind: 'idle', since: new Date(2026, 1, 17, 14, 31).getTime() });
    expect(activityLine(a, NOW, { locale: 'en-GB' }).full).toBe('idle since 14:31');
    const b = act({ kind: 'idle', since: NOW - 1000, lastTurnEndAt: new Date(2026, 1, 16, 18, 20).getTime() });
    expect(activityLine(b, NOW, { locale: 'en-GB' }).full).toBe('idle since yesterday 18:20');
    expect(activityLine(act({ kind: 'idle' }), NOW).full).toBe('idle');
    expect(activityTicks(a)).toBe(false);
  });

  it('shut down, and unknown: on a legacy team it says why', () => {
    expect(activityLine(act({ kind: 'shut-down', since: NOW - MIN }), NOW).full).toBe('shut down');
    expect(activityLine(act({ kind: 'unknown', sources: [] }), NOW, { era: 'legacy' }).full).toBe('activity unknown (legacy team)');
    expect(activityLine(undefined, NOW, { era: 'legacy' }).full).toBe('activity unknown (legacy team)');
    expect(activityLine(undefined, NOW, { era: 'current' }).full).toBe('activity unknown');
    expect(activityLine(undefined, NOW, { era: 'legacy', short: true }).full).toBe('activity unknown');
  });

  it('reads a kind this build does not know as unknown, and explains itself in the tooltip', () => {
    expect(activityLine(act({ kind: 'dreaming' as MemberActivity['kind'] }), NOW).kind).toBe('unknown');
    const a = act({ kind: 'working', tool: { name: 'Read', summary: 'a.ts', since: NOW - SEC }, lastText: 'Reading\nthe code', sources: ['session', 'transcript'] });
    const title = activityLine(a, NOW).title;
    expect(title).toContain('Read running since');
    expect(title).toContain('last wrote: Reading the code');
    expect(title).toContain("from the lead's sessions file, its transcript");
  });
});
