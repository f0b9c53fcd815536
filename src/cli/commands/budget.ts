// `teamdeck budget --team T --usd N`, `teamdeck budget --daily-usd N`, `--clear`: a team's
// budget, or the daily one across all teams (docs/usage.md#budgets). At 80% and at 100% the
// needs-you queue gets an item (and the window a notification), once each.
import { noPositionals, numberOpt, stringOpt, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { openService } from '../service.js';
import { money } from './usage.js';

export const budgetCommand: Command = {
  name: 'budget',
  summary: "set or clear a team's budget, or the daily budget across all teams (USD)",
  usage: 'teamdeck budget (--team T --usd N | --daily-usd N) [--clear]',
  help: [
    '  --team T        the team whose budget this is',
    '  --usd N         its budget in USD',
    '  --daily-usd N   the budget per day across all teams, in USD',
    '  --clear         remove the budget (with --team T, or alone for the daily one)',
    '  (--json prints {teams: {<team>: usd}, dailyUsd?})',
  ],
  options: { team: { type: 'string' }, usd: { type: 'string' }, 'daily-usd': { type: 'string' }, clear: { type: 'boolean' } },
  async run(p, io) {
    noPositionals(p);
    const team = stringOpt(p, 'team');
    const clear = p.values.clear === true;
    const usd = numberOpt(p, 'usd', 0.000001, 1e9);
    const daily = numberOpt(p, 'daily-usd', 0.000001, 1e9);
    if (team === '') throw new UsageError('--team needs a team name');
    if (team !== undefined && daily !== undefined) throw new UsageError('give --team T --usd N, or --daily-usd N, not both');
    if (team === undefined && usd !== undefined) throw new UsageError('--usd sets a team\'s budget: add --team T (or use --daily-usd N)');
    if (clear && (usd !== undefined || daily !== undefined)) throw new UsageError('--clear takes no amount');
    if (!clear && (team !== undefined ? usd === undefined : daily === undefined)) throw new UsageError(team !== undefined ? '--usd N is required (or --clear)' : 'give --team T --usd N, --daily-usd N, or --clear');
    const s = await openService(p.common, io, { watch: false, readOnly: false });
    try {
      const req = team !== undefined ? { team, usd: clear ? null : usd! } : { daily: true as const, usd: clear ? null : daily! };
      const b = await s.service.setBudget(req);
      if (p.common.json) {
        io.out(JSON.stringify(b));
        return 0;
      }
      if (team !== undefined) {
        const id = Object.keys(b.teams).find((t) => t === team) ?? team;
        io.out(clear ? `No budget for ${team} now.` : `Budget for ${id}: ${money(b.teams[id] ?? usd!)}.`);
      } else io.out(clear ? 'No daily budget now.' : `Daily budget across all teams: ${money(b.dailyUsd ?? daily!)}.`);
      return 0;
    } finally {
      await s.close();
    }
  },
};
