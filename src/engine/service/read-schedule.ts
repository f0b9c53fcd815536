// When the engine reads what: the first read at start (every team, or the teams the window did
// not ask for in the background), the watchers' reports, the tick and its safety net, and the
// seen poll while a delivered message waits to be seen. Every read goes through one coalescer,
// keyed by what it reads, so a burst of reports reads each file once. Apart from the facade
// because it holds the engine's timers and watcher; what each pass does is rescan.ts.
import type { InboxIngest } from '../ingest/inbox-ingest.js';
import type { LiveViews } from '../live/live-views.js';
import { checkLeads, SafetyNetClock, SAFETY_NET_TICKS, scheduleInboxReads } from './rescan.js';
import type { TeamDirectory } from '../teams/team-directory.js';
import { Coalescer } from '../files/coalescer.js';
import { watchTeamsRoot, type RootWatcher, type WatchTarget } from '../teams/root-watcher.js';

/** How often transcripts are looked at while a delivered message waits to be seen. */
const SEEN_POLL_MS = 500;

/**
 * With openInBackground: the teams the window has not asked for are read once it has its first
 * roster, or this long after start without one, so the first paint does not wait behind them.
 */
const BACKGROUND_AFTER_MS = 1_500;

/**
 * With openInBackground: how long after the window's first roster the other teams are read (and
 * the watchers set up). The page renders and paints that roster meanwhile; on two cores, reading
 * 19 teams of 5,000 messages at the same moment made its first paint 0.2 s later.
 */
export const BACKGROUND_AFTER_ROSTER_MS = 400;

/** After the watchers start, the full safety net runs on every tick for this long. */
export const WARM_UP_MS = 20_000;

export interface ReadScheduleOptions {
  teamsRoot: string;
  now: () => number;
  dir: TeamDirectory;
  inboxes: InboxIngest;
  live: LiveViews;
  /** Reads what the teams' transcripts gained: receipts and answers (ingest/transcript-receipts.ts). */
  pollTranscripts: () => Promise<void>;
  stopping: () => boolean;
  /** Watchers and timers at all (one-shot commands read once and stop). */
  watch: boolean;
  openInBackground: boolean;
  /** The tick. */
  rescanMs: number;
  /** How often the safety net runs while the watchers report no trouble (default 15 ticks). */
  safetyNetMs?: number;
}

export class ReadSchedule {
  private readonly reads: Coalescer;
  /** When the safety net runs: every 15th tick, or at once when a watcher reports trouble. */
  private readonly net: SafetyNetClock;
  /** When the watchers were started (the safety net runs every tick for a while after). */
  private watchStartedAt: number | undefined;
  private watcher: RootWatcher | undefined;
  private rescanTimer: NodeJS.Timeout | undefined;
  /** A tick still running (a slow disk): the next one is skipped rather than piled on it. */
  private ticking = false;
  private seenTimer: NodeJS.Timeout | undefined;
  /** With openInBackground: the reading of the teams not asked for, once begun. */
  background: Promise<void> | undefined;
  /** With openInBackground: opens when the background reading may begin. */
  private gate: Promise<void> | undefined;
  /** Lets the background reading begin (see BACKGROUND_AFTER_MS). */
  private letBackgroundBegin: (() => void) | undefined;
  private rosterServed = false;

  constructor(private readonly opts: ReadScheduleOptions) {
    const { safetyNetMs, rescanMs } = opts;
    this.net = new SafetyNetClock(safetyNetMs === undefined ? SAFETY_NET_TICKS : Math.max(1, Math.round(safetyNetMs / rescanMs)));
    this.reads = new Coalescer(
      (key) => this.readKey(key),
      (key, e) => this.readFailed(key, e as Error),
    );
  }

  private get dir(): TeamDirectory {
    return this.opts.dir;
  }

  private get live(): LiveViews {
    return this.opts.live;
  }

  /** Schedules a coalesced re-read (`i\0team\0owner`, `c\0team`, `t\0team`, `scan`, `teams`, `seen`, `sessions`). */
  schedule(key: string): void {
    this.reads.schedule(key);
  }

  /** Waits until every scheduled re-read has run. */
  settled(): Promise<void> {
    return this.reads.settled();
  }

  /** Reads every team at start, or (openInBackground) lists them and reads them in the background. */
  async firstRead(): Promise<void> {
    if (this.opts.openInBackground) {
      await this.dir.listUnopened();
      const gate = new Promise<void>((resolve) => {
        this.letBackgroundBegin = resolve;
        setTimeout(resolve, BACKGROUND_AFTER_MS).unref?.();
      });
      this.gate = gate;
      this.background = gate
        .then(() => this.dir.scanTeams(true))
        .then(() => this.opts.pollTranscripts())
        .then(() => this.live.tick())
        // Nobody waits on this pass: the teams it did not read stay missing or short until the
        // next rescan (or until asked for), so the user is told why.
        .catch((e: Error) => this.dir.problem({ kind: 'journal', file: 'journal', message: `reading the teams in the background stopped (${e.message}); the teams not read yet are read at the next rescan` }));
    } else {
      await this.dir.scanTeams(true);
      // Receipts and answers already in the transcripts (a one-shot command sees them too).
      await this.opts.pollTranscripts();
      await this.live.tick();
    }
  }

  /** The window has its first roster: the background reading begins a little later. */
  firstRosterServed(): void {
    if (!this.letBackgroundBegin || this.rosterServed) return;
    this.rosterServed = true;
    setTimeout(() => this.beginBackground(), BACKGROUND_AFTER_ROSTER_MS).unref?.();
  }

  /** The background reading begins now (also when the engine stops). */
  beginBackground(): void {
    this.letBackgroundBegin?.();
  }

  /**
   * With openInBackground, the watchers start with the background reading (once the window has
   * its first roster): setting them up over every team folder took 100-150 ms of the event
   * loop, in front of the window's first page. A write to the first team meanwhile is found by
   * the safety net, which runs on every tick for a while after the watchers start (WARM_UP_MS).
   */
  startWatching(): void {
    if (this.gate) void this.gate.then(() => this.watchNow());
    else this.watchNow();
  }

  private watchNow(): void {
    if (this.opts.stopping() || this.watcher) return;
    this.watchStartedAt = this.opts.now();
    this.watcher = watchTeamsRoot(
      this.opts.teamsRoot,
      (t) => this.onWatch(t),
      (e) => this.dir.problem({ kind: 'watch', file: '.', message: `watching failed: ${e.message}` }),
    );
    this.rescanTimer = setInterval(() => void this.tick(), this.opts.rescanMs);
    this.rescanTimer.unref?.();
  }

  /** At stop: the background reading may finish, no timer fires again, the watcher is closed. */
  async halt(): Promise<void> {
    this.beginBackground();
    if (this.rescanTimer) clearInterval(this.rescanTimer);
    if (this.seenTimer) clearTimeout(this.seenTimer);
    // At stop: a watch that will not close sees nothing the engine would act on any more.
    await this.watcher?.close().catch(() => {});
  }

  /** Every team and every inbox read again now, and waited for. */
  async refresh(): Promise<void> {
    await this.dir.scanTeams(false);
    await scheduleInboxReads(this.opts.teamsRoot, this.dir, this.opts.inboxes, (key) => this.reads.schedule(key), true);
    this.reads.schedule('seen');
    await this.reads.settled();
  }

  private onWatch(t: WatchTarget): void {
    if (this.opts.stopping()) return;
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
    if (this.opts.stopping()) return;
    const [kind, team, owner] = key.split('\u0000');
    if (kind === 'scan') return this.dir.scanTeams(false);
    if (kind === 'teams') return this.dir.scanTeams(false, false);
    if (kind === 'seen') return this.opts.pollTranscripts();
    if (kind === 'sessions') return this.live.readSessions();
    if (kind === 't') {
      const rt = this.dir.teams.get(team!);
      return rt ? this.live.readTasks(rt) : undefined;
    }
    const rt = this.dir.teams.get(team!) ?? (await this.dir.openTeam(team!));
    if (!rt || rt.ended) return;
    if (kind === 'c') return this.dir.readConfig(rt, true);
    if (kind === 'i') return this.opts.inboxes.read(rt, owner!, true);
  }

  /**
   * A read no caller waits on failed. What it reads says its own problems (an unreadable inbox,
   * a broken config); what gets here is mostly the journal not taking what was read, which
   * nothing else would tell.
   */
  private readFailed(key: string, e: Error): void {
    if (this.opts.stopping()) return;
    const [kind, team, owner] = key.split('\u0000');
    const what = kind === 'i' ? `${team}/inboxes/${owner}.json` : kind === 'c' ? `${team}/config.json` : kind === 't' ? `the tasks of ${team}` : kind === 'seen' ? 'the transcripts' : kind === 'sessions' ? "the leads' sessions" : 'the teams';
    this.dir.problem({ kind: 'journal', file: 'journal', message: `reading ${what} failed (${e.message})` });
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
    if (this.opts.stopping()) return;
    // Both are asked each tick: each forgets its trouble once it has told it.
    // The first ticks after start run the full safety net too: a watch set up as the engine
    // starts can miss a write made in the same moment (seen under load), and then nothing else
    // would look before the net's next pass.
    const warmingUp = this.watchStartedAt !== undefined && this.opts.now() - this.watchStartedAt < WARM_UP_MS;
    const troubled = warmingUp || [this.watcher?.troubled() ?? true, this.live.troubled()].includes(true);
    const net = this.net.due(troubled);
    checkLeads(this.dir, net);
    if (!net) return this.live.quickTick();
    // New and gone teams; the open teams' new inboxes are found by the inbox stats below.
    this.reads.schedule('teams');
    await scheduleInboxReads(this.opts.teamsRoot, this.dir, this.opts.inboxes, (key) => this.reads.schedule(key), false);
    this.reads.schedule('seen');
    // Sessions, tasks and the needs-you queue, judged on this same tick (the clock moved on).
    await this.live.tick();
  }

  /** While a delivered message waits to be seen, transcripts are looked at twice a second. */
  scheduleSeenPoll(): void {
    if (this.seenTimer || this.opts.stopping() || !this.opts.watch) return;
    this.seenTimer = setTimeout(() => {
      this.seenTimer = undefined;
      this.reads.schedule('seen');
    }, SEEN_POLL_MS);
    this.seenTimer.unref?.();
  }
}
