// Every team the engine knows: the running ones under the teams root and the ended ones it
// remembers in the state dir. It opens each team (folds its journal, reads its config and
// inboxes), tells its era, and answers the views (summaries, rosters). How a team ends, and what
// is remembered of it, is team-ending.ts; the list of ended teams, ended-teams.ts.
import { lstat } from 'node:fs/promises';
import type { AppEvent } from '../../shared/contract.js';
import type { RosterEntry, TeamProblem, TeamSummary } from '../../shared/types.js';
import { classifyEra, leadReadsInbox, senderFor } from '../claude/era.js';
import { DELETED_TEAM_FOLDER, ENDED_FOLDER_GONE } from '../claude/lifecycle.js';
import { inboxFileStem, isSafeSegment, teamDirName, teamPaths } from '../claude/paths.js';
import { buildMembers, listTeamIds, USER_INBOX } from '../claude/team-reader.js';
import { forEachConcurrently } from '../files/concurrently.js';
import type { Deliveries } from '../delivery/deliveries.js';
import { COMPACT_AFTER } from '../journal/journal.js';
import { TeamHistory } from '../journal/team-history.js';
import type { EndedTeams } from './ended-teams.js';
import type { InboxIngest } from '../ingest/inbox-ingest.js';
import { readInboxMarks } from '../ingest/inbox-marks.js';
import { journalDirOf, listJournalTeams, mergeMembers, readTeamMeta } from '../journal/team-meta.js';
import type { TranscriptFindings } from '../claude/transcripts.js';
import { memberState } from './presence.js';
import { loadConfig, watchTranscripts } from './team-config.js';
import { checkLiveness, endedFromMemory, endedTeamsOf, endGoneTeams, openEndedByName, openRemembered, rememberTeam, reopenTeam } from './team-ending.js';
import { TeamRuntime } from '../team/team-runtime.js';
import { unopenedSummary } from './unopened-teams.js';
import { TeamNotFoundError } from '../errors.js';

export { TeamNotFoundError };

export interface DirectoryContext {
  teamsRoot: string;
  stateDir: string;
  /** Claude's config dir: sessions, projects (transcripts), tasks. */
  configDir: string;
  now: () => number;
  emit: (e: AppEvent) => void;
  delivery: Deliveries;
  /** The teams' inboxes: which there are, and reading them into the history. */
  inboxes: InboxIngest;
  senderName: () => string;
  idleMs: () => number;
  stopping: () => boolean;
  /** Schedules a coalesced re-read (`i\0team\0owner`, `c\0team`, `scan`, `seen`). */
  schedule: (key: string) => void;
  /** Transcripts get looked at soon: a delivered message waits to be seen. */
  scheduleSeenPoll: () => void;
  /** Every row a transcript poll read, per agent (live activity and timelines). */
  onTranscriptRows?: (rt: TeamRuntime, rows: TranscriptFindings['rows']) => void;
  /** An ended team was closed to save memory: what else holds it lets go (see ended-teams.ts). */
  onEvict?: (rt: TeamRuntime) => void;
  /** A team's journal got records on disk (the search index reads them). */
  onJournalWritten?: (dir: string) => void;
}

export class TeamDirectory {
  readonly teams = new Map<string, TeamRuntime>();
  private opening = new Map<string, Promise<TeamRuntime | undefined>>();
  /** Teams found at start and not read yet (openInBackground), as their configs describe them. */
  private unopened = new Map<string, TeamSummary>();
  readonly globalProblems = new Map<string, TeamProblem>();
  /** Ended teams listed from the index, opened on demand, a few kept open. */
  readonly ended: EndedTeams;

  constructor(readonly ctx: DirectoryContext) {
    this.ended = endedTeamsOf(this);
  }

  get teamsRoot(): string {
    return this.ctx.teamsRoot;
  }
  get stateDir(): string {
    return this.ctx.stateDir;
  }

  /** The team is being opened right now (its history is not complete yet). */
  isOpening(id: string): boolean {
    return this.opening.has(id);
  }

  /** The teams under the root, listed from their configs before their histories are read. */
  async listUnopened(): Promise<void> {
    const ids = await listTeamIds(this.ctx.teamsRoot);
    // The ended teams too, from their index: the window's first list is the whole list.
    const present = new Set(ids);
    await this.ended.load((await listJournalTeams(this.ctx.stateDir)).filter((id) => !present.has(id)));
    for (const id of ids) this.unopened.set(id, await unopenedSummary(this.ctx.teamsRoot, id, this.ctx.senderName));
  }

  /**
   * Opens every team under the root not open yet, and notices teams whose folder is gone: they
   * ended. At start, teams known only from the state dir (ended while Teamdeck was away) too.
   * `newInboxes` (default): the open teams' inbox folders are listed for inboxes new in them.
   */
  async scanTeams(includeRemembered: boolean, newInboxes = true): Promise<void> {
    // In the order the window lists them, so the team it opens first is read first.
    const ids = (await listTeamIds(this.ctx.teamsRoot)).sort((a, b) => a.localeCompare(b));
    const present = new Set(ids);
    let changed = false;
    const open: TeamRuntime[] = [];
    for (const id of ids) {
      if (this.ctx.stopping()) return;
      const rt = this.teams.get(id);
      if (!rt) {
        if (await this.openTeam(id)) changed = true;
      } else if (rt.ended && rt.ended.reason === ENDED_FOLDER_GONE) {
        // A folder of that name is back (a legacy team made again): read it as running.
        if (await reopenTeam(this, rt)) changed = true;
      } else open.push(rt);
    }
    // Inboxes new in the teams already open (listed a few teams at a time).
    if (this.ctx.stopping()) return;
    await forEachConcurrently(newInboxes ? open : [], async (rt) => {
      for (const o of await this.ctx.inboxes.listNew(rt)) this.ctx.schedule(`i\u0000${rt.id}\u0000${o}`);
    });
    if (await endGoneTeams(this, present)) changed = true;
    if (includeRemembered) {
      const opened = await openRemembered(this, present);
      if (opened === undefined) return;
      if (opened) changed = true;
    }
    if (changed) this.ctx.emit({ type: 'teams', teams: this.summaries() });
    await this.ended.evict();
  }

  async folderPresent(id: string): Promise<boolean> {
    try {
      return (await lstat(teamPaths(this.ctx.teamsRoot, id).dir)).isDirectory();
    } catch {
      return false;
    }
  }

  openTeam(id: string): Promise<TeamRuntime | undefined> {
    // A `.deleted-<uuid>` folder is a team Claude is removing, never one to open.
    if (!isSafeSegment(id) || DELETED_TEAM_FOLDER.test(id)) return Promise.resolve(undefined);
    const existing = this.teams.get(id);
    if (existing) return Promise.resolve(existing);
    let p = this.opening.get(id);
    if (!p) {
      p = this.doOpenTeam(id).finally(() => {
        this.opening.delete(id);
        // Listed from its config until now: the window gets the team as read.
        if (this.unopened.delete(id)) {
          this.ctx.emit({ type: 'teams', teams: this.summaries() });
          const rt = this.teams.get(id);
          if (rt) this.ctx.emit({ type: 'roster', team: id, roster: this.rosterOf(rt) });
        }
        this.ended.touch(id);
        void this.ended.evict();
      });
      this.opening.set(id, p);
    }
    return p;
  }

  async doOpenTeam(id: string): Promise<TeamRuntime | undefined> {
    const folder = await this.folderPresent(id);
    const journalDir = journalDirOf(this.ctx.stateDir, id);
    const meta = await readTeamMeta(journalDir);
    // An ended team is listed only while Teamdeck remembers something of it (and a name that
    // is neither a folder nor a journal gets no journal made for it).
    if (!folder && !meta && !(await lstat(journalDir).then(() => true, () => false))) return undefined;
    let opened;
    try {
      opened = await TeamHistory.open(journalDir, { onWritten: this.ctx.onJournalWritten });
    } catch (e) {
      // A journal we cannot fold (or even open) is never guessed at: the team is shown as
      // broken, and nothing is sent to it until a human looks. The other teams carry on.
      this.problem({ kind: 'journal', file: `journal/${id}`, message: (e as Error).message });
      return undefined;
    }
    const { history } = opened;
    if (!folder && !meta && history.records === 0) {
      await history.close();
      return undefined;
    }
    // Where the journal ends before anything is added: the inbox marks are only good for that journal.
    const marks = folder ? await readInboxMarks(journalDir, await history.position()) : undefined;
    const rt = new TeamRuntime(id, history);
    rt.meta = meta;
    if (meta) rt.era = meta.era;
    if (opened.tornBytes > 0) {
      this.problem({ kind: 'journal', file: `journal/${id}`, message: `recovered from a crash: cut ${opened.tornBytes} bytes of an unfinished journal line` }, false);
    }
    this.teams.set(id, rt);
    if (folder) {
      await this.loadConfig(rt, false);
      const owners = await this.ctx.inboxes.list(rt);
      rt.era = classifyEra({ teamId: id, config: rt.config, hasUserInbox: owners.includes(USER_INBOX) });
    }
    // Presence, reply and answer facts from history (after the era is known).
    for (const o of rt.history.observed.values()) rt.facts.noteObserved(o, rt.era);
    if (folder) {
      await this.ctx.inboxes.openAll(rt, marks);
      this.rebuildMembers(rt);
      // Running (again, if it was listed as ended): checkLiveness may end it right away.
      this.ended.forget(id);
      this.checkLiveness(rt, false);
    } else endedFromMemory(this, rt, meta);
    watchTranscripts(this, rt);
    // Opened on demand after it ended: what its transcripts got meanwhile is read soon.
    if (!folder && rt.transcripts) this.ctx.schedule('seen');
    this.ctx.delivery.recover(rt);
    await rememberTeam(this, rt);
    if (rt.history.records > COMPACT_AFTER && rt.history.segmentRecords > COMPACT_AFTER / 2) await this.compactJournal(rt, false);
    return rt;
  }

  /**
   * Compacts the team's journal. One that cannot be (a text it cannot read back, a full disk) is
   * the team's problem, and the journal goes on as it is: nothing of the history is lost by it.
   */
  async compactJournal(rt: TeamRuntime, announce: boolean): Promise<void> {
    try {
      await rt.history.compact();
    } catch (e) {
      this.teamProblem(rt, 'journal-compaction', { kind: 'journal', file: `journal/${rt.id}`, message: (e as Error).message }, announce);
    }
  }

  rebuildMembers(rt: TeamRuntime): void {
    rt.members = mergeMembers(buildMembers(rt.config, [...this.ctx.inboxes.owners(rt)], rt.history.observed.values()), rt.meta?.members ?? []);
  }

  /** Reads the team's config.json (team-config.ts); `announce`: what follows from it is told too. */
  loadConfig(rt: TeamRuntime, announce: boolean): Promise<void> {
    return loadConfig(this, rt, announce);
  }

  /** Current era: agents seen only in transcripts (a teammate gone from config) join the roster. */
  addTranscriptAgents(rt: TeamRuntime, agents: Iterable<string>): boolean {
    const known = new Set(rt.members.map((m) => m.name));
    const fresh = [...agents].filter((a) => !known.has(a) && a !== '');
    if (fresh.length === 0) return false;
    rt.members = [...rt.members, ...fresh.map((name) => ({ name, inboxName: inboxFileStem(name), isLead: false, inConfig: false }))];
    return true;
  }

  /** A current-era team whose lead's process is gone has ended (see team-ending.ts). */
  checkLiveness(rt: TeamRuntime, announce = true, startToo = true): void {
    checkLiveness(this, rt, announce, startToo);
  }

  refreshMembers(rt: TeamRuntime): void {
    this.rebuildMembers(rt);
    this.ctx.emit({ type: 'roster', team: rt.id, roster: this.rosterOf(rt) });
    this.ctx.emit({ type: 'teams', teams: this.summaries() });
  }

  teamProblem(rt: TeamRuntime, key: string, p: TeamProblem, announce: boolean): void {
    if (rt.problems.set(key, p) && announce) {
      this.ctx.emit({ type: 'problem', problem: p });
      this.ctx.emit({ type: 'teams', teams: this.summaries() });
    }
  }

  /** The team's problem under `key` is gone; the teams list is told when `announce`. */
  problemGone(rt: TeamRuntime, key: string, announce: boolean): void {
    if (rt.problems.delete(key) && announce) this.ctx.emit({ type: 'teams', teams: this.summaries() });
  }

  problem(p: TeamProblem, announce = true): void {
    this.globalProblems.set(`${p.kind}:${p.file}`, p);
    if (announce) this.ctx.emit({ type: 'problem', problem: p });
  }

  async resolveTeam(team: string): Promise<TeamRuntime> {
    const candidates = [team, teamDirName(team)];
    for (const c of candidates) {
      if (!isSafeSegment(c)) continue;
      // A team still being read is waited for: its roster and history are not complete yet.
      const rt = this.opening.has(c) ? await this.opening.get(c) : (this.teams.get(c) ?? (await this.openTeam(c)));
      if (rt) {
        this.ended.touch(rt.id);
        return rt;
      }
    }
    for (const rt of this.teams.values()) if (rt.config?.name === team) return rt;
    const ended = await openEndedByName(this, team);
    if (ended) return ended;
    for (const c of candidates) {
      const broken = this.globalProblems.get(`journal:journal/${c}`);
      if (broken && !this.teams.has(c)) throw new TeamNotFoundError(`team ${c} is unavailable: ${broken.message}`);
    }
    throw new TeamNotFoundError(`no team ${JSON.stringify(team)} in ${this.ctx.teamsRoot}`);
  }

  rosterOf(rt: TeamRuntime): RosterEntry[] {
    const now = this.ctx.now();
    return rt.members.map((m) => {
      const lastEventAt = rt.facts.lastEventOf(m.name);
      // A team that ended ended every member with it.
      const terminated = !!rt.ended || rt.goneReason(m.name) !== undefined;
      const e: RosterEntry = { ...m, state: memberState({ lastEventAt, terminated }, now, this.ctx.idleMs()) };
      if (lastEventAt !== undefined) e.lastEventAt = lastEventAt;
      return e;
    });
  }

  summaryOf(rt: TeamRuntime): TeamSummary {
    return rt.summary(senderFor(rt.era, this.ctx.senderName()), leadReadsInbox(rt.era, rt.config, rt.lead?.name));
  }

  summaries(): TeamSummary[] {
    const unopened = [...this.unopened.values()].filter((s) => !this.teams.has(s.id));
    return [...this.teams.values()]
      .map((rt) => this.summaryOf(rt))
      .concat(unopened.map((s) => ({ ...s, sendAs: senderFor(s.era, this.ctx.senderName()) })))
      .concat(this.ended.summaries().filter((s) => !this.unopened.has(s.id)))
      .sort((a, b) => a.id.localeCompare(b.id));
  }
}
