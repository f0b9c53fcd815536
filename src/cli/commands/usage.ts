// `teamdeck usage [--team T] [--since DATE] [--json]`: what the teams spent, per member, in
// tokens and USD at the price table's prices (docs/usage.md), through the running engine when
// there is one. The JSON is the command's contract: {team, members, total, claudeTotalUsd?} for
// one team, {teams: [...], days: [...]} for all.
import type { AllUsage, MemberUsage, TeamUsage } from '../../shared/usage-types.js';
import { noPositionals, stringOpt, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { table } from '../format.js';
import { openService } from '../service.js';

const COUNTS = ['messages', 'inputTokens', 'outputTokens', 'cacheWriteTokens', 'cacheReadTokens'] as const;

/** A team's usage as the command contract has it (no chart points, no budget). */
export function teamJson(t: TeamUsage): Record<string, unknown> {
  const member = (m: MemberUsage) => ({ member: m.member, ...(m.model ? { model: m.model } : {}), ...Object.fromEntries(COUNTS.map((k) => [k, m[k]])), costUsd: m.costUsd });
  return {
    team: t.team,
    members: t.members.map(member),
    total: { ...Object.fromEntries(COUNTS.map((k) => [k, t.total[k]])), costUsd: t.total.costUsd },
    ...(t.claudeTotalUsd !== undefined ? { claudeTotalUsd: t.claudeTotalUsd } : {}),
  };
}

export function usageJson(u: AllUsage, one: boolean): Record<string, unknown> {
  if (one) return teamJson(u.teams[0]!);
  return { teams: u.teams.map(teamJson), days: u.days };
}

export const money = (usd: number | null): string => (usd === null ? '—' : `$${usd.toFixed(usd < 1 ? 4 : 2)}`);
const n = (v: number) => v.toLocaleString('en-US');

/** Claude's own total beside Teamdeck's, and whether they differ by more than a cent. */
export function claudeLine(t: TeamUsage): string | undefined {
  if (t.claudeTotalUsd === undefined) return undefined;
  const ours = t.total.costUsd;
  const differs = ours === null || Math.abs(ours - t.claudeTotalUsd) >= 0.01;
  return `Claude's own session total: ${money(t.claudeTotalUsd)}${differs ? ` (differs from Teamdeck's ${money(ours)}: Claude prices 1-hour cache writes and long prompts higher, and counts its side calls)` : ' (the same)'}`;
}

function printTeam(t: TeamUsage, out: (s: string) => void): void {
  out(`${t.team}: ${money(t.total.costUsd)}, ${n(t.total.messages)} replies`);
  const rows = t.members.map((m) => [m.member, m.model ?? '', n(m.messages), n(m.inputTokens), n(m.outputTokens), n(m.cacheWriteTokens), n(m.cacheReadTokens), money(m.costUsd)]);
  out(table(['member', 'model', 'replies', 'input', 'output', 'cache write', 'cache read', 'cost'], rows));
  for (const model of t.unpriced ?? []) out(`no price for ${model} (set one in prices.json or the Settings)`);
  const claude = claudeLine(t);
  if (claude) out(claude);
  if (t.budgetUsd !== undefined) out(`budget: ${money(t.budgetUsd)}`);
}

export const usageCommand: Command = {
  name: 'usage',
  summary: 'what the teams spent: tokens and USD per member, per team and per day',
  usage: 'teamdeck usage [--team T] [--since YYYY-MM-DD]',
  help: [
    '  --team T        only this team (folder name or team name)',
    '  --since D       only from this local day on (YYYY-MM-DD)',
    '  (--json prints {team, members: [{member, model?, messages, inputTokens, outputTokens,',
    '   cacheWriteTokens, cacheReadTokens, costUsd}], total: {...}, claudeTotalUsd?} for a team,',
    '   {teams: [...], days: [{date, costUsd, inputTokens, outputTokens}]} without --team;',
    '   costUsd is null where a model has no price)',
  ],
  options: { team: { type: 'string' }, since: { type: 'string' } },
  async run(p, io) {
    noPositionals(p);
    const team = stringOpt(p, 'team');
    if (team === '') throw new UsageError('--team needs a team name');
    const since = stringOpt(p, 'since');
    if (since !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(since)) throw new UsageError(`--since takes a day, YYYY-MM-DD, not ${JSON.stringify(since)}`);
    const s = await openService(p.common, io, { watch: false, readOnly: true });
    try {
      const u = await s.service.usage({ ...(team === undefined ? {} : { team }), ...(since === undefined ? {} : { since }) });
      if (u.pricesProblem) io.err(`note: ${u.pricesProblem}`);
      if (p.common.json) {
        io.out(JSON.stringify(usageJson(u, team !== undefined)));
        return 0;
      }
      if (u.teams.length === 0) {
        io.out(`No usage recorded${since ? ` since ${since}` : ''}.`);
        return 0;
      }
      for (const t of u.teams) {
        printTeam(t, (l) => io.out(l));
        io.out('');
      }
      if (team === undefined && u.days.length) {
        io.out(table(['day', 'input', 'output', 'cost'], u.days.map((d) => [d.date, n(d.inputTokens), n(d.outputTokens), money(d.costUsd)])));
        if (u.dailyBudgetUsd !== undefined) io.out(`daily budget: ${money(u.dailyBudgetUsd)}`);
      }
      return 0;
    } finally {
      await s.close();
    }
  },
};
