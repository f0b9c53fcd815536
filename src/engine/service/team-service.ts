// The engine's facade: every shell (Electron main, the CLI, the browser host) uses this one
// class. It owns the state-dir lock, the event stream and the settings the parts read (the sender
// name, the idle threshold), and routes each call to the part that answers it; the parts are made
// and joined in engine-parts.ts: the directory (teams/, which teams there are, running or ended),
// the read schedule (when what is read: watcher, tick, safety net), the inbox ingest (ingest/),
// deliveries (delivery/), the member channels (which channel a send takes), the live views
// (live/) and the search index (search/).
import { dirname } from 'node:path';
import type { AppEvent, ExportFile, ExportRequest, SearchRequest, SearchResult } from '../../shared/contract.js';
import type { ActionVia, AnswerRequest, ChannelOption, LaunchRequest, LeadAction, MemberActivity, MemberInfo, NeedItem, PlanAnswerRequest, RosterEntry, SendRequest, SendResult } from '../../shared/types.js';
import type { DoctorReport, ImportStatus, TaskBoard, TeamProblem, TeamSummary, TerminalInfo, ThreadMessage, TimelineItem } from '../../shared/types.js';
import type { TerminalAvailability } from '../terminals/types.js';
import type { AllUsage, BudgetRequest, Budgets, ModelPrice, PriceInfo, UsageRequest } from '../../shared/usage-types.js';
import type { UsageBook } from '../usage/usage-book.js';
import { UsageCalls } from './usage-calls.js';
import { DEFAULT_SENDER_NAME, senderNameProblem } from '../claude/era.js';
import type { Deliveries } from '../delivery/deliveries.js';
import { inboxWritesSettled } from '../claude/inbox-writer.js';
import type { BackoffOptions } from '../delivery/outbox.js';
import { buildEngine, type EngineParts } from './engine-parts.js';
import { checkTarget, checkText, findMember } from '../delivery/send-checks.js';
import { buildExport } from '../history/export.js';
import type { InboxIngest } from '../ingest/inbox-ingest.js';
import { journalDirOf } from '../journal/team-meta.js';
import type { SearchIndex } from '../search/search-index.js';
import { feedOf, threadOf } from '../history/views.js';
import { readTextsOf } from '../journal/journal-texts.js';
import type { MemberChannels } from './member-channels.js';
import { DEFAULT_IDLE_THRESHOLD_MS } from '../teams/presence.js';
import type { ReadSchedule } from './read-schedule.js';
import { SendRefusedError, type TeamServiceApi, type TeamServiceOptions } from './service-types.js';
import type { LiveViews } from '../live/live-views.js';
import type { LeadActions } from './lead-actions.js';
import { acquireStateLock, tidyStateDir } from './state-lock.js';
import { TeamNotFoundError } from '../errors.js';
import type { TeamDirectory } from '../teams/team-directory.js';
import type { TranscriptImport } from '../teams/transcript-import.js';
import type { Team } from '../team/team.js';

export { TeamNotFoundError } from '../errors.js';
export { HUGE_INBOX_BYTES } from '../ingest/inbox-ingest.js';
export { MAX_TEXT_BYTES, MAX_SUMMARY_CHARS } from '../delivery/send-checks.js';
export { DEFAULT_MAX_PENDING } from './engine-parts.js';

export class TeamService implements TeamServiceApi {
  readonly teamsRoot: string;
  readonly stateDir: string;
  /** Claude's config dir (`~/.claude`): sessions, projects (transcripts) and tasks live here. */
  readonly configDir: string;
  private readonly now: () => number;
  private idleMs: number;
  private senderName: string;
  private readonly watchEnabled: boolean;
  private readonly delivery: Deliveries;
  /** The teams' inboxes, read into their histories. */
  private readonly inboxes: InboxIngest;
  private readonly dir: TeamDirectory;
  /** Activity, timelines, tasks and needs: Claude's files outside the teams root. */
  private readonly live: LiveViews;
  /** The hosted lead terminals and Claude's messaging sockets, and which one a send takes. */
  private readonly memberChannels: MemberChannels;
  /** The first read, the watcher, the tick and its safety net, the seen poll. */
  private readonly reading: ReadSchedule;
  private listeners = new Set<(e: AppEvent) => void>();
  private release: (() => Promise<void>) | undefined;
  private started = false;
  private stopping = false;
  /** Teams being read ahead (prepare), which stop() waits for. */
  private readonly preparing = new Set<Promise<unknown>>();
  /** Every team's history, searchable: follows the journals (search/). */
  private readonly searchIndex: SearchIndex;
  /** What each team spent, its prices and budgets (usage/). */
  private readonly usageBook: UsageBook;
  private readonly parts: EngineParts;
  private readonly usageCalls: UsageCalls;
  /** Teams found in Claude's transcripts (teams/transcript-import.ts). */
  private readonly importer: TranscriptImport;
  /** The import under way, which stop() waits for. */
  private importing: Promise<void> = Promise.resolve();
  /** Answers and interrupts typed into a lead's terminal for the user. */
  private readonly leadActions: LeadActions;

  /**
   * `rescanMs`: the tick (default 2 s): the leads' processes, the needs on the clock.
   * `safetyNetMs`: how often the safety net looks at every file while the watchers report no
   * trouble (default 15 ticks, 30 s).
   */
  constructor(opts: TeamServiceOptions & { backoff?: BackoffOptions; rescanMs?: number; safetyNetMs?: number }) {
    this.teamsRoot = opts.teamsRoot;
    this.stateDir = opts.stateDir;
    this.configDir = opts.configDir ?? dirname(opts.teamsRoot);
    this.now = opts.now ?? Date.now;
    this.idleMs = opts.idleThresholdMs ?? DEFAULT_IDLE_THRESHOLD_MS;
    this.senderName = opts.senderName ?? DEFAULT_SENDER_NAME;
    const problem = senderNameProblem(this.senderName);
    if (problem) throw new Error(problem);
    this.watchEnabled = opts.watch ?? true;
    const parts = buildEngine(
      { ...opts, configDir: this.configDir, now: this.now, watch: this.watchEnabled },
      {
        emit: (e) => this.emit(e),
        senderName: () => this.senderName,
        idleMs: () => this.idleMs,
        stopping: () => this.stopping,
      },
    );
    ({ memberChannels: this.memberChannels, delivery: this.delivery, inboxes: this.inboxes, dir: this.dir, searchIndex: this.searchIndex, live: this.live, reading: this.reading } = parts);
    ({ usage: this.usageBook, importer: this.importer, leadActions: this.leadActions } = parts);
    this.parts = parts;
    this.usageCalls = new UsageCalls({ parts, resolve: (t) => this.resolve(t), watching: () => this.watchEnabled });
    // Stuck messages and asks follow from messages and their states: the needs-you queue
    // listens to the engine's events like any listener.
    this.listeners.add((e) => {
      if (e.type === 'message' || e.type === 'delivery') this.live.scheduleNeeds();
    });
  }

  private get teams(): ReadonlyMap<string, Team> {
    return this.dir.teams;
  }

  // ---------------------------------------------------------------- lifecycle

  async start(): Promise<void> {
    if (this.started) return;
    this.release = await acquireStateLock(this.stateDir);
    this.started = true;
    await TeamService.tidyStateDir(this.stateDir);
    try {
      // Before any team is opened: its recovered typed messages need to know their terminal.
      await this.memberChannels.start();
      // Before the first read: its rows are counted into the tallies the state folder kept.
      await this.usageBook.load();
      await this.reading.firstRead();
      if (this.watchEnabled) {
        // After the teams are read: a first build of the index never slows the window's start.
        void Promise.resolve(this.reading.background).then(() => (this.stopping ? undefined : this.searchIndex.start()));
        this.reading.startWatching();
        // Teams found in Claude's transcripts, read after the first roster, in the background.
        this.importing = Promise.resolve(this.reading.background)
          .then(() => (this.stopping ? undefined : this.importer.run()))
          .catch((e: Error) => this.dir.problem({ kind: 'journal', file: 'journal', message: `reading the teams in Claude's transcripts stopped: ${e.message}` }));
      } else {
        // A one-shot command answers for every team there is, those only in transcripts too.
        await this.importer.run();
      }
    } catch (e) {
      await this.stop();
      throw e;
    }
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    await this.reading.halt();
    await this.importing;
    this.live.close();
    await this.memberChannels.stop();
    // A team being read in the background, or ahead for a page, finishes first: its journal is
    // closed below.
    await this.reading.background;
    await Promise.all(this.preparing);
    // The index reports its own problems; what it did not read, it reads at the next start.
    await this.searchIndex.stop().catch(() => {});
    await this.delivery.stop();
    // What the last sends left running after their answer: lock releases, inbox folder fsyncs.
    await inboxWritesSettled();
    await this.reading.settled();
    // usage/usage-book.ts says why a tally it could not write loses nothing.
    await this.usageBook.flush().catch(() => {});
    await this.dir.ended.close();
    for (const t of this.teams.values()) {
      // What saves the next start from reading inboxes the journal already holds (never needed for correctness).
      await this.inboxes.saveMarks(t, journalDirOf(this.stateDir, t.id)).catch(() => {});
      // Every append already had its answer (a failed one was its caller's to tell): closing loses nothing.
      await t.history.close().catch(() => {});
    }
    await this.release?.();
    this.release = undefined;
  }

  /** Inboxes read at the teams' openings, and those skipped as already in the journal (tests, benchmarks). */
  get inboxOpenings(): Readonly<{ read: number; skipped: number }> {
    return { ...this.inboxes.openings };
  }

  /** Waits until every scheduled re-read has run (tests and one-shot commands). */
  async settled(): Promise<void> {
    await this.reading.settled();
  }

  onEvent(listener: (event: AppEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every listener; what an event sets off is decided where it is emitted, not here. */
  private emit(e: AppEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        // a listener's failure is its own
      }
    }
  }

  setIdleThresholdMs(ms: number): void {
    this.idleMs = ms;
    for (const t of this.teams.values()) this.dir.announceRoster(t);
  }

  /** The sender name written on current-era teams from now on (refuses reserved names). */
  setSenderName(name: string): void {
    const problem = senderNameProblem(name);
    if (problem) throw new SendRefusedError(problem);
    this.senderName = name;
    this.dir.announceTeams();
  }

  // ---------------------------------------------------------------- delivery

  async send(req: SendRequest): Promise<SendResult> {
    checkText(req);
    // An ended team listed from the index is refused as it is: its history is not even opened.
    const ended = this.dir.ended.refusal(req.team);
    if (ended) throw new SendRefusedError(ended);
    // Everything from here to the journal append runs without yielding when the team is
    // already open, so concurrent sends are journaled (and so delivered) in call order.
    let rt: Team;
    try {
      rt = (!this.dir.isOpening(req.team) && this.teams.get(req.team)) || (await this.resolve(req.team));
    } catch (e) {
      if (e instanceof TeamNotFoundError) throw new SendRefusedError(e.message);
      throw e;
    }
    const member = checkTarget(rt, this.teamsRoot, req.to);
    const { channel, from } = this.memberChannels.choose(rt, member, req.channel);
    return this.delivery.send(rt, member, req.text, req.summary, from, channel);
  }

  async channels(team: string, member: string): Promise<ChannelOption[]> {
    const rt = await this.resolve(team);
    return this.memberChannels.options(rt, this.memberOf(rt, member));
  }

  // ---------------------------------------------------------------- hosted terminals

  async terminalAvailability(): Promise<TerminalAvailability> {
    return this.memberChannels.hosted.launchAvailability();
  }

  async terminals(): Promise<TerminalInfo[]> {
    return this.memberChannels.hosted.list();
  }

  launch(req: LaunchRequest): Promise<TerminalInfo> {
    return this.memberChannels.hosted.launch(req);
  }

  attachTerminal(id: string, cols: number, rows: number): Promise<{ screen: string }> {
    return this.memberChannels.hosted.attach(id, cols, rows);
  }

  async terminalInput(id: string, data: string): Promise<void> {
    this.memberChannels.hosted.input(id, data);
  }

  async resizeTerminal(id: string, cols: number, rows: number): Promise<void> {
    this.memberChannels.hosted.resize(id, cols, rows);
  }

  async detachTerminal(id: string): Promise<void> {
    this.memberChannels.hosted.detach(id);
  }

  closeTerminal(id: string): Promise<void> {
    return this.memberChannels.hosted.close(id);
  }

  // ---------------------------------------------------------------- views

  private resolve(team: string): Promise<Team> {
    if (!this.started) throw new Error('service not started');
    return this.dir.resolveTeam(team);
  }

  /** The team's member of that name (or inbox name), else a not-found error. */
  private memberOf(rt: Team, member: string): MemberInfo {
    const m = findMember(rt, member);
    if (!m) throw new TeamNotFoundError(`team ${rt.id} has no member ${JSON.stringify(member)}`);
    return m;
  }

  async listTeams(): Promise<TeamSummary[]> {
    return this.dir.summaries();
  }

  /** What stands between this machine and a working Teamdeck (service/doctor.ts), from this engine's point of view. */
  async doctor(): Promise<DoctorReport> {
    const { engineDoctor } = await import('./doctor.js');
    return engineDoctor({ teamsRoot: this.teamsRoot, stateDir: this.stateDir, longRunning: this.watchEnabled, teams: this.dir.summaries(), now: this.now() });
  }

  prepare(team: string): Promise<void> {
    if (!this.started || this.stopping) return Promise.resolve();
    // Awaited by whoever asked (the browser host before it gives its URL) and by stop(), which
    // lets it finish before the journals are closed.
    const p: Promise<void> = this.resolve(team).then(() => {}, () => {});
    this.preparing.add(p);
    void p.finally(() => this.preparing.delete(p));
    return p;
  }

  async roster(team: string): Promise<RosterEntry[]> {
    const rt = await this.resolve(team);
    // The window has its first roster: the other teams are read shortly.
    this.reading.firstRosterServed();
    return this.dir.rosterOf(rt);
  }

  async thread(team: string, member: string): Promise<ThreadMessage[]> {
    const rt = await this.resolve(team);
    const m = this.memberOf(rt, member);
    return threadOf(rt, m.name, this.delivery.notesOf(rt));
  }

  async feed(team: string): Promise<ThreadMessage[]> {
    const rt = await this.resolve(team);
    const messages = feedOf(rt, await readTextsOf(rt.history.dir, () => rt.history.observed.values()), this.delivery.notesOf(rt));
    // What the user did in the lead's terminal from Teamdeck, in its place in time.
    const actions = await this.leadActions.feedOf(rt);
    return actions.length === 0 ? messages : [...messages, ...actions].sort((a, b) => a.time - b.time);
  }

  // ---------------------------------------------------------------- answers in the lead's terminal

  answer(req: AnswerRequest, via: ActionVia = 'cli'): Promise<LeadAction> {
    return this.leadActions.answer(req, via);
  }

  interrupt(team: string, member: string, via: ActionVia = 'cli'): Promise<LeadAction> {
    return this.leadActions.interrupt(team, member, via);
  }

  answerPlan(req: PlanAnswerRequest, via: ActionVia = 'cli'): Promise<LeadAction> {
    return this.leadActions.answerPlan(req, via);
  }

  /** A member's thread, or the whole team's feed, as a file (the words and format: history/export.ts). */
  async export(req: ExportRequest): Promise<ExportFile> {
    const rt = await this.resolve(req.team);
    const m = req.member === undefined ? undefined : this.memberOf(rt, req.member);
    const notes = this.delivery.notesOf(rt);
    const messages = m ? threadOf(rt, m.name, notes) : feedOf(rt, await readTextsOf(rt.history.dir, () => rt.history.observed.values()), notes);
    return buildExport({ team: this.dir.summaryOf(rt), member: m, messages, exportedAt: this.now(), timeZone: req.timeZone }, req.format);
  }

  /**
   * Messages of every team (or one) matching the words and phrases, newest first. A one-shot
   * command waits until the index holds everything; a running engine that is still building
   * its index answers from what is in so far (`building`).
   */
  async search(req: SearchRequest): Promise<SearchResult> {
    const names = new Map(this.dir.summaries().map((t) => [t.id, t.name]));
    let team = req.team;
    if (team !== undefined && !names.has(team)) {
      const byName = [...names].find(([, name]) => name === team)?.[0];
      if (byName === undefined) throw new TeamNotFoundError(`no team ${JSON.stringify(team)} in ${this.teamsRoot}`);
      team = byName;
    }
    return this.searchIndex.search({ ...req, team }, (id) => names.get(id) ?? id, !this.watchEnabled);
  }

  /** How far the reading of teams found in Claude's transcripts has got. */
  async importStatus(): Promise<ImportStatus> {
    return this.importer.current;
  }

  /** What every member of the team is doing now (current era: sessions file, transcripts, config). */
  async activity(team: string): Promise<MemberActivity[]> {
    const rt = await this.resolve(team);
    // A one-shot command has no watch to keep the session current: read it now.
    if (!this.watchEnabled) await this.live.readSession(rt);
    await this.leadActions.ready(rt);
    return this.live.activityOf(rt);
  }

  /** The member's transcript as timeline items, oldest first (the latest `limit`, default 2,000). */
  async timeline(team: string, member: string, limit?: number): Promise<TimelineItem[]> {
    const rt = await this.resolve(team);
    return this.live.timeline(rt, this.memberOf(rt, member).name, limit);
  }

  async tasks(team: string): Promise<TaskBoard> {
    return this.live.tasks(await this.resolve(team));
  }

  /** What the teams need from the human, across all teams, newest first. */
  async needs(): Promise<NeedItem[]> {
    if (!this.started) throw new Error('service not started');
    if (!this.watchEnabled) {
      await this.live.readSessions();
      await this.leadActions.probeAll();
    }
    return this.live.needs();
  }

  // ---------------------------------------------------------------- usage (docs/usage.md)

  async usage(req: UsageRequest): Promise<AllUsage> {
    if (!this.started) throw new Error('service not started');
    return this.usageCalls.usage(req);
  }

  async setBudget(req: BudgetRequest): Promise<Budgets> {
    if (!this.started) throw new Error('service not started');
    return this.usageCalls.setBudget(req);
  }

  prices(): Promise<PriceInfo> {
    return this.usageCalls.prices();
  }

  setPrices(table: Record<string, ModelPrice>): Promise<PriceInfo> {
    return this.usageCalls.setPrices(table);
  }

  async refresh(): Promise<void> {
    await this.reading.refresh();
  }

  problems(): TeamProblem[] {
    const out = [...this.dir.globalProblems.values()];
    for (const rt of this.teams.values()) out.push(...rt.problems.values());
    return out;
  }

  queuedCount(): number {
    return this.delivery.queuedCount();
  }

  /** Removes `.dead-*` lock leftovers from crashed owners (service/state-lock.ts). */
  static tidyStateDir(stateDir: string): Promise<void> {
    return tidyStateDir(stateDir);
  }
}
