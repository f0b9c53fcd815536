// The usage calls of the facade (docs/usage.md): one team's figures or every team's, budgets and
// prices. The tally itself is usage/usage-book.ts; this module only resolves names and makes a
// one-shot command's figures whole.
import type { AllUsage, BudgetRequest, Budgets, ModelPrice, PriceInfo, UsageRequest } from '../../shared/usage-types.js';
import { TeamNotFoundError } from '../errors.js';
import type { Team } from '../team/team.js';
import { dayStart } from '../usage/report.js';
import { rosterOrder, type EngineParts } from './engine-parts.js';
import { SendRefusedError } from './service-types.js';

export interface UsageCallsContext {
  parts: EngineParts;
  /** A team by id or config name, else a not-found error. */
  resolve(team: string): Promise<Team>;
  /** True when the engine keeps reading (watch, serve): its figures are already current. */
  watching(): boolean;
}

export class UsageCalls {
  constructor(private readonly ctx: UsageCallsContext) {}

  private get book() {
    return this.ctx.parts.usage;
  }

  /** One team's usage (by id or config name), or every team's with the days across them. */
  async usage(req: UsageRequest): Promise<AllUsage> {
    const since = req.since === undefined ? undefined : dayStart(req.since);
    if (since !== undefined && Number.isNaN(since)) throw new SendRefusedError(`--since: ${JSON.stringify(req.since)} is not a day (YYYY-MM-DD)`);
    if (!this.ctx.watching()) await this.readTranscriptsToEnd();
    const order = (team: string) => rosterOrder(this.ctx.parts, team);
    if (req.team === undefined) return this.book.all({ since, order, series: true });
    let team = req.team;
    if (!this.book.has(team)) {
      // A team this engine knows is named by its id; an imported or ended one by its tally's.
      try {
        team = (await this.ctx.resolve(req.team)).id;
      } catch (e) {
        if (!(e instanceof TeamNotFoundError) || !this.book.has(req.team)) throw e;
      }
    }
    const all = this.book.all({ since, order, series: false });
    return { ...all, teams: [this.book.report(team, { since, order: order(team), series: true })] };
  }

  /**
   * A one-shot command's figures are whole: its transcripts are read until a read adds nothing
   * (one read takes at most a few MB of each file).
   */
  private async readTranscriptsToEnd(): Promise<void> {
    await this.ctx.parts.reading.settled();
    for (let i = 0; i < 10_000; i++) {
      const before = this.book.version;
      await this.ctx.parts.pollTranscripts();
      if (this.book.version === before) return;
    }
  }

  async setBudget(req: BudgetRequest): Promise<Budgets> {
    let r = req;
    if (!('daily' in req)) {
      // A budget names a team that exists (running or ended), by its id.
      const id = this.book.has(req.team) ? req.team : (await this.ctx.resolve(req.team)).id;
      r = { team: id, usd: req.usd };
    }
    const out = await this.book.setBudget(r);
    this.ctx.parts.live.scheduleNeeds();
    return out;
  }

  async prices(): Promise<PriceInfo> {
    return this.book.prices();
  }

  setPrices(table: Record<string, ModelPrice>): Promise<PriceInfo> {
    return this.book.setPrices(table);
  }
}
