// The live views over Claude's files outside the teams root: what each member is doing
// (transcripts, the lead's sessions file, config flags), a member's transcript as a timeline,
// the team's task board, and the needs-you queue across teams. Fed by the engine's existing
// polls (the transcript poll hands over the rows it read; the safety net calls tick(), the
// cheap tick between its passes quickTick()) and by folder watches on the sessions, tasks and
// transcript folders, whose events only schedule a re-read through the engine's coalescer: no
// timer of its own beyond one setImmediate.
import { join } from 'node:path';
import type { AppEvent } from '../../shared/contract.js';
import type { MemberActivity, NeedItem, TaskBoard, TeamSummary, TimelineItem } from '../../shared/types.js';
import { LeadSessionReader, type LeadSession } from '../claude/sessions.js';
import { TaskListReader } from '../claude/tasks.js';
import { readTimeline } from '../claude/transcript-timeline.js';
import { timelineItems, type Row } from '../claude/transcript-rows.js';
import { forEachConcurrently } from '../files/concurrently.js';
import { FolderWatches } from '../files/folder-watch.js';
import { ClaudeVersions } from './claude-version.js';
import { foldRows, judgeActivity, newTrack, type ActivityFacts, type AgentTrack } from './activity.js';
import { allNeeds } from './needs.js';
import type { Team } from '../team/team.js';

export const DEFAULT_TIMELINE_LIMIT = 2_000;

export interface LiveContext {
  configDir: string;
  now: () => number;
  emit: (e: AppEvent) => void;
  senderName: () => string;
  teams: () => Iterable<Team>;
  /** Why a queued message waits (deliveries know). */
  waitReason: (rt: Team, id: string) => string | undefined;
  /** The queue with what the channels add: messages Claude holds on its socket, terminals to answer in. */
  withChannels: (needs: NeedItem[]) => NeedItem[];
  /** The team's activity was announced: typed messages may go now (the lead's dialog closed). */
  onActivity: (rt: Team) => void;
  /** The Claude Code version the team's lead runs became known or changed: the list says it. */
  onVersion?: (rt: Team) => void;
  /** The team's inbox files and the entries each held at its last read (the inbox ingest knows). */
  inboxes: (rt: Team) => Array<{ owner: string; messages: number }>;
  /** Schedules a coalesced re-read: `seen` (transcripts), `sessions`, `t\0<team>` (its tasks). */
  schedule: (key: string) => void;
  /** Folder watches on (long-running hosts); one-shot commands read on demand only. */
  watch: boolean;
  stopping: () => boolean;
  /** What the user did from Teamdeck, and whether a Stop can reach each member, joined to the activity. */
  decorateActivity?: (rt: Team, activity: MemberActivity[]) => MemberActivity[];
}

interface Board {
  reader: TaskListReader;
  shown: string;
}

/** What the live views follow of one open team. */
interface LiveTeam {
  /** What each agent's transcript says it is doing (tool calls in flight, turn ends). */
  tracks: Map<string, AgentTrack>;
  /** The lead's sessions file, followed while the team runs, and what it said last. */
  leadSession?: LeadSessionReader;
  session?: LeadSession;
  /** The activity last announced (as JSON), to emit only changes. */
  activityShown: string;
}

export class LiveViews {
  private readonly watches = new FolderWatches();
  private readonly boards = new Map<string, Board>();
  private needsShown = '[]';
  /** Task list folder name -> team, for hints from the tasks folder's watch. */
  private lists = new Map<string, string>();
  private needsQueued = false;
  private readonly live = new WeakMap<Team, LiveTeam>();
  private readonly versions = new ClaudeVersions();

  constructor(private readonly ctx: LiveContext) {}

  private of(rt: Team): LiveTeam {
    let t = this.live.get(rt);
    if (!t) this.live.set(rt, (t = { tracks: new Map(), activityShown: '' }));
    return t;
  }

  /** What the lead's sessions file said at its last read (its status, its messaging socket). */
  sessionOf(rt: Team): LeadSession | undefined {
    return this.live.get(rt)?.session;
  }

  /**
   * The lead's sessions file read now, for the lead in process `pid` (the terminal channel must
   * not type into a dialog); undefined before the team's session is followed at all.
   */
  readSessionNow(rt: Team, pid: number): Promise<LeadSession | undefined> {
    return this.live.get(rt)?.leadSession?.read(pid) ?? Promise.resolve(undefined);
  }

  // ---------------------------------------------------------------- activity

  facts(rt: Team): ActivityFacts {
    const t = this.of(rt);
    return { tracks: t.tracks, transcribed: new Set(rt.transcripts?.files().keys() ?? []), session: t.session };
  }

  activityOf(rt: Team): MemberActivity[] {
    const activity = judgeActivity(rt, this.facts(rt));
    return this.ctx.decorateActivity ? this.ctx.decorateActivity(rt, activity) : activity;
  }

  /** Emits the team's activity when it changed since it was last announced. */
  announceActivity(rt: Team): void {
    const activity = this.activityOf(rt);
    const json = JSON.stringify(activity);
    const t = this.of(rt);
    if (json === t.activityShown) return;
    const first = t.activityShown === '';
    t.activityShown = json;
    if (!first || activity.some((a) => a.kind !== 'unknown')) {
      this.ctx.emit({ type: 'activity', team: rt.id, activity });
      this.ctx.onActivity(rt);
    }
    this.scheduleNeeds();
  }

  /** The Claude Code version the team's lead runs or ran, as known now. */
  versionOf(rt: Team): string | undefined {
    return this.versions.versionOf(rt);
  }

  /** The team list's lines, each with the Claude Code version its lead runs where it is known. */
  withVersions(summaries: TeamSummary[]): TeamSummary[] {
    return this.versions.decorate(summaries, this.ctx.teams());
  }

  /** What the transcript poll read: folded into each agent's track; news is pushed as timeline items. */
  onTranscriptRows(rt: Team, read: Array<{ agent: string; rows: Row[]; live: boolean }>): void {
    let versionChanged = false;
    for (const { agent, rows, live } of read) {
      if (this.versions.fromRows(rt, agent, rows)) versionChanged = true;
      const { tracks } = this.of(rt);
      let track = tracks.get(agent);
      if (!track) tracks.set(agent, (track = newTrack()));
      if (live) {
        // Results name their tool from the calls in flight (and those in the same batch).
        const names = new Map([...track.inflight.values()].map((c) => [c.id, c.name]));
        const items: TimelineItem[] = [];
        for (const row of rows) items.push(...timelineItems(row, names));
        if (items.length) this.ctx.emit({ type: 'timeline', team: rt.id, member: agent, items });
      }
      foldRows(track, rows);
    }
    if (versionChanged) this.ctx.onVersion?.(rt);
    this.announceActivity(rt);
  }

  /** Reads the lead's sessions file of a running current-era team; announces a change. */
  async readSession(rt: Team): Promise<void> {
    const sessionId = rt.config?.leadSessionId;
    if (rt.ended || rt.era !== 'current' || !sessionId) {
      const t = this.live.get(rt);
      if (t?.session) {
        t.session = undefined;
        this.announceActivity(rt);
      }
      return;
    }
    const t = this.of(rt);
    if (t.leadSession?.leadSessionId !== sessionId) t.leadSession = new LeadSessionReader(this.ctx.configDir, sessionId);
    const before = JSON.stringify(t.session ?? null);
    t.session = await t.leadSession.read(rt.config?.leadProcess?.pid);
    if (this.versions.fromSession(rt, t.session?.version)) this.ctx.onVersion?.(rt);
    if (JSON.stringify(t.session ?? null) !== before) this.announceActivity(rt);
  }

  async readSessions(): Promise<void> {
    await forEachConcurrently(this.ctx.teams(), async (rt) => {
      if (!this.ctx.stopping()) await this.readSession(rt);
    });
  }

  // ---------------------------------------------------------------- timeline

  /** The member's latest transcript steps, oldest first; [] for a member without a transcript. */
  async timeline(rt: Team, member: string, limit = DEFAULT_TIMELINE_LIMIT): Promise<TimelineItem[]> {
    const files = await rt.transcripts?.find(rt.lead?.name ?? 'team-lead');
    const path = files?.get(member);
    if (!path) return [];
    return (await readTimeline(path, limit)).items;
  }

  // ---------------------------------------------------------------- tasks

  private board(rt: Team): Board {
    const team = rt.config?.name ?? rt.meta?.name ?? rt.id;
    let b = this.boards.get(rt.id);
    if (!b || b.reader.team !== team) this.boards.set(rt.id, (b = { reader: new TaskListReader(this.ctx.configDir, team), shown: '' }));
    return b;
  }

  async tasks(rt: Team): Promise<TaskBoard> {
    const b = this.board(rt);
    const board = await b.reader.read();
    b.shown = JSON.stringify(board);
    return { ...board, team: rt.id };
  }

  /** Re-reads a team's tasks (a watch hint or the safety net) and announces a change. */
  async readTasks(rt: Team): Promise<void> {
    const b = this.board(rt);
    const board = await b.reader.read();
    const json = JSON.stringify(board);
    if (json === b.shown) return;
    const first = b.shown === '';
    b.shown = json;
    if (!first || board.exists) this.ctx.emit({ type: 'tasks', team: rt.id, board: { ...board, team: rt.id } });
  }

  // ---------------------------------------------------------------- needs

  needs(): NeedItem[] {
    // An ended team needs nothing (teamNeeds says so too): its facts are not worked out at all.
    const teams = [...this.ctx.teams()].filter((rt) => !rt.ended);
    const needs = allNeeds(
      teams.map((rt) => ({ rt, facts: this.facts(rt), activity: this.activityOf(rt), waitReason: (id: string) => this.ctx.waitReason(rt, id), inboxes: this.ctx.inboxes(rt) })),
      this.ctx.senderName(),
      this.ctx.now(),
    );
    return this.ctx.withChannels(needs);
  }

  /** Re-judges the queue and emits it when it changed. */
  judgeNeeds(): void {
    this.needsQueued = false;
    if (this.ctx.stopping()) return;
    const needs = this.needs();
    const json = JSON.stringify(needs);
    if (json === this.needsShown) return;
    this.needsShown = json;
    this.ctx.emit({ type: 'needs', needs });
  }

  /** After a change: one re-judge once the current burst of events is over. */
  scheduleNeeds(): void {
    if (this.needsQueued) return;
    this.needsQueued = true;
    setImmediate(() => this.judgeNeeds());
  }

  // ---------------------------------------------------------------- the ticks

  /** Sessions, tasks and folder watches of the running teams; the needs judged on the clock. */
  async tick(): Promise<void> {
    await this.readSessions();
    const running = [...this.ctx.teams()].filter((rt) => !rt.ended);
    await forEachConcurrently(running, async (rt) => {
      if (!this.ctx.stopping()) await this.readTasks(rt);
    });
    if (this.ctx.stopping()) return;
    if (this.ctx.watch) await this.watchFolders(running);
    this.judgeNeeds();
  }

  /**
   * The cheap tick between the safety net's passes: no file is read. Folders to watch that were
   * not there are looked for again (a stat each), a lead transcript not found yet is looked for,
   * and the needs are judged on the clock.
   */
  async quickTick(): Promise<void> {
    if (this.ctx.watch) {
      await this.watches.retryMissing();
      const running = [...this.ctx.teams()].filter((rt) => !rt.ended);
      let found = false;
      for (const rt of running) {
        if (this.ctx.stopping()) return;
        if (rt.transcripts && !rt.transcripts.located && (await rt.transcripts.locate())) found = true;
      }
      // Its folders are watched from now on, and what it holds already is read.
      if (found) {
        await this.watchFolders(running);
        this.ctx.schedule('seen');
      }
    }
    this.judgeNeeds();
  }

  /** A folder watch failed since the last call: the safety net should look at everything. */
  troubled(): boolean {
    return this.watches.troubled();
  }

  private async watchFolders(running: Team[]): Promise<void> {
    const keep = new Set<string>();
    const add = async (dir: string, onName: (name: string) => void) => {
      keep.add(dir);
      await this.watches.add(dir, onName);
    };
    const sessions = join(this.ctx.configDir, 'sessions');
    await add(sessions, (n) => /^\d+\.json$/.test(n) && this.ctx.schedule('sessions'));
    const tasksRoot = join(this.ctx.configDir, 'tasks');
    this.lists = new Map(running.map((rt) => [this.board(rt).reader.list, rt.id]));
    await add(tasksRoot, (n) => {
      const team = this.lists.get(n);
      if (team) this.ctx.schedule(`t\u0000${team}`);
    });
    await forEachConcurrently(running, async (rt) => {
      const [project, subagents] = rt.transcripts?.folders() ?? [];
      const session = rt.transcripts?.leadSessionId;
      await Promise.all([
        add(join(tasksRoot, this.board(rt).reader.list), () => this.ctx.schedule(`t\u0000${rt.id}`)),
        project && session ? add(project, (n) => (n === `${session}.jsonl` || n === session) && this.ctx.schedule('seen')) : undefined,
        subagents ? add(subagents, (n) => n.endsWith('.jsonl') && this.ctx.schedule('seen')) : undefined,
      ]);
    });
    this.watches.retain(keep);
  }

  /** An ended team was closed (ended-teams.ts): its task board goes with it. */
  forget(team: string): void {
    this.boards.delete(team);
  }

  close(): void {
    this.watches.close();
  }
}
