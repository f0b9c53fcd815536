// What the team costs (docs/usage.md#window): its spend over time stacked by member, a table per
// member with tokens and cost, Claude's own session total beside Teamdeck's, and the team's
// budget; or every team per day with the daily budget. Live from `usage` events. A model with no
// price shows its tokens and "no price for <model>", never a made-up cost.
import { useMemo, useState } from 'react';
import type { TeamUsage, UsageCounts } from '../../../shared/usage-types';
import { useActions, useDeck } from '../state/context';
import { teamOf } from '../state/selectors';
import { compact, usd } from '../state/usage-state';
import { BackIcon, WarningIcon } from './icons';
import { UsageChart, type StackedData } from './UsageChart';

const money = (v: number | null) => (v === null ? '—' : usd(v));
const num = (n: number) => n.toLocaleString('en-US');
const allTokens = (c: UsageCounts) => c.inputTokens + c.outputTokens + c.cacheWriteTokens + c.cacheReadTokens;

/** The team's hours as chart data: USD when every model is priced, else tokens. */
function teamChart(u: TeamUsage): StackedData | undefined {
  const s = u.series;
  if (!s || s.hours.length === 0) return undefined;
  const priced = s.costUsd.every((row) => row.every((v) => v !== null));
  return {
    x: s.hours.map((h) => h / 1000),
    step: 3_600,
    series: s.members.map((m, i) => ({ label: m, values: priced ? s.costUsd[i]!.map((v) => v ?? 0) : s.tokens[i]! })),
    format: priced ? (v) => usd(v) : (v) => `${compact(Math.round(v))} tok`,
  };
}

/** Every team's spend per local day, stacked by team (USD; a day with an unpriced model counts what is priced). */
function daysChart(teams: readonly TeamUsage[]): StackedData | undefined {
  const day = (ms: number) => {
    const d = new Date(ms);
    return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  };
  const days = new Set<number>();
  const per = teams.map((t) => {
    const m = new Map<number, number>();
    t.series?.hours.forEach((h, j) => {
      const k = day(h);
      days.add(k);
      let v = 0;
      for (const row of t.series!.costUsd) v += row[j] ?? 0;
      m.set(k, (m.get(k) ?? 0) + v);
    });
    return m;
  });
  if (days.size === 0) return undefined;
  const x = [...days].sort((a, b) => a - b);
  return { x: x.map((d) => d / 1000), step: 86_400, series: teams.map((t, i) => ({ label: t.team, values: x.map((d) => per[i]!.get(d) ?? 0) })), format: (v) => usd(v) };
}

function BudgetControl({ label, current, onSet, testId }: { label: string; current?: number; onSet: (usd: number | null) => Promise<string | undefined>; testId: string }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const submit = async (usdValue: number | null) => {
    const err = await onSet(usdValue);
    setError(err);
    if (!err) setValue('');
  };
  return (
    <form
      data-testid={testId}
      className="flex flex-wrap items-center gap-1.5 text-xs"
      onSubmit={(e) => {
        e.preventDefault();
        const n = Number(value);
        if (!value.trim() || !Number.isFinite(n) || n <= 0) return setError('a budget is an amount in USD, more than 0');
        void submit(n);
      }}
    >
      <span className="text-zinc-600 dark:text-zinc-300">
        {label}: <span data-testid={`${testId}-current`} className="font-medium tabular-nums">{current === undefined ? 'none' : usd(current)}</span>
      </span>
      <input aria-label={`${label} in USD`} inputMode="decimal" placeholder="USD" value={value} onChange={(e) => setValue(e.target.value)} className="input w-20 py-0.5 text-xs" />
      <button type="submit" className="btn-secondary px-2 py-0.5 text-xs">Set</button>
      {current !== undefined && (
        <button type="button" className="btn-secondary px-2 py-0.5 text-xs" onClick={() => void submit(null)}>
          Clear
        </button>
      )}
      {error && <span role="alert" className="text-red-600 dark:text-red-400">{error}</span>}
    </form>
  );
}

function Claude({ u }: { u: TeamUsage }) {
  if (u.claudeTotalUsd === undefined) return null;
  const ours = u.total.costUsd;
  const differs = ours === null || Math.abs(ours - u.claudeTotalUsd) >= 0.01;
  return (
    <p data-testid="usage-claude-total" className="text-xs text-zinc-600 dark:text-zinc-300">
      Claude’s own session total: <span className="font-medium tabular-nums">{usd(u.claudeTotalUsd)}</span>
      {differs ? ` — differs from Teamdeck’s ${money(ours)} (Claude prices 1-hour cache writes and long prompts higher, and counts its side calls).` : ' — the same.'}
    </p>
  );
}

function MemberTable({ u }: { u: TeamUsage }) {
  const head = ['Member', 'Model', 'Replies', 'Input', 'Output', 'Cache write', 'Cache read', 'Cost'];
  return (
    <table data-testid="usage-table" className="w-full text-xs tabular-nums">
      <thead className="sticky top-0 bg-white text-left text-[11px] text-zinc-500 dark:bg-zinc-900 dark:text-zinc-400">
        <tr>{head.map((h, i) => <th key={h} className={`px-2 py-1 font-medium ${i >= 2 ? 'text-right' : ''} ${i === 1 ? 'hidden lg:table-cell' : ''}`}>{h}</th>)}</tr>
      </thead>
      <tbody>
        {u.members.map((m) => (
          <tr key={m.member} data-testid="usage-row" data-member={m.member} data-messages={m.messages} className="border-t border-zinc-100 dark:border-zinc-800">
            <td className="px-2 py-1 font-medium text-zinc-900 dark:text-zinc-100">{m.member}</td>
            <td className="hidden max-w-[10rem] truncate px-2 py-1 font-mono lg:table-cell text-[11px] text-zinc-500 dark:text-zinc-400" title={m.model}>{m.model}</td>
            <td className="px-2 py-1 text-right">{num(m.messages)}</td>
            <td className="px-2 py-1 text-right">{num(m.inputTokens)}</td>
            <td className="px-2 py-1 text-right">{num(m.outputTokens)}</td>
            <td className="px-2 py-1 text-right">{num(m.cacheWriteTokens)}</td>
            <td className="px-2 py-1 text-right">{num(m.cacheReadTokens)}</td>
            <td data-testid="usage-cost" className="px-2 py-1 text-right font-medium">{money(m.costUsd)}</td>
          </tr>
        ))}
        <tr data-testid="usage-total" className="border-t-2 border-zinc-200 font-medium dark:border-zinc-700">
          <td className="px-2 py-1">Total</td>
          <td className="hidden lg:table-cell" />
          <td className="px-2 py-1 text-right">{num(u.total.messages)}</td>
          <td className="px-2 py-1 text-right">{num(u.total.inputTokens)}</td>
          <td className="px-2 py-1 text-right">{num(u.total.outputTokens)}</td>
          <td className="px-2 py-1 text-right">{num(u.total.cacheWriteTokens)}</td>
          <td className="px-2 py-1 text-right">{num(u.total.cacheReadTokens)}</td>
          <td className="px-2 py-1 text-right">{money(u.total.costUsd)}</td>
        </tr>
      </tbody>
    </table>
  );
}

function Unpriced({ models }: { models?: string[] }) {
  if (!models?.length) return null;
  return (
    <ul data-testid="usage-unpriced" className="text-xs text-amber-800 dark:text-amber-300">
      {models.map((m) => (
        <li key={m} className="flex items-center gap-1">
          <WarningIcon width={12} height={12} /> no price for <span className="font-mono">{m}</span>: its tokens show, its cost does not (set a price in Settings)
        </li>
      ))}
    </ul>
  );
}

function TeamScope({ team }: { team: string }) {
  const actions = useActions();
  const u = useDeck((s) => s.usage.teams[team]);
  const chart = useMemo(() => (u ? teamChart(u) : undefined), [u]);
  if (!u || u.members.length === 0) return <p className="p-6 text-sm text-zinc-500">No replies counted for this team yet: its spend shows here as its members’ transcripts are read.</p>;
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2 p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="text-sm">
          <span data-testid="usage-total-cost" className="text-lg font-semibold tabular-nums">{money(u.total.costUsd)}</span>{' '}
          <span className="text-zinc-500 dark:text-zinc-400">· {num(u.total.messages)} replies · {compact(allTokens(u.total))} tokens</span>
        </p>
        <BudgetControl testId="team-budget" label="Team budget" current={u.budgetUsd} onSet={(v) => actions.setBudget({ team, usd: v })} />
      </div>
      <Claude u={u} />
      <Unpriced models={u.unpriced} />
      <div className="h-48 min-h-[8rem] shrink-0">{chart ? <UsageChart testId="usage-chart" data={chart} /> : null}</div>
      <div className="min-h-0 flex-1 overflow-auto">
        <MemberTable u={u} />
      </div>
    </div>
  );
}

function AllScope() {
  const actions = useActions();
  const all = useDeck((s) => s.usage.all);
  const error = useDeck((s) => s.usage.error);
  const chart = useMemo(() => (all ? daysChart(all.teams) : undefined), [all]);
  if (!all) return <p className="p-6 text-sm text-zinc-500">{error ? `Could not read the usage: ${error}` : 'Reading the usage…'}</p>;
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-zinc-600 dark:text-zinc-300">Every team, per day (local time).</p>
        <BudgetControl testId="daily-budget" label="Daily budget, all teams" current={all.dailyBudgetUsd} onSet={(v) => actions.setBudget({ daily: true, usd: v })} />
      </div>
      {all.pricesProblem && <p className="text-xs text-amber-800 dark:text-amber-300">{all.pricesProblem}</p>}
      <div className="h-48 min-h-[8rem] shrink-0">{chart ? <UsageChart testId="usage-days-chart" data={chart} /> : null}</div>
      <div className="grid min-h-0 flex-1 grid-cols-1 content-start gap-3 overflow-auto xl:grid-cols-2">
        <table data-testid="usage-days" className="text-xs tabular-nums">
          <thead className="text-left text-[11px] text-zinc-500 dark:text-zinc-400">
            <tr><th className="px-2 py-1 font-medium">Day</th><th className="px-2 py-1 text-right font-medium">Input</th><th className="px-2 py-1 text-right font-medium">Output</th><th className="px-2 py-1 text-right font-medium">Cost</th></tr>
          </thead>
          <tbody>
            {[...all.days].reverse().map((d) => (
              <tr key={d.date} data-testid="usage-day" className="border-t border-zinc-100 dark:border-zinc-800">
                <td className="px-2 py-1">{d.date}</td><td className="px-2 py-1 text-right">{num(d.inputTokens)}</td><td className="px-2 py-1 text-right">{num(d.outputTokens)}</td><td className="px-2 py-1 text-right font-medium">{money(d.costUsd)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table data-testid="usage-teams" className="text-xs tabular-nums">
          <thead className="text-left text-[11px] text-zinc-500 dark:text-zinc-400">
            <tr><th className="px-2 py-1 font-medium">Team</th><th className="px-2 py-1 text-right font-medium">Replies</th><th className="px-2 py-1 text-right font-medium">Tokens</th><th className="px-2 py-1 text-right font-medium">Cost</th></tr>
          </thead>
          <tbody>
            {all.teams.map((t) => (
              <tr key={t.team} className="border-t border-zinc-100 dark:border-zinc-800">
                <td className="max-w-[12rem] truncate px-2 py-1" title={t.team}>{t.team}</td><td className="px-2 py-1 text-right">{num(t.total.messages)}</td><td className="px-2 py-1 text-right">{compact(allTokens(t.total))}</td><td className="px-2 py-1 text-right font-medium">{money(t.total.costUsd)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export function UsageView({ team }: { team: string }) {
  const actions = useActions();
  const scope = useDeck((s) => s.usage.scope);
  const teamName = useDeck((s) => teamOf(s, team)?.name ?? team);
  const tab = (which: 'team' | 'all', label: string) => (
    <button
      type="button"
      role="tab"
      aria-selected={scope === which}
      data-testid={`usage-scope-${which}`}
      onClick={() => actions.openUsage(true, which)}
      className={`rounded-md px-2 py-0.5 text-xs font-medium outline-none focus-visible:ring-2 focus-visible:ring-indigo-500/50 ${scope === which ? 'bg-indigo-50 text-indigo-800 dark:bg-indigo-500/15 dark:text-white' : 'text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800'}`}
    >
      {label}
    </button>
  );
  return (
    <section className="flex min-h-0 min-w-0 flex-1 flex-col" aria-label="Usage" data-testid="usage-view">
      <header className="flex items-center gap-3 border-b border-zinc-200 px-5 py-2.5 dark:border-zinc-800">
        <div className="min-w-0 flex-1">
          <h1 className="text-[15px] font-semibold text-zinc-950 dark:text-white">Usage</h1>
          <p className="mt-0.5 truncate text-xs text-zinc-500 dark:text-zinc-400">Tokens from the members’ transcripts, priced per model</p>
        </div>
        <div role="tablist" className="flex gap-1">
          {tab('team', teamName)}
          {tab('all', 'All teams')}
        </div>
        <button
          type="button"
          data-testid="usage-back"
          onClick={() => actions.openUsage(false)}
          className="inline-flex shrink-0 items-center gap-1 rounded-md border border-zinc-200 px-2.5 py-1 text-xs font-medium text-zinc-700 outline-none hover:bg-zinc-100 focus-visible:ring-2 focus-visible:ring-indigo-500/50 dark:border-zinc-700 dark:text-zinc-200 dark:hover:bg-zinc-800"
        >
          <BackIcon width={12} height={12} />
          Back
        </button>
      </header>
      {scope === 'all' ? <AllScope /> : <TeamScope team={team} />}
    </section>
  );
}
