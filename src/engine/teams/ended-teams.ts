// Ended teams, listed without their histories: the index (journal/ended-index.ts) names each one
// and what its line in the team list shows; a team's journal is folded only when something asks
// for its history (TeamDirectory.openTeam), and at most a few ended teams stay open: the least
// recently asked for is closed (journal closed, runtime dropped) once nothing of it is pending.
import type { TeamProblem, TeamSummary } from '../../shared/types.js';
import { leadReadsInbox, senderFor } from '../claude/era.js';
import { EndedIndex, type EndedEntry } from '../journal/ended-index.js';
import type { Team } from '../team/team.js';

/** Ended teams kept open beyond the running ones: the ones last asked for. */
export const OPEN_ENDED_TEAMS = 3;

export interface EndedTeamsContext {
  stateDir: string;
  /** The open teams (the directory's). */
  teams: ReadonlyMap<string, Team>;
  senderName: () => string;
  problem: (p: TeamProblem) => void;
  /** A team is being opened right now: it is not evicted. */
  isOpening: (id: string) => boolean;
  /**
   * Its folder is still under the teams root (a killed lead's): such a team is never evicted, or
   * the next scan would open it again as a folder and mark it ended anew.
   */
  folderPresent: (id: string) => Promise<boolean>;
  /** Something of the team's is still on its way (a queue holds a message): it is not closed. */
  hasPending: (team: Team) => boolean;
  /** Closes the team (the directory's): nothing holds it after this, its journal is closed. */
  close: (team: Team) => Promise<void>;
  /** How many ended teams stay open (default OPEN_ENDED_TEAMS). */
  keepOpen?: number;
}

/** What a runtime's history says for its index entry (the team has ended). */
export function entryOf(rt: Team): EndedEntry {
  let last = 0;
  let pending = 0;
  for (const s of rt.history.sent.values()) {
    last = Math.max(last, s.queuedAt);
    if (s.deliveredAt === undefined && s.undeliverableAt === undefined) pending++;
  }
  for (const o of rt.history.observed.values()) last = Math.max(last, Date.parse(o.timestamp) || o.at);
  const e: EndedEntry = {
    id: rt.id,
    name: rt.name,
    era: rt.era,
    memberCount: rt.members.length,
    endedAt: rt.ended!.at,
    endedReason: rt.ended!.reason,
    messages: rt.history.sent.size + rt.history.observed.size,
  };
  if (rt.createdAt !== undefined) e.createdAt = rt.createdAt;
  // As remembered in team.json (the lifecycle writes it with the version known then).
  if (rt.meta?.claudeVersion !== undefined) e.claudeVersion = rt.meta.claudeVersion;
  if (last > 0) e.lastMessageAt = last;
  if (pending > 0) e.pending = pending;
  return e;
}

export class EndedTeams {
  readonly index: EndedIndex;
  /** Open ended teams, least recently asked for first. */
  private recent: string[] = [];
  private evicting = false;
  private loaded = false;

  constructor(private readonly ctx: EndedTeamsContext) {
    this.index = new EndedIndex(ctx.stateDir, ctx.problem);
  }

  /** Reads the index once (at start); `journals`: the teams with a journal and no folder. */
  async load(journals: string[]): Promise<void> {
    if (this.loaded) return;
    this.loaded = true;
    const how = await this.index.load(journals);
    // An entry whose journal is gone (removed by hand) has no history left to show: dropped, said once.
    const have = new Set(journals);
    for (const id of [...this.index.entries.keys()]) {
      if (have.has(id) || (await this.ctx.folderPresent(id))) continue;
      this.index.delete(id);
      process.stderr.write(`teamdeck: ended team ${id} is no longer listed: its journal is gone from ${this.ctx.stateDir}\n`);
    }
    // Said once, where there was something to list (not on a state folder's first start).
    if (how !== 'read' && journals.length > 0) process.stderr.write(`teamdeck: ended-teams index ${how} from ${this.index.entries.size} team.json file(s) in ${this.ctx.stateDir}\n`);
  }

  /**
   * Whether a team with a journal and no folder is listed from the index alone at start. Not
   * when the index does not know it (it ended while Teamdeck was away) or sends wait in it:
   * those are opened, so their end is recorded and what waits turns undeliverable.
   */
  listOnly(id: string): boolean {
    const e = this.index.entries.get(id);
    return e !== undefined && !(e.pending! > 0);
  }

  /** The index entry of an ended team that is not open, else undefined. */
  listed(id: string): EndedEntry | undefined {
    return this.ctx.teams.has(id) ? undefined : this.index.entries.get(id);
  }

  /** A listed, not open team of that name (config name), for lookups by name. */
  listedByName(name: string): EndedEntry | undefined {
    for (const e of this.index.entries.values()) if (e.name === name && !this.ctx.teams.has(e.id)) return e;
    return undefined;
  }

  /** The team ended, or an ended team's history changed: its entry follows. */
  note(rt: Team): void {
    if (!rt.ended) return;
    this.index.put(entryOf(rt));
    this.touch(rt.id);
  }

  /** The team runs again (a folder of its name is back): no longer listed as ended. */
  forget(id: string): void {
    this.index.delete(id);
    this.recent = this.recent.filter((x) => x !== id);
  }

  /** An ended team's history was asked for: it stays open longest. */
  touch(id: string): void {
    const rt = this.ctx.teams.get(id);
    if (!rt?.ended) return;
    this.recent = this.recent.filter((x) => x !== id);
    this.recent.push(id);
  }

  /** Summaries of the ended teams that are listed and not open. */
  summaries(): TeamSummary[] {
    const out: TeamSummary[] = [];
    for (const e of this.index.entries.values()) {
      if (this.ctx.teams.has(e.id)) continue;
      const s: TeamSummary = {
        id: e.id,
        name: e.name,
        memberCount: e.memberCount,
        problems: [],
        era: e.era,
        state: 'ended',
        endedAt: e.endedAt,
        endedReason: e.endedReason,
        sendAs: senderFor(e.era, this.ctx.senderName()),
        leadReadsInbox: leadReadsInbox(e.era, undefined, undefined),
      };
      if (e.createdAt !== undefined) s.createdAt = e.createdAt;
      if (e.claudeVersion !== undefined) s.claudeVersion = e.claudeVersion;
      out.push(s);
    }
    return out;
  }

  /** The refusal of a send to a listed ended team (nothing is opened or written for it). */
  refusal(team: string): string | undefined {
    // An open team of that id or name answers for itself (checkTarget).
    if (this.ctx.teams.has(team)) return undefined;
    for (const rt of this.ctx.teams.values()) if (rt.config?.name === team) return undefined;
    const e = this.listed(team) ?? this.listedByName(team);
    return e ? `team ${e.id} has ended (${e.endedReason}); nothing can be sent to it` : undefined;
  }

  /**
   * Closes the ended teams beyond the few last asked for, once nothing of theirs is pending
   * (no outbox holds a message). Their entries are brought up to date first.
   */
  async evict(): Promise<void> {
    if (this.evicting) return;
    this.evicting = true;
    try {
      const keep = this.ctx.keepOpen ?? OPEN_ENDED_TEAMS;
      for (const rt of this.ctx.teams.values()) if (rt.ended && !this.recent.includes(rt.id)) this.recent.unshift(rt.id);
      this.recent = this.recent.filter((id) => this.ctx.teams.get(id)?.ended);
      const over = this.recent.slice(0, Math.max(0, this.recent.length - keep));
      for (const id of over) {
        const rt = this.ctx.teams.get(id);
        if (!rt?.ended || this.ctx.isOpening(id) || this.ctx.hasPending(rt)) continue;
        if (await this.ctx.folderPresent(id)) continue;
        // Still open, not being opened, and not asked for meanwhile.
        const place = this.recent.indexOf(id);
        if (this.ctx.teams.get(id) !== rt || this.ctx.isOpening(id) || place < 0 || place >= this.recent.length - keep) continue;
        this.index.put(entryOf(rt));
        this.recent = this.recent.filter((x) => x !== id);
        await this.ctx.close(rt);
      }
    } finally {
      this.evicting = false;
    }
  }

  /** At stop: every open ended team's entry up to date, and the index on disk. */
  async close(): Promise<void> {
    for (const rt of this.ctx.teams.values()) if (rt.ended) this.index.put(entryOf(rt));
    await this.index.flush();
  }
}
