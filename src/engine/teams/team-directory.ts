// Every team the engine knows: the running ones under the teams root and the ended ones it
// remembers in the state dir. It opens each team (folds its journal, reads its config and
// inboxes), notices ends, reopens a team whose folder is back, closes ended teams it no longer
// needs, and tells the window what changed (the list, a roster, a problem). What each step
// does to a team is the lifecycle's (team-lifecycle.ts), which writes the team's core; the list
// of ended teams is ended-teams.ts.
import { lstat } from 'node:fs/promises';
import type { AppEvent } from '../../shared/contract.js';
import type { RosterEntry, TeamProblem, TeamSummary } from '../../shared/types.js';
import { senderFor } from '../claude/era.js';
import { DELETED_TEAM_FOLDER, ENDED_FOLDER_GONE } from '../claude/lifecycle.js';
import { isSafeSegment, teamDirName, teamPaths } from '../claude/paths.js';
import { listTeamIds } from '../claude/team-reader.js';
import type { Deliveries } from '../delivery/deliveries.js';
import { TeamNotFoundError } from '../errors.js';
import { forEachConcurrently } from '../files/concurrently.js';
import type { InboxIngest } from '../ingest/inbox-ingest.js';
import { readInboxMarks } from '../ingest/inbox-marks.js';
import { COMPACT_AFTER } from '../journal/journal.js';
import { TeamHistory } from '../journal/team-history.js';
import { journalDirOf, listJournalTeams, readTeamMeta } from '../journal/team-meta.js';
import type { Team } from '../team/team.js';
import { EndedTeams } from './ended-teams.js';
import { TeamLifecycle } from './team-lifecycle.js';
import { rosterOf, summaryOf } from './team-views.js';
import { unopenedSummary } from './unopened-teams.js';

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
  /** The summaries the window gets, each with what it adds (the terminal a team's lead runs in). */
  decorate: (teams: TeamSummary[]) => TeamSummary[];
  /** A team's roster was told again: what its members do follows from it. */
  onRoster: (team: Team) => void;
  /** An ended team was closed to save memory: what else holds it lets go (see ended-teams.ts). */
  onClose: (team: Team) => void;
  /** A team's journal got records on disk (the search index reads them). */
  onJournalWritten?: (dir: string) => void;
  /** The Claude Code version a team's lead runs or ran, as known now: remembered with the team. */
  claudeVersionOf?: (team: Team) => string | undefined;
}

export class TeamDirectory {
  private readonly open = new Map<string, Team>();
  private opening = new Map<string, Promise<Team | undefined>>();
  /** Teams found at start and not read yet (openInBackground), as their configs describe them. */
  private unopened = new Map<string, TeamSummary>();
  readonly globalProblems = new Map<string, TeamProblem>();
  /** Ended teams listed from the index, opened on demand, a few kept open. */
  readonly ended: EndedTeams;
  private readonly lifecycle: TeamLifecycle;

  constructor(private readonly ctx: DirectoryContext) {
    this.lifecycle = new TeamLifecycle({
      teamsRoot: ctx.teamsRoot,
      configDir: ctx.configDir,
      now: ctx.now,
      inboxesOf: (team) => ctx.inboxes.owners(team),
      problem: (p) => this.problem(p),
      senderName: ctx.senderName,
      claudeVersionOf: ctx.claudeVersionOf,
    });
    this.ended = new EndedTeams({
      stateDir: ctx.stateDir,
      teams: this.open,
      senderName: ctx.senderName,
      problem: (p) => this.problem(p),
      isOpening: (id) => this.opening.has(id),
      folderPresent: (id) => this.folderPresent(id),
      hasPending: (team) => ctx.delivery.hasPending(team),
      close: (team) => this.close(team),
    });
  }

  /** The open teams, by id. */
  get teams(): ReadonlyMap<string, Team> {
    return this.open;
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
    const running: Team[] = [];
    for (const id of ids) {
      if (this.ctx.stopping()) return;
      const team = this.open.get(id);
      if (!team) {
        if (await this.openTeam(id)) changed = true;
      } else if (team.ended && team.ended.reason === ENDED_FOLDER_GONE) {
        // A folder of that name is back (a legacy team made again): read it as running.
        await this.reopen(team);
        changed = true;
      } else running.push(team);
    }
    // Inboxes new in the teams already open (listed a few teams at a time).
    if (this.ctx.stopping()) return;
    await forEachConcurrently(newInboxes ? running : [], async (team) => {
      for (const o of await this.ctx.inboxes.listNew(team)) this.ctx.schedule(`i\u0000${team.id}\u0000${o}`);
    });
    if (await this.endGoneTeams(present)) changed = true;
    if (includeRemembered) {
      const opened = await this.openRemembered(present);
      if (opened === undefined) return;
      if (opened) changed = true;
    }
    if (changed) this.announceTeams();
    await this.ended.evict();
  }

  private async folderPresent(id: string): Promise<boolean> {
    try {
      return (await lstat(teamPaths(this.ctx.teamsRoot, id).dir)).isDirectory();
    } catch {
      return false;
    }
  }

  openTeam(id: string): Promise<Team | undefined> {
    // A `.deleted-<uuid>` folder is a team Claude is removing, never one to open.
    if (!isSafeSegment(id) || DELETED_TEAM_FOLDER.test(id)) return Promise.resolve(undefined);
    const existing = this.open.get(id);
    if (existing) return Promise.resolve(existing);
    let p = this.opening.get(id);
    if (!p) {
      p = this.doOpenTeam(id).finally(() => {
        this.opening.delete(id);
        // Listed from its config until now: the window gets the team as read.
        if (this.unopened.delete(id)) {
          this.announceTeams();
          const team = this.open.get(id);
          if (team) this.announceRoster(team);
        }
        this.ended.touch(id);
        void this.ended.evict();
      });
      this.opening.set(id, p);
    }
    return p;
  }

  private async doOpenTeam(id: string): Promise<Team | undefined> {
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
    const team = this.lifecycle.create(id, history, meta);
    if (opened.tornBytes > 0) {
      this.problem({ kind: 'journal', file: `journal/${id}`, message: `recovered from a crash: cut ${opened.tornBytes} bytes of an unfinished journal line` }, false);
    }
    this.open.set(id, team);
    if (folder) {
      await this.lifecycle.readConfig(team);
      await this.ctx.inboxes.list(team);
      this.lifecycle.classify(team);
    }
    // Presence, reply and answer facts from history (after the era is known).
    for (const o of team.history.observed.values()) team.facts.noteObserved(o, team.era);
    if (folder) {
      await this.ctx.inboxes.openAll(team, marks);
      this.lifecycle.rebuildMembers(team);
      // Running (again, if it was listed as ended), unless its lead is gone already: then it
      // ended while no Teamdeck watched, and is dated by its own files, not by this look.
      this.ended.forget(id);
      const reason = this.lifecycle.endReason(team, true);
      if (reason) await this.end(team, reason, false, true);
    } else if (this.lifecycle.endedFromMemory(team)) await this.lifecycle.dateUnwatchedEnd(team);
    this.lifecycle.watchTranscripts(team);
    // Opened on demand after it ended: what its transcripts got meanwhile is read soon.
    if (!folder && team.transcripts) this.ctx.schedule('seen');
    this.ctx.delivery.recover(team);
    await this.lifecycle.remember(team);
    if (team.history.records > COMPACT_AFTER && team.history.segmentRecords > COMPACT_AFTER / 2) await this.compactJournal(team, false);
    return team;
  }

  /** A team folder of an ended team's name is there again: read it as a running team. */
  private async reopen(team: Team): Promise<void> {
    this.lifecycle.reopen(team);
    this.ended.forget(team.id);
    await this.lifecycle.readConfig(team);
    await this.ctx.inboxes.list(team);
    await this.ctx.inboxes.readAll(team);
    this.lifecycle.rebuildMembers(team);
    await this.lifecycle.remember(team);
    this.announceRoster(team);
  }

  /** An ended team closed to save memory (ended-teams.ts decides which): nothing holds it after this. */
  private async close(team: Team): Promise<void> {
    this.open.delete(team.id);
    await this.ctx.delivery.forget(team);
    this.ctx.onClose(team);
    // Every append already had its answer (a failed one was its caller's to tell): closing loses nothing.
    await team.history.close().catch(() => {});
  }

  /** The open teams no longer under the root whose folder is really gone have ended; true if any did. */
  private async endGoneTeams(present: Set<string>): Promise<boolean> {
    let changed = false;
    for (const team of this.open.values()) {
      if (!present.has(team.id) && !team.ended && !(await this.folderPresent(team.id))) {
        await this.end(team, ENDED_FOLDER_GONE);
        changed = true;
      }
    }
    return changed;
  }

  /**
   * At start: the teams with a journal and no folder. Ended teams are listed from the index; only
   * those it does not know (ended while Teamdeck was away) or with sends still waiting are opened.
   * True if one was opened; undefined when the engine is stopping (the scan ends there).
   */
  private async openRemembered(present: Set<string>): Promise<boolean | undefined> {
    const remembered = (await listJournalTeams(this.ctx.stateDir)).filter((id) => !present.has(id));
    await this.ended.load(remembered);
    let changed = false;
    for (const id of remembered) {
      if (this.ctx.stopping()) return undefined;
      if (!this.open.has(id) && !this.ended.listOnly(id) && (await this.openTeam(id))) changed = true;
    }
    return changed;
  }

  /**
   * Reads the team's config.json; `announce`: what follows from it is worked out and told too
   * (its era, whether its lead still runs, the transcripts to follow, the roster, and what
   * waits for a member that left).
   */
  async readConfig(team: Team, announce: boolean): Promise<void> {
    await this.lifecycle.readConfig(team);
    if (!announce) return;
    this.lifecycle.classify(team);
    this.checkLiveness(team, false);
    this.lifecycle.watchTranscripts(team);
    this.refreshMembers(team);
    // A member that left the config never reads again: what waits for it is judged now.
    this.ctx.delivery.kickAll(team);
    await this.lifecycle.remember(team);
  }

  /**
   * A current-era team whose lead's process is gone has ended, though Claude left its folder.
   * `startToo`: a reused pid is told apart too (a read of /proc/<pid>/stat; else one signal probe).
   */
  checkLiveness(team: Team, announce = true, startToo = true): void {
    const reason = this.lifecycle.endReason(team, startToo);
    if (reason) void this.end(team, reason, announce);
  }

  /**
   * The team ended: its members with it; what waits for it becomes undeliverable. `unwatched`:
   * noticed at Teamdeck's first look, so it ended before, at its last sign of life.
   */
  private async end(team: Team, reason: string, announce = true, unwatched = false): Promise<void> {
    if (!this.lifecycle.end(team, reason)) return;
    if (unwatched) await this.lifecycle.dateUnwatchedEnd(team);
    this.ctx.delivery.kickAll(team);
    await this.lifecycle.remember(team);
    this.ended.note(team);
    if (!announce) return;
    this.announceRoster(team);
    this.announceTeams();
  }

  /**
   * The Claude Code version the team's lead runs became known or changed: remembered with the
   * team (an ended team's rows are not read again after a restart), its ended entry follows, and
   * the list says it.
   */
  async versionChanged(team: Team): Promise<void> {
    await this.recorded(team);
    if (team.ended) this.announceTeamsSoon();
    else this.announceTeams();
  }

  /**
   * The team's record gained messages from its transcripts: what Teamdeck remembers of it follows
   * (an ended team first read from its transcripts had nothing worth a team.json before), and an
   * ended team's entry counts them.
   */
  async recorded(team: Team): Promise<void> {
    await this.lifecycle.remember(team);
    this.ended.note(team);
  }

  /** Current era: agents seen only in transcripts (a teammate gone from config) join the roster; true if any did. */
  addTranscriptAgents(team: Team, agents: Iterable<string>): boolean {
    return this.lifecycle.addTranscriptAgents(team, agents);
  }

  /**
   * Compacts the team's journal. One that cannot be (a text it cannot read back, a full disk) is
   * the team's problem, and the journal goes on as it is: nothing of the history is lost by it.
   */
  async compactJournal(team: Team, announce: boolean): Promise<void> {
    try {
      await team.history.compact();
    } catch (e) {
      this.teamProblem(team, 'journal-compaction', { kind: 'journal', file: `journal/${team.id}`, message: (e as Error).message }, announce);
    }
  }

  /** Someone new spoke, or a member shut down or left: the roster is worked out and told again. */
  refreshMembers(team: Team): void {
    this.lifecycle.rebuildMembers(team);
    this.announceRoster(team);
    this.announceTeams();
  }

  teamProblem(team: Team, key: string, p: TeamProblem, announce: boolean): void {
    if (team.problems.set(key, p) && announce) {
      this.ctx.emit({ type: 'problem', problem: p });
      this.announceTeams();
    }
  }

  /** The team's problem under `key` is gone; the teams list is told when `announce`. */
  problemGone(team: Team, key: string, announce: boolean): void {
    if (team.problems.delete(key) && announce) this.announceTeams();
  }

  problem(p: TeamProblem, announce = true): void {
    this.globalProblems.set(`${p.kind}:${p.file}`, p);
    if (announce) this.ctx.emit({ type: 'problem', problem: p });
  }

  async resolveTeam(name: string): Promise<Team> {
    const candidates = [name, teamDirName(name)];
    for (const c of candidates) {
      if (!isSafeSegment(c)) continue;
      // A team still being read is waited for: its roster and history are not complete yet.
      const team = this.opening.has(c) ? await this.opening.get(c) : (this.open.get(c) ?? (await this.openTeam(c)));
      if (team) {
        this.ended.touch(team.id);
        return team;
      }
    }
    for (const team of this.open.values()) if (team.config?.name === name) return team;
    // An ended team listed under that (config) name, opened on demand.
    const listed = this.ended.listedByName(name);
    const ended = listed ? await this.openTeam(listed.id) : undefined;
    if (ended) return ended;
    for (const c of candidates) {
      const broken = this.globalProblems.get(`journal:journal/${c}`);
      if (broken && !this.open.has(c)) throw new TeamNotFoundError(`team ${c} is unavailable: ${broken.message}`);
    }
    throw new TeamNotFoundError(`no team ${JSON.stringify(name)} in ${this.ctx.teamsRoot}`);
  }

  rosterOf(team: Team): RosterEntry[] {
    return rosterOf(team, this.ctx.now(), this.ctx.idleMs());
  }

  /** Tells the window the team's roster, and what its members do follows. */
  announceRoster(team: Team): void {
    this.ctx.emit({ type: 'roster', team: team.id, roster: this.rosterOf(team) });
    this.ctx.onRoster(team);
  }

  /** Tells the window the list of teams. */
  announceTeams(): void {
    if (this.teamsSoon) clearTimeout(this.teamsSoon);
    this.teamsSoon = undefined;
    this.ctx.emit({ type: 'teams', teams: this.summaries() });
  }

  private teamsSoon: NodeJS.Timeout | undefined;

  /**
   * The list is told within a quarter of a second, once for every change meanwhile: the import
   * of teams found in transcripts adds them by the hundred, and told at each (twice: its version,
   * its end) the whole list went to the window 600 times for 300 teams.
   */
  announceTeamsSoon(): void {
    if (this.teamsSoon) return;
    this.teamsSoon = setTimeout(() => this.announceTeams(), 250);
    this.teamsSoon.unref?.();
  }

  summaryOf(team: Team): TeamSummary {
    return summaryOf(team, this.ctx.senderName());
  }

  /** Every team the window lists: open, found and not read yet, and ended ones from the index. */
  summaries(): TeamSummary[] {
    const unopened = [...this.unopened.values()].filter((s) => !this.open.has(s.id));
    return this.ctx.decorate(
      [...this.open.values()]
        .map((team) => this.summaryOf(team))
        .concat(unopened.map((s) => ({ ...s, sendAs: senderFor(s.era, this.ctx.senderName()) })))
        .concat(this.ended.summaries().filter((s) => !this.unopened.has(s.id)))
        .sort((a, b) => a.id.localeCompare(b.id)),
    );
  }
}
