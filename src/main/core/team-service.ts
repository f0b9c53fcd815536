// The engine's facade: every shell (Electron main, the CLI, the browser host) uses this one
// class. It owns the state-dir lock, the watcher and the timers, and hands each concern to its
// module: team-directory.ts (which teams there are, running or ended), history/ (ingest, views,
// transcripts), delivery/ (journal, outboxes, the inbox channel), claude/ (Claude's rules, per era).
import { readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { AppEvent, ExportFile, ExportRequest, SearchRequest, SearchResult } from '../../shared/contract.js';
import type {
  ChannelKind,
  ChannelOption,
  LaunchRequest,
  MemberActivity,
  MemberInfo,
  NeedItem,
  RosterEntry,
  SendRequest,
  SendResult,
  TaskBoard,
  TeamProblem,
  TeamSummary,
  TerminalInfo,
  ThreadMessage,
  TimelineItem,
} from '../../shared/types.js';
import { leadReadsInbox } from './claude/era.js';
import { HostedTerminals } from './hosted-terminals.js';
import { SocketChannel } from './delivery/socket-channel.js';
import { answerToSocket } from './history/socket-answers.js';
import type { TerminalAvailability } from './terminal/types.js';
import { DEFAULT_SENDER_NAME, senderFor, senderNameProblem } from './claude/era.js';
import { Deliveries } from './delivery/deliveries.js';
import { DEFAULT_BACKOFF, type BackoffOptions } from './delivery/outbox.js';
import { checkTarget, checkText, findMember } from './delivery/send-checks.js';
import { ingestInbox } from './history/inbox-ingest.js';
import { pollTranscripts } from './history/transcript-receipts.js';
import { buildExport } from './history/export.js';
import { SearchIndex } from './search/search-index.js';
import { feedOf, sentToThread, threadOf } from './history/views.js';
import { DEFAULT_IDLE_THRESHOLD_MS } from './presence.js';
import { SendRefusedError, type TeamServiceApi, type TeamServiceOptions } from './service-types.js';
import { LiveViews } from './live-views.js';
import { checkLeads, SafetyNetClock, SAFETY_NET_TICKS, scheduleInboxReads } from './rescan.js';
import { acquireStateLock } from './state-lock.js';
import { TeamDirectory, TeamNotFoundError } from './team-directory.js';
import type { TeamRuntime } from './team-runtime.js';
import { Coalescer, watchTeamsRoot, type RootWatcher, type WatchTarget } from './watcher.js';

export { TeamNotFoundError } from './team-directory.js';
export { HUGE_INBOX_BYTES } from './history/inbox-ingest.js';
export { MAX_TEXT_BYTES, MAX_SUMMARY_CHARS } from './delivery/send-checks.js';
export const DEFAULT_MAX_PENDING = 64;
/** How often transcripts are looked at while a delivered message waits to be seen. */
const SEEN_POLL_MS = 500;

/**
 * With openInBackground: the teams the window has not asked for are read once it has its first
 * roster, or this long after start without one, so the first paint does not wait behind them.
 */
const BACKGROUND_AFTER_MS = 1_500;

/** After the watchers start, the full safety net runs on every tick for this long. */
const WARM_UP_MS = 20_000;

export class TeamService implements TeamServiceApi {
  readonly teamsRoot: string;
  readonly stateDir: string;
  /** Claude's config dir (`~/.claude`): sessions, projects (transcripts) and tasks live here. */
  readonly configDir: string;
  private readonly now: () => number;
  private idleMs: number;
  private senderName: string;
  private readonly watchEnabled: boolean;
  private readonly rescanMs: number;
  /** When the safety net runs: every 15th tick, or at once when a watcher reports trouble. */
  private readonly net: SafetyNetClock;
  /** When the watchers were started (the safety net runs every tick for a while after). */
  private watchStartedAt: number | undefined;
  private readonly delivery: Deliveries;
  private readonly dir: TeamDirectory;
  /** Activity, timelines, tasks and needs: Claude's files outside the teams root. */
  private readonly live: LiveViews;
  private listeners = new Set<(e: AppEvent) => void>();
  private release: (() => Promise<void>) | undefined;
  private watcher: RootWatcher | undefined;
  private rescanTimer: NodeJS.Timeout | undefined;
  /** A tick still running (a slow disk): the next one is skipped rather than piled on it. */
  private ticking = false;
  private seenTimer: NodeJS.Timeout | undefined;
  private started = false;
  private stopping = false;
  private readonly reads: Coalescer;
  private readonly openInBackground: boolean;
  private background: Promise<void> | undefined;
  /** Lets the background reading begin (see BACKGROUND_AFTER_MS). */
  private beginBackground: (() => void) | undefined;
  /** The lead terminals this engine hosts, and the channels they open. */
  private readonly hosted: HostedTerminals;
  /** Claude's messaging sockets: Teamdeck's own beside each lead's, for leads it did not launch. */
  private readonly sockets: SocketChannel;
  /** Every team's history, searchable: follows the journals (search/). */
  private readonly searchIndex: SearchIndex;

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
    this.rescanMs = opts.rescanMs ?? 2_000;
    this.net = new SafetyNetClock(opts.safetyNetMs === undefined ? SAFETY_NET_TICKS : Math.max(1, Math.round(opts.safetyNetMs / this.rescanMs)));
    this.openInBackground = opts.openInBackground ?? false;
    this.reads = new Coalescer((key) => this.readKey(key));
    this.sockets = new SocketChannel({
      configDir: this.configDir,
      now: this.now,
      senderName: () => this.senderName,
      teams: () => this.teams.values(),
      onReply: (rt, line, replyTo) => void answerToSocket(this.dir, rt, line, replyTo).catch(() => {}),
      onStatus: (rt, id) => {
        const s = rt.state.sent.get(id);
        if (s) this.emit({ type: 'message', team: rt.id, message: sentToThread(rt, s) });
      },
      onIdle: () => this.reads.schedule('seen'),
    });
    this.hosted = new HostedTerminals({
      socket: (rt, member) => this.sockets.availability(rt, member),
      create: opts.terminalHost,
      now: this.now,
      teamsRoot: this.teamsRoot,
      emit: (e) => this.emit(e),
      teams: () => this.teams.values(),
      kick: (team) => {
        const rt = this.teams.get(team);
        if (rt) this.delivery.kickTerminal(rt);
      },
    });
    this.delivery = new Deliveries({
      terminal: this.hosted.channelContext(),
      socket: this.sockets,
      teamsRoot: this.teamsRoot,
      stateDir: this.stateDir,
      now: this.now,
      backoff: opts.backoff ?? DEFAULT_BACKOFF,
      maxPending: opts.maxPendingPerTarget ?? DEFAULT_MAX_PENDING,
      emit: (e) => this.emit(e),
      queuedCount: () => this.queuedCount(),
    });
    this.dir = new TeamDirectory({
      teamsRoot: this.teamsRoot,
      stateDir: this.stateDir,
      configDir: this.configDir,
      now: this.now,
      emit: (e) => this.emit(e),
      delivery: this.delivery,
      senderName: () => this.senderName,
      idleMs: () => this.idleMs,
      stopping: () => this.stopping,
      schedule: (key) => this.reads.schedule(key),
      scheduleSeenPoll: () => this.scheduleSeenPoll(),
      onTranscriptRows: (rt, rows) => this.live.onTranscriptRows(rt, rows),
      onEvict: (rt) => this.live.forget(rt.id),
      onJournalWritten: (dir) => this.searchIndex.noteWritten(dir),
    });
    this.searchIndex = new SearchIndex({
      stateDir: this.stateDir,
      onProblem: (message) => this.dir.problem({ kind: 'journal', file: 'search/index.sqlite', message }),
    });
    this.live = new LiveViews({
      configDir: this.configDir,
      now: this.now,
      emit: (e) => this.emit(e),
      senderName: () => this.senderName,
      teams: () => this.teams.values(),
      schedule: (key) => this.reads.schedule(key),
      watch: this.watchEnabled,
      stopping: () => this.stopping,
    });
  }

  private get teams(): Map<string, TeamRuntime> {
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
      await this.hosted.start();
      if (this.openInBackground) {
        await this.dir.listUnopened();
        // A team this pass fails to read is read again by the next rescan, or when it is asked for.
        const gate = new Promise<void>((resolve) => {
          this.beginBackground = resolve;
          setTimeout(resolve, BACKGROUND_AFTER_MS).unref?.();
        });
        this.background = gate
          .then(() => this.dir.scanTeams(true))
          .then(() => pollTranscripts(this.dir))
          .then(() => this.live.tick())
          .catch(() => {});
      } else {
        await this.dir.scanTeams(true);
        // Receipts and answers already in the transcripts (a one-shot command sees them too).
        await pollTranscripts(this.dir);
        await this.live.tick();
      }
      if (this.watchEnabled) {
        // After the teams are read: a first build of the index never slows the window's start.
        void Promise.resolve(this.background).then(() => (this.stopping ? undefined : this.searchIndex.start()));
        this.startWatching();
        this.rescanTimer = setInterval(() => void this.tick(), this.rescanMs);
        this.rescanTimer.unref?.();
      }
    } catch (e) {
      await this.stop();
      throw e;
    }
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.beginBackground?.();
    if (this.rescanTimer) clearInterval(this.rescanTimer);
    if (this.seenTimer) clearTimeout(this.seenTimer);
    await this.watcher?.close().catch(() => {});
    this.live.close();
    await this.hosted.stop().catch(() => {});
    await this.sockets.close().catch(() => {});
    // A team being read in the background finishes first: its journal is closed below.
    await this.background;
    await this.searchIndex.stop().catch(() => {});
    for (const t of this.teams.values()) for (const o of t.outboxes.values()) await o.stop();
    await this.reads.settled();
    await this.dir.ended.close();
    for (const t of this.teams.values()) await t.journal.close().catch(() => {});
    await this.release?.();
    this.release = undefined;
  }

  /** Waits until every scheduled re-read has run (tests and one-shot commands). */
  async settled(): Promise<void> {
    await this.reads.settled();
  }

  onEvent(listener: (event: AppEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: AppEvent): void {
    if (e.type === 'teams') e = { ...e, teams: this.hosted.decorate(e.teams) };
    else if (e.type === 'needs') e = { ...e, needs: this.allNeeds(e.needs) };
    else if (e.type === 'activity') {
      // The lead's sessions status moved (a dialog opened or closed): typed messages may go now.
      const rt = this.teams.get(e.team);
      if (rt) this.delivery.kickTerminal(rt);
    }
    this.deliver(e);
    // What members do follows from the roster; stuck messages and asks from messages and states.
    if (e.type === 'roster') {
      const rt = this.teams.get(e.team);
      if (rt) this.live.announceActivity(rt);
    } else if (e.type === 'message' || e.type === 'delivery') this.live.scheduleNeeds();
  }

  private deliver(e: AppEvent): void {
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
    for (const t of this.teams.values()) this.emit({ type: 'roster', team: t.id, roster: this.dir.rosterOf(t) });
  }

  /** The sender name written on current-era teams from now on (refuses reserved names). */
  setSenderName(name: string): void {
    const problem = senderNameProblem(name);
    if (problem) throw new SendRefusedError(problem);
    this.senderName = name;
    this.emit({ type: 'teams', teams: this.dir.summaries() });
  }

  // ---------------------------------------------------------------- discovery and reading

  private startWatching(): void {
    this.watchStartedAt = this.now();
    this.watcher = watchTeamsRoot(
      this.teamsRoot,
      (t) => this.onWatch(t),
      (e) => this.dir.problem({ kind: 'watch', file: '.', message: `watching failed: ${e.message}` }),
    );
  }

  private onWatch(t: WatchTarget): void {
    if (this.stopping) return;
    switch (t.kind) {
      case 'inbox':
        this.reads.schedule(`i\u0000${t.team}\u0000${t.owner}`);
        return;
      case 'config':
        this.reads.schedule(`c\u0000${t.team}`);
        return;
      case 'team':
      case 'root':
        this.reads.schedule('scan');
        return;
    }
  }

  private async readKey(key: string): Promise<void> {
    if (this.stopping) return;
    const [kind, team, owner] = key.split('\u0000');
    if (kind === 'scan') return this.dir.scanTeams(false);
    if (kind === 'teams') return this.dir.scanTeams(false, false);
    if (kind === 'seen') return pollTranscripts(this.dir);
    if (kind === 'sessions') return this.live.readSessions();
    if (kind === 't') {
      const rt = this.teams.get(team!);
      return rt ? this.live.readTasks(rt) : undefined;
    }
    const rt = this.teams.get(team!) ?? (await this.dir.openTeam(team!));
    if (!rt || rt.ended) return;
    if (kind === 'c') return this.dir.loadConfig(rt, true);
    if (kind === 'i') return ingestInbox(this.dir, rt, owner!, true);
  }

  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      await this.rescan();
    } finally {
      this.ticking = false;
    }
  }

  /**
   * The tick: what no file says (a lead's process gone) and the needs on the clock, without
   * reading a file. The safety net, every 15th tick or at once after a watcher's trouble:
   * catches anything the watchers missed, re-reading only changed files.
   */
  private async rescan(): Promise<void> {
    if (this.stopping) return;
    // Both are asked each tick: each forgets its trouble once it has told it.
    // The first ticks after start run the full safety net too: a watch set up as the engine
    // starts can miss a write made in the same moment (seen under load), and then nothing else
    // would look before the net's next pass.
    const warmingUp = this.watchStartedAt !== undefined && this.now() - this.watchStartedAt < WARM_UP_MS;
    const troubled = warmingUp || [this.watcher?.troubled() ?? true, this.live.troubled()].includes(true);
    const net = this.net.due(troubled);
    checkLeads(this.dir, net);
    if (!net) return this.live.quickTick();
    // New and gone teams; the open teams' new inboxes are found by the inbox stats below.
    this.reads.schedule('teams');
    await scheduleInboxReads(this.dir, (key) => this.reads.schedule(key), false);
    this.reads.schedule('seen');
    // Sessions, tasks and the needs-you queue, judged on this same tick (the clock moved on).
    await this.live.tick();
  }

  /** While a delivered message waits to be seen, transcripts are looked at twice a second. */
  private scheduleSeenPoll(): void {
    if (this.seenTimer || this.stopping || !this.watchEnabled) return;
    this.seenTimer = setTimeout(() => {
      this.seenTimer = undefined;
      this.reads.schedule('seen');
    }, SEEN_POLL_MS);
    this.seenTimer.unref?.();
  }

  // ---------------------------------------------------------------- delivery

  async send(req: SendRequest): Promise<SendResult> {
    checkText(req);
    // An ended team listed from the index is refused as it is: its history is not even opened.
    const ended = this.dir.ended.refusal(req.team);
    if (ended) throw new SendRefusedError(ended);
    // Everything from here to the journal append runs without yielding when the team is
    // already open, so concurrent sends are journaled (and so delivered) in call order.
    let rt: TeamRuntime;
    try {
      rt = (!this.dir.isOpening(req.team) && this.teams.get(req.team)) || (await this.resolve(req.team));
    } catch (e) {
      if (e instanceof TeamNotFoundError) throw new SendRefusedError(e.message);
      throw e;
    }
    const member = checkTarget(rt, this.teamsRoot, req.to);
    const channel = this.chooseChannel(rt, member, req.channel);
    // Typed into the terminal, the message is the user's own (Claude writes `from:"user"` for `@name`).
    const from = channel === 'terminal' ? 'user' : senderFor(rt.era, this.senderName);
    return this.delivery.send(rt, member, req.text, req.summary, from, channel);
  }

  /** The needs from Claude's files, with the messages Claude holds, newest first; prompts open their terminal. */
  private allNeeds(needs: NeedItem[]): NeedItem[] {
    return this.hosted.decorateNeeds([...needs, ...this.sockets.heldNeeds()].sort((a, b) => b.since - a.since));
  }

  private channelOptions(rt: TeamRuntime, member: MemberInfo): ChannelOption[] {
    return this.hosted.channels(rt, member, senderFor(rt.era, this.senderName), leadReadsInbox(rt.era, rt.config, rt.lead?.name));
  }

  /** The asked channel if it can be used now (else a refusal in words), or the member's preferred one. */
  private chooseChannel(rt: TeamRuntime, member: MemberInfo, asked: ChannelKind | undefined): ChannelKind {
    if (asked === 'inbox') return 'inbox';
    if (asked === undefined) return this.channelOptions(rt, member).find((c) => c.preferred)?.kind ?? 'inbox';
    const option = this.channelOptions(rt, member).find((c) => c.kind === asked);
    if (!option?.available) throw new SendRefusedError(`cannot send ${option?.label ?? `through the ${asked} channel`}: ${option?.reason ?? 'not available'}`);
    return asked;
  }

  async channels(team: string, member: string): Promise<ChannelOption[]> {
    const rt = await this.resolve(team);
    const m = findMember(rt, member);
    if (!m) throw new TeamNotFoundError(`team ${rt.id} has no member ${JSON.stringify(member)}`);
    return this.channelOptions(rt, m);
  }

  // ---------------------------------------------------------------- hosted terminals

  async terminalAvailability(): Promise<TerminalAvailability> {
    return this.hosted.availability();
  }

  async terminals(): Promise<TerminalInfo[]> {
    return this.hosted.list();
  }

  launch(req: LaunchRequest): Promise<TerminalInfo> {
    return this.hosted.launch(req);
  }

  attachTerminal(id: string, cols: number, rows: number): Promise<{ screen: string }> {
    return this.hosted.attach(id, cols, rows);
  }

  async terminalInput(id: string, data: string): Promise<void> {
    this.hosted.input(id, data);
  }

  async resizeTerminal(id: string, cols: number, rows: number): Promise<void> {
    this.hosted.resize(id, cols, rows);
  }

  async detachTerminal(id: string): Promise<void> {
    this.hosted.detach(id);
  }

  closeTerminal(id: string): Promise<void> {
    return this.hosted.close(id);
  }


  // ---------------------------------------------------------------- views

  private resolve(team: string): Promise<TeamRuntime> {
    if (!this.started) throw new Error('service not started');
    return this.dir.resolveTeam(team);
  }

  async listTeams(): Promise<TeamSummary[]> {
    return this.hosted.decorate(this.dir.summaries());
  }

  async roster(team: string): Promise<RosterEntry[]> {
    const rt = await this.resolve(team);
    // The window has its first roster: the other teams are read from now on.
    setImmediate(() => this.beginBackground?.());
    return this.dir.rosterOf(rt);
  }

  async thread(team: string, member: string): Promise<ThreadMessage[]> {
    const rt = await this.resolve(team);
    const m = findMember(rt, member);
    if (!m) throw new TeamNotFoundError(`team ${rt.id} has no member ${JSON.stringify(member)}`);
    return threadOf(rt, m.name, m.inboxName);
  }

  async feed(team: string): Promise<ThreadMessage[]> {
    return feedOf(await this.resolve(team));
  }

  /** A member's thread, or the whole team's feed, as a file (the words and format: history/export.ts). */
  async export(req: ExportRequest): Promise<ExportFile> {
    const rt = await this.resolve(req.team);
    const m = req.member === undefined ? undefined : findMember(rt, req.member);
    if (req.member !== undefined && !m) throw new TeamNotFoundError(`team ${rt.id} has no member ${JSON.stringify(req.member)}`);
    const messages = m ? threadOf(rt, m.name, m.inboxName) : feedOf(rt);
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

  /** What every member of the team is doing now (current era: sessions file, transcripts, config). */
  async activity(team: string): Promise<MemberActivity[]> {
    const rt = await this.resolve(team);
    // A one-shot command has no watch to keep the session current: read it now.
    if (!this.watchEnabled) await this.live.readSession(rt);
    return this.live.activityOf(rt);
  }

  /** The member's transcript as timeline items, oldest first (the latest `limit`, default 2,000). */
  async timeline(team: string, member: string, limit?: number): Promise<TimelineItem[]> {
    const rt = await this.resolve(team);
    const m = findMember(rt, member);
    if (!m) throw new TeamNotFoundError(`team ${rt.id} has no member ${JSON.stringify(member)}`);
    return this.live.timeline(rt, m.name, limit);
  }

  async tasks(team: string): Promise<TaskBoard> {
    return this.live.tasks(await this.resolve(team));
  }

  /** What the teams need from the human, across all teams, newest first. */
  async needs(): Promise<NeedItem[]> {
    if (!this.started) throw new Error('service not started');
    if (!this.watchEnabled) await this.live.readSessions();
    return this.allNeeds(this.live.needs());
  }

  async refresh(): Promise<void> {
    await this.dir.scanTeams(false);
    await scheduleInboxReads(this.dir, (key) => this.reads.schedule(key), true);
    this.reads.schedule('seen');
    await this.reads.settled();
  }

  problems(): TeamProblem[] {
    const out = [...this.dir.globalProblems.values()];
    for (const rt of this.teams.values()) out.push(...rt.problems.values());
    return out;
  }

  queuedCount(): number {
    let n = 0;
    for (const rt of this.teams.values()) for (const o of rt.outboxes.values()) n += o.size;
    return n;
  }

  /** Removes `.dead-*` lock leftovers from crashed owners. */
  static async tidyStateDir(stateDir: string): Promise<void> {
    for (const n of await readdir(stateDir).catch(() => [] as string[])) {
      if (n.startsWith('owner.lock.dead-')) await rm(join(stateDir, n), { force: true });
    }
  }
}
