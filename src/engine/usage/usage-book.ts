// Every team's usage as the engine holds it (docs/usage.md): a tally per team fed with the
// transcript rows the engine already reads (never a file read for this), kept in the state
// folder so an ended team keeps its figures, the price table (defaults merged with
// `<state>/prices.json`), and the budgets with the marks they crossed (`<state>/budgets.json`).
//
//   <state>/usage/<team>.json   one tally per team (cells by member, model and hour)
//   <state>/prices.json         {"<model>": {inputPerMTok, outputPerMTok, cacheWritePerMTok, cacheReadPerMTok}}
//   <state>/budgets.json        {teams: {<team>: usd}, dailyUsd?, crossed: {<key>: {<mark>: ms}}}
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { NeedItem } from '../../shared/types.js';
import type { AllUsage, BudgetRequest, Budgets, PriceInfo, TeamUsage } from '../../shared/usage-types.js';
import { TeamdeckError } from '../errors.js';
import { writeFileAtomic } from '../files/atomic-write.js';
import { budgetNeeds, type BudgetMark } from './budget-needs.js';
import { DEFAULT_PRICES, priceTableSchema, pricesProblem, type PriceTable } from './prices.js';
import { cellCost, dayOf, daysOf, teamReport, type ReportOptions } from './report.js';
import { UsageTally, type Cell, type TallyData } from './tally.js';

export interface UsageBookContext {
  stateDir: string;
  now: () => number;
  /** A team's figures changed (coalesced: once per turn of the event loop per team). */
  changed: (team: string) => void;
  /** The prices file does not parse (or parses again: undefined). */
  pricesProblem: (message: string | undefined) => void;
}

const tallySchema = z.object({
  v: z.literal(1),
  cells: z.array(z.tuple([z.string(), z.string(), z.number(), z.number(), z.number(), z.number(), z.number(), z.number()])),
  claude: z.record(z.string(), z.number()),
});

const usd = z.number().finite().positive().max(1e9);
const budgetsSchema = z.object({
  teams: z.record(z.string(), usd).default({}),
  dailyUsd: usd.optional(),
  crossed: z.record(z.string(), z.record(z.string(), z.number())).default({}),
});
type BudgetsFile = z.infer<typeof budgetsSchema>;

/** How long a changed tally waits before it is written (many polls change it in a burst). */
const SAVE_AFTER_MS = 1_000;

/** A team id as a file name (ids are folder names already; this keeps any other name safe). */
const fileOf = (team: string) => `${encodeURIComponent(team)}.json`;

interface Book {
  /** What the state folder held at start. */
  saved?: UsageTally;
  /** Counted from rows read by this engine. */
  fresh?: UsageTally;
  /** A read of the team's transcripts reached their end: `fresh` is whole, and may replace `saved`. */
  caughtUp: boolean;
  saveTimer?: NodeJS.Timeout;
}

export class UsageBook {
  private readonly books = new Map<string, Book>();
  private overrides: PriceTable = {};
  private table: PriceTable = { ...DEFAULT_PRICES };
  private problem: string | undefined;
  private budgetsFile: BudgetsFile = { teams: {}, crossed: {} };
  private readonly pending = new Set<string>();
  private writes: Promise<unknown> = Promise.resolve();

  constructor(private readonly ctx: UsageBookContext) {}

  private get dir(): string {
    return join(this.ctx.stateDir, 'usage');
  }

  /** Reads the saved tallies, the prices and the budgets. */
  async load(): Promise<void> {
    await this.loadPrices();
    try {
      this.budgetsFile = budgetsSchema.parse(JSON.parse(await readFile(join(this.ctx.stateDir, 'budgets.json'), 'utf8')));
    } catch {
      // none yet, or unreadable: no budgets (they are set again in a word)
    }
    let names: string[] = [];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    for (const n of names) {
      if (!n.endsWith('.json')) continue;
      try {
        const data = tallySchema.parse(JSON.parse(await readFile(join(this.dir, n), 'utf8'))) as TallyData;
        this.book(decodeURIComponent(n.slice(0, -5))).saved = UsageTally.fromJSON(data);
      } catch {
        // A tally that does not parse is counted again from the transcripts, where they still are.
      }
    }
  }

  /** (Re)reads `<state>/prices.json`: a bad file is a problem, and the defaults stand. */
  async loadPrices(): Promise<void> {
    let text: string | undefined;
    try {
      text = await readFile(join(this.ctx.stateDir, 'prices.json'), 'utf8');
    } catch {
      text = undefined;
    }
    let problem: string | undefined;
    let overrides: PriceTable = {};
    if (text !== undefined) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (e) {
        problem = `prices.json is not JSON (${(e as Error).message}); the default prices are used`;
      }
      if (problem === undefined) {
        const r = priceTableSchema.safeParse(json);
        if (r.success) overrides = r.data;
        else problem = `prices.json: ${pricesProblem(r.error)}; the default prices are used`;
      }
    }
    this.overrides = overrides;
    this.table = { ...DEFAULT_PRICES, ...overrides };
    if (problem !== this.problem) {
      this.problem = problem;
      this.ctx.pricesProblem(problem);
    }
  }

  prices(): PriceInfo {
    return { effective: { ...this.table }, overrides: { ...this.overrides }, ...(this.problem ? { problem: this.problem } : {}) };
  }

  /** Replaces the overrides (the Settings): written to `<state>/prices.json`, then in effect. */
  async setPrices(overrides: PriceTable): Promise<PriceInfo> {
    const r = priceTableSchema.safeParse(overrides);
    if (!r.success) throw new TeamdeckError('invalid', `prices: ${pricesProblem(r.error)}`);
    const table = r.data;
    await writeFileAtomic(join(this.ctx.stateDir, 'prices.json'), `${JSON.stringify(table, null, 2)}\n`, { mode: 0o600 });
    await this.loadPrices();
    for (const team of this.books.keys()) this.touch(team);
    return this.prices();
  }

  private book(team: string): Book {
    let b = this.books.get(team);
    if (!b) this.books.set(team, (b = { caughtUp: false }));
    return b;
  }

  /** The team's transcripts were read to their end (an ended team's): what it keeps per message is let go. */
  settle(team: string): void {
    this.books.get(team)?.fresh?.settle();
  }

  /**
   * One member's rows, as read (the importer of teams Teamdeck never saw feeds its rows here,
   * as the engine's transcript reads do). Rows already counted in this engine are not counted
   * again: each message id once.
   */
  onRows(team: string, member: string, rows: Record<string, unknown>[], live = false): void {
    const b = this.book(team);
    this.rowsFed += rows.length;
    b.fresh ??= new UsageTally();
    if (live) b.caughtUp = true;
    if (b.fresh.add(member, rows) || live) this.touch(team);
  }

  /** A poll's rows, per agent (TranscriptFindings.rows). */
  onTranscriptRows(team: string, batches: ReadonlyArray<{ agent: string; rows: Record<string, unknown>[]; live: boolean }>): void {
    for (const b of batches) this.onRows(team, b.agent, b.rows, b.live);
  }

  /**
   * The tally shown: the one counted here once it is whole (or already bigger than the saved
   * one), else the saved one (an ended team's, or one being read again from the start).
   */
  private tallyOf(team: string): UsageTally | undefined {
    const b = this.books.get(team);
    if (!b) return undefined;
    if (!b.fresh) return b.saved;
    if (!b.saved || b.caughtUp || messagesOf(b.fresh) >= messagesOf(b.saved)) return b.fresh;
    return b.saved;
  }

  private touch(team: string): void {
    const b = this.book(team);
    if (!b.saveTimer && b.fresh && this.tallyOf(team) === b.fresh) {
      b.saveTimer = setTimeout(() => {
        b.saveTimer = undefined;
        void this.save(team);
      }, SAVE_AFTER_MS);
      b.saveTimer.unref?.();
    }
    if (this.pending.has(team)) return;
    this.pending.add(team);
    setImmediate(() => {
      this.pending.delete(team);
      this.ctx.changed(team);
    });
  }

  private save(team: string): Promise<void> {
    const t = this.tallyOf(team);
    if (!t) return Promise.resolve();
    const data = JSON.stringify(t.toJSON());
    const run = this.writes.then(async () => {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      await writeFileAtomic(join(this.dir, fileOf(team)), data, { mode: 0o600 });
    });
    this.writes = run.catch(() => undefined);
    return run;
  }

  /** Writes every tally that waits to be written (at stop). */
  async flush(): Promise<void> {
    for (const [team, b] of this.books) {
      if (!b.saveTimer) continue;
      clearTimeout(b.saveTimer);
      b.saveTimer = undefined;
      // A tally not written is counted again from the transcripts (each message id once) at the
      // next start while they are there; stopping must not wait on a full disk.
      await this.save(team).catch(() => {});
    }
    await this.writes;
  }

  /** The teams with figures (running, ended, imported). */
  teams(): string[] {
    return [...this.books.keys()].filter((t) => this.tallyOf(t) !== undefined);
  }

  /** Rows fed so far, over every team: a read that found none leaves it as it was. */
  get version(): number {
    return this.rowsFed;
  }

  private rowsFed = 0;

  has(team: string): boolean {
    return this.tallyOf(team) !== undefined;
  }

  report(team: string, opts: ReportOptions = {}): TeamUsage {
    const t = this.tallyOf(team);
    const out = teamReport(team, t?.allCells() ?? [], this.table, opts);
    const claude = t?.claudeTotalUsd();
    if (claude !== undefined && opts.since === undefined) out.claudeTotalUsd = claude;
    const budget = this.budgetsFile.teams[team];
    if (budget !== undefined) out.budgetUsd = budget;
    return out;
  }

  all(opts: { since?: number; order?: (team: string) => readonly string[]; series?: boolean } = {}): AllUsage {
    const teams = this.teams()
      .sort()
      .map((t) => this.report(t, { since: opts.since, order: opts.order?.(t), series: opts.series }));
    const out: AllUsage = { teams, days: daysOf(this.cells(), this.table, opts.since) };
    if (this.budgetsFile.dailyUsd !== undefined) out.dailyBudgetUsd = this.budgetsFile.dailyUsd;
    if (this.problem) out.pricesProblem = this.problem;
    return out;
  }

  private *cells(): Iterable<Cell> {
    for (const team of this.teams()) yield* this.tallyOf(team)!.allCells();
  }

  budgets(): Budgets {
    return { teams: { ...this.budgetsFile.teams }, ...(this.budgetsFile.dailyUsd !== undefined ? { dailyUsd: this.budgetsFile.dailyUsd } : {}) };
  }

  /** Sets or clears a budget; its crossed marks are forgotten, so a new budget announces afresh. */
  async setBudget(req: BudgetRequest): Promise<Budgets> {
    const f = this.budgetsFile;
    if ('daily' in req) {
      if (req.usd === null) delete f.dailyUsd;
      else f.dailyUsd = req.usd;
      for (const k of Object.keys(f.crossed)) if (k.startsWith('daily:')) delete f.crossed[k];
    } else {
      if (req.usd === null) delete f.teams[req.team];
      else f.teams[req.team] = req.usd;
      delete f.crossed[`team:${req.team}`];
    }
    await this.saveBudgets();
    return this.budgets();
  }

  private saveBudgets(): Promise<void> {
    const data = `${JSON.stringify(this.budgetsFile, null, 2)}\n`;
    const run = this.writes.then(() => writeFileAtomic(join(this.ctx.stateDir, 'budgets.json'), data, { mode: 0o600 }));
    this.writes = run.catch(() => undefined);
    return run;
  }

  /** The budgets 80% or 100% spent. `running`: the teams that can still spend (an ended team's budget needs nothing). */
  needs(running: (team: string) => boolean): NeedItem[] {
    const f = this.budgetsFile;
    const teams = Object.entries(f.teams)
      .filter(([team]) => running(team) && this.has(team))
      .map(([team, budgetUsd]) => ({ team, budgetUsd, spentUsd: this.report(team).total.costUsd ?? pricedSpend(this.tallyOf(team)!, this.table) }));
    let daily: Parameters<typeof budgetNeeds>[0]['daily'];
    if (f.dailyUsd !== undefined) {
      const today = dayOf(this.ctx.now());
      let spentUsd = 0;
      let top = { team: '', usd: -1 };
      for (const team of this.teams()) {
        let usd = 0;
        for (const c of this.tallyOf(team)!.allCells()) if (dayOf(c.hour) === today) usd += cellCost(c, this.table) ?? 0;
        spentUsd += usd;
        if (usd > top.usd) top = { team, usd };
      }
      daily = { date: today, spentUsd, budgetUsd: f.dailyUsd, topTeam: top.team };
    }
    let wrote = false;
    const items = budgetNeeds({ teams, daily }, (key: string, mark: BudgetMark) => {
      const marks = (f.crossed[key] ??= {});
      const at = marks[mark];
      if (at !== undefined) return at;
      wrote = true;
      return (marks[mark] = this.ctx.now());
    });
    // Unsaved, a crossing is announced again after a restart: a repeated notice, nothing lost.
    if (wrote) void this.saveBudgets().catch(() => {});
    return items;
  }
}

function messagesOf(t: UsageTally): number {
  let n = 0;
  for (const c of t.allCells()) n += c.messages;
  return n;
}

/** What the priced models cost (a budget is judged on what is known; unpriced tokens are shown as such). */
function pricedSpend(t: UsageTally, table: Readonly<PriceTable>): number {
  let usd = 0;
  for (const c of t.allCells()) usd += cellCost(c, table) ?? 0;
  return usd;
}
