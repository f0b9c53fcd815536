// The engine's facade: every shell (Electron main, the CLI, the browser host) uses this one
// class. It finds the teams (running ones under the teams root, ended ones in the state dir),
// reads Claude's files into each team's history, and hands sends to the delivery engine. The
// rules live in their own modules: claude/ (what Claude does, per era), delivery/ (journal,
// outboxes, the inbox channel), history/ (ingest, views, transcripts, remembered teams).
import { lstat, readdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { AppEvent } from '../../shared/contract.js';
import type { RosterEntry, SendRequest, SendResult, TeamProblem, TeamSummary, ThreadMessage } from '../../shared/types.js';
import { readTeamConfig } from './claude/config.js';
import { classifyEra, DEFAULT_SENDER_NAME, leadReadsInbox, senderFor, senderNameProblem } from './claude/era.js';
import { InboxReader } from './claude/inbox-tail.js';
import { DELETED_TEAM_FOLDER, ENDED_FOLDER_GONE, judgeLiveness } from './claude/lifecycle.js';
import { inboxFileStem, isSafeSegment, teamDirName, teamPaths } from './claude/paths.js';
import { buildMembers, listInboxOwners, listTeamIds, USER_INBOX } from './claude/team-reader.js';
import { Deliveries } from './delivery/deliveries.js';
import { Journal } from './delivery/journal.js';
import { DEFAULT_BACKOFF, type BackoffOptions } from './delivery/outbox.js';
import { checkTarget, checkText, findMember } from './delivery/send-checks.js';
import { foldInbox, noteEvent, noteObserved } from './history/ingest.js';
import { journalDirOf, listJournalTeams, mergeMembers, readTeamMeta, writeTeamMeta, type TeamMeta } from './history/team-meta.js';
import { holdsTeammateBlock, TranscriptWatch } from './history/transcript-watch.js';
import { answerFor, feedOf, observedToThread, threadOf } from './history/views.js';
import { DEFAULT_IDLE_THRESHOLD_MS, memberState } from './presence.js';
import { preserveBytes } from './preserve.js';
import { SendRefusedError, type TeamServiceApi, type TeamServiceOptions } from './service-types.js';
import { acquireStateLock } from './state-lock.js';
import { TeamRuntime } from './team-runtime.js';
import { Coalescer, watchTeamsRoot, type RootWatcher, type WatchTarget } from './watcher.js';

export { MAX_TEXT_BYTES, MAX_SUMMARY_CHARS } from './delivery/send-checks.js';
export const DEFAULT_MAX_PENDING = 64;
/** An inbox this large is reported: Claude's delivery is known to stall past about 1 MB. */
export const HUGE_INBOX_BYTES = 1_000_000;
/** Journal records in one segment before it is folded into a snapshot. */
const COMPACT_AFTER = 50_000;
/** How often transcripts are looked at while a delivered message waits to be seen. */
const SEEN_POLL_MS = 500;

export class TeamNotFoundError extends Error {
  readonly code = 'not_found';
  constructor(message: string) {
    super(message);
    this.name = 'TeamNotFoundError';
  }
}

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
  private readonly delivery: Deliveries;
  private teams = new Map<string, TeamRuntime>();
  private opening = new Map<string, Promise<TeamRuntime | undefined>>();
  private listeners = new Set<(e: AppEvent) => void>();
  private release: (() => Promise<void>) | undefined;
  private watcher: RootWatcher | undefined;
  private rescanTimer: NodeJS.Timeout | undefined;
  private seenTimer: NodeJS.Timeout | undefined;
  private globalProblems = new Map<string, TeamProblem>();
  private started = false;
  private stopping = false;
  private readonly reads: Coalescer;
  /** Reads only the appended tail of a huge inbox that grew by appends. */
  private readonly inboxReader = new InboxReader();
  private readonly openInBackground: boolean;
  /** Teams found at start and not read yet (openInBackground), as their configs describe them. */
  private unopened = new Map<string, TeamSummary>();
  private background: Promise<void> | undefined;

  constructor(opts: TeamServiceOptions & { backoff?: BackoffOptions; rescanMs?: number }) {
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
    this.openInBackground = opts.openInBackground ?? false;
    this.reads = new Coalescer((key) => this.readKey(key));
    this.delivery = new Deliveries({
      teamsRoot: this.teamsRoot,
      stateDir: this.stateDir,
      now: this.now,
      backoff: opts.backoff ?? DEFAULT_BACKOFF,
      maxPending: opts.maxPendingPerTarget ?? DEFAULT_MAX_PENDING,
      emit: (e) => this.emit(e),
      queuedCount: () => this.queuedCount(),
    });
  }

  // ---------------------------------------------------------------- lifecycle

  async start(): Promise<void> {
    if (this.started) return;
    this.release = await acquireStateLock(this.stateDir);
    this.started = true;
    await TeamService.tidyStateDir(this.stateDir);
    try {
      if (this.openInBackground) {
        await this.listUnopened();
        // A team this pass fails to read is read again by the next rescan, or when it is asked for.
        this.background = this.scanTeams(true).catch(() => {});
      } else {
        await this.scanTeams(true);
      }
      if (this.watchEnabled) {
        this.startWatching();
        this.rescanTimer = setInterval(() => void this.rescan(), this.rescanMs);
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
    if (this.rescanTimer) clearInterval(this.rescanTimer);
    if (this.seenTimer) clearTimeout(this.seenTimer);
    await this.watcher?.close().catch(() => {});
    // A team being read in the background finishes first: its journal is closed below.
    await this.background;
    for (const t of this.teams.values()) for (const o of t.outboxes.values()) await o.stop();
    await this.reads.settled();
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
    for (const t of this.teams.values()) this.emit({ type: 'roster', team: t.id, roster: this.rosterOf(t) });
  }

  /** The sender name written on current-era teams from now on (refuses reserved names). */
  setSenderName(name: string): void {
    const problem = senderNameProblem(name);
    if (problem) throw new SendRefusedError(problem);
    this.senderName = name;
    this.emit({ type: 'teams', teams: this.summaries() });
  }

  // ---------------------------------------------------------------- discovery and reading

  private startWatching(): void {
    this.watcher = watchTeamsRoot(
      this.teamsRoot,
      (t) => this.onWatch(t),
      (e) => this.problem({ kind: 'watch', file: '.', message: `watching failed: ${e.message}` }),
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
    if (kind === 'scan') return this.scanTeams(false);
    if (kind === 'seen') return this.pollTranscripts();
    const rt = this.teams.get(team!) ?? (await this.openTeam(team!));
    if (!rt || rt.ended) return;
    if (kind === 'c') return this.loadConfig(rt, true);
    if (kind === 'i') return this.ingestInbox(rt, owner!, true);
  }

  /** The periodic safety net: catches anything the watcher missed, re-reading only changed files. */
  private async rescan(): Promise<void> {
    if (this.stopping) return;
    this.reads.schedule('scan');
    for (const rt of this.teams.values()) {
      if (rt.ended) continue;
      this.checkLiveness(rt);
      for (const owner of await listInboxOwners(teamPaths(this.teamsRoot, rt.id).inboxes)) {
        const seen = rt.seen.get(owner);
        try {
          const st = await stat(join(teamPaths(this.teamsRoot, rt.id).inboxes, `${owner}.json`));
          if (!seen || seen.size !== st.size || seen.mtimeMs !== st.mtimeMs) this.reads.schedule(`i\u0000${rt.id}\u0000${owner}`);
        } catch {
          // gone between listing and stat
        }
      }
    }
    this.reads.schedule('seen');
  }

  /** The teams under the root, listed from their configs before their histories are read. */
  private async listUnopened(): Promise<void> {
    for (const id of await listTeamIds(this.teamsRoot)) {
      const r = await readTeamConfig(teamPaths(this.teamsRoot, id).config);
      const config = r.kind === 'ok' ? r.config : undefined;
      const era = classifyEra({ teamId: id, config });
      const s: TeamSummary = {
        id,
        name: config?.name ?? id,
        memberCount: config?.members.length ?? 0,
        problems: [],
        era,
        state: 'running',
        sendAs: senderFor(era, this.senderName),
        leadReadsInbox: leadReadsInbox(era, config, undefined),
      };
      if (config?.description !== undefined) s.description = config.description;
      if (config?.createdAt !== undefined) s.createdAt = config.createdAt;
      this.unopened.set(id, s);
    }
  }

  /**
   * Opens every team under the root not open yet, and notices teams whose folder is gone: they
   * ended. At start, teams known only from the state dir (ended while Teamdeck was away) too.
   */
  private async scanTeams(includeRemembered: boolean): Promise<void> {
    // In the order the window lists them, so the team it opens first is read first.
    const ids = (await listTeamIds(this.teamsRoot)).sort((a, b) => a.localeCompare(b));
    const present = new Set(ids);
    let changed = false;
    for (const id of ids) {
      if (this.stopping) return;
      const rt = this.teams.get(id);
      if (!rt) {
        if (await this.openTeam(id)) changed = true;
      } else if (rt.ended && rt.ended.reason === ENDED_FOLDER_GONE) {
        // A folder of that name is back (a legacy team made again): read it as running.
        if (await this.reopenTeam(rt)) changed = true;
      } else {
        const owners = await listInboxOwners(teamPaths(this.teamsRoot, id).inboxes);
        for (const o of owners) if (!rt.owners.includes(o)) this.reads.schedule(`i\u0000${id}\u0000${o}`);
      }
    }
    for (const rt of this.teams.values()) {
      if (!present.has(rt.id) && !rt.ended && !(await this.folderPresent(rt.id))) {
        await this.markEnded(rt, ENDED_FOLDER_GONE);
        changed = true;
      }
    }
    if (includeRemembered) {
      for (const id of await listJournalTeams(this.stateDir)) {
        if (this.stopping) return;
        if (!present.has(id) && !this.teams.has(id) && (await this.openTeam(id))) changed = true;
      }
    }
    if (changed) this.emit({ type: 'teams', teams: this.summaries() });
  }

  private async folderPresent(id: string): Promise<boolean> {
    try {
      return (await lstat(teamPaths(this.teamsRoot, id).dir)).isDirectory();
    } catch {
      return false;
    }
  }

  private openTeam(id: string): Promise<TeamRuntime | undefined> {
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
          this.emit({ type: 'teams', teams: this.summaries() });
          const rt = this.teams.get(id);
          if (rt) this.emit({ type: 'roster', team: id, roster: this.rosterOf(rt) });
        }
      });
      this.opening.set(id, p);
    }
    return p;
  }

  private async doOpenTeam(id: string): Promise<TeamRuntime | undefined> {
    const folder = await this.folderPresent(id);
    const journalDir = journalDirOf(this.stateDir, id);
    const meta = await readTeamMeta(journalDir);
    // An ended team is listed only while Teamdeck remembers something of it (and a name that
    // is neither a folder nor a journal gets no journal made for it).
    if (!folder && !meta && !(await lstat(journalDir).then(() => true, () => false))) return undefined;
    let opened;
    try {
      opened = await Journal.open(journalDir);
    } catch (e) {
      // A journal we cannot fold (or even open) is never guessed at: the team is shown as
      // broken, and nothing is sent to it until a human looks. The other teams carry on.
      this.problem({ kind: 'journal', file: `journal/${id}`, message: (e as Error).message });
      return undefined;
    }
    if (!folder && !meta && opened.state.records === 0) {
      await opened.journal.close();
      return undefined;
    }
    const rt = new TeamRuntime(id, opened.journal, opened.state);
    rt.meta = meta;
    if (meta) rt.era = meta.era;
    if (opened.tornBytes > 0) {
      this.problem({ kind: 'journal', file: `journal/${id}`, message: `recovered from a crash: cut ${opened.tornBytes} bytes of an unfinished journal line` }, false);
    }
    this.teams.set(id, rt);
    if (folder) {
      await this.loadConfig(rt, false);
      rt.owners = await listInboxOwners(teamPaths(this.teamsRoot, id).inboxes);
      rt.era = classifyEra({ teamId: id, config: rt.config, hasUserInbox: rt.owners.includes(USER_INBOX) });
    }
    // Presence, reply and answer facts from history (after the era is known).
    for (const o of rt.state.observed.values()) noteObserved(rt, o);
    if (folder) {
      for (const owner of rt.owners) await this.ingestInbox(rt, owner, false);
      this.rebuildMembers(rt);
      this.checkLiveness(rt, false);
    } else {
      rt.members = mergeMembers(buildMembers(undefined, [], rt.state.observed.values()), meta?.members ?? []);
      rt.ended = { at: meta?.endedAt ?? this.now(), reason: meta?.endedReason ?? ENDED_FOLDER_GONE };
    }
    this.watchTranscripts(rt);
    this.delivery.recover(rt);
    await this.rememberTeam(rt);
    if (rt.state.records > COMPACT_AFTER && rt.journal.segmentRecords > COMPACT_AFTER / 2) await rt.journal.compact(rt.state);
    return rt;
  }

  /** A team folder of an ended team's name is there again: read it as a running team. */
  private async reopenTeam(rt: TeamRuntime): Promise<boolean> {
    rt.ended = undefined;
    await this.loadConfig(rt, false);
    rt.owners = await listInboxOwners(teamPaths(this.teamsRoot, rt.id).inboxes);
    for (const owner of rt.owners) await this.ingestInbox(rt, owner, false);
    this.rebuildMembers(rt);
    await this.rememberTeam(rt);
    this.emit({ type: 'roster', team: rt.id, roster: this.rosterOf(rt) });
    return true;
  }

  private rebuildMembers(rt: TeamRuntime): void {
    rt.members = mergeMembers(buildMembers(rt.config, rt.owners, rt.state.observed.values()), rt.meta?.members ?? []);
  }

  private async loadConfig(rt: TeamRuntime, announce: boolean): Promise<void> {
    const r = await readTeamConfig(teamPaths(this.teamsRoot, rt.id).config);
    rt.problems.delete('config');
    if (r.kind === 'ok') {
      rt.config = r.config;
      if (r.config.skippedMembers.length) {
        rt.problems.set('config', { kind: 'config', file: `${rt.id}/config.json`, message: r.config.skippedMembers.join('; ') });
      }
      for (const m of r.config.members) {
        if (m.joinedAt !== undefined) noteEvent(rt, m.name, m.joinedAt);
      }
    } else if (r.kind === 'invalid') {
      // Keep the last good config: a half-written config must not empty the roster.
      rt.problems.set('config', { kind: 'config', file: `${rt.id}/config.json`, message: r.message });
    }
    if (!announce) return;
    rt.era = classifyEra({ teamId: rt.id, config: rt.config, hasUserInbox: rt.owners.includes(USER_INBOX) });
    this.checkLiveness(rt, false);
    this.watchTranscripts(rt);
    this.refreshMembers(rt);
    await this.rememberTeam(rt);
  }

  /** A current-era team whose lead's process is gone has ended, though Claude left its folder. */
  private checkLiveness(rt: TeamRuntime, announce = true): void {
    if (rt.ended) return;
    const live = judgeLiveness(rt.era, rt.config);
    if (live.state === 'ended') void this.markEnded(rt, live.reason, announce);
  }

  /** The team ended: its members with it; what waits for it becomes undeliverable. */
  private async markEnded(rt: TeamRuntime, reason: string, announce = true): Promise<void> {
    if (rt.ended) return;
    rt.ended = { at: this.now(), reason };
    this.delivery.kickAll(rt);
    await this.rememberTeam(rt).catch(() => {});
    if (!announce) return;
    this.emit({ type: 'roster', team: rt.id, roster: this.rosterOf(rt) });
    this.emit({ type: 'teams', teams: this.summaries() });
  }

  /** Writes team.json when what Teamdeck remembers of the team changed. */
  private async rememberTeam(rt: TeamRuntime): Promise<void> {
    const meta: TeamMeta = {
      v: 1,
      id: rt.id,
      name: rt.config?.name ?? rt.meta?.name ?? rt.id,
      era: rt.era,
      members: rt.members.map((m) => ({ ...m })),
    };
    const createdAt = rt.config?.createdAt ?? rt.meta?.createdAt;
    if (createdAt !== undefined) meta.createdAt = createdAt;
    const leadSessionId = rt.config?.leadSessionId ?? rt.meta?.leadSessionId;
    if (leadSessionId !== undefined) meta.leadSessionId = leadSessionId;
    if (rt.ended) {
      meta.endedAt = rt.ended.at;
      meta.endedReason = rt.ended.reason;
    }
    if (JSON.stringify(meta) === JSON.stringify(rt.meta)) return;
    // A team with nothing in its history and nothing to remember is not worth a file (Claude's
    // transient startup teams live for milliseconds).
    if (!rt.meta && rt.state.records === 0 && rt.ended) return;
    rt.meta = meta;
    await writeTeamMeta(rt.journal.dir, meta).catch((e: Error) => this.problem({ kind: 'journal', file: `journal/${rt.id}/team.json`, message: `cannot remember the team: ${e.message}` }));
  }

  private refreshMembers(rt: TeamRuntime): void {
    this.rebuildMembers(rt);
    this.emit({ type: 'roster', team: rt.id, roster: this.rosterOf(rt) });
    this.emit({ type: 'teams', teams: this.summaries() });
  }

  /**
   * Re-reads one inbox and folds what changed into history and receipts. Never sends anything:
   * the only thing it may do for delivery is wake a waiting queue.
   */
  private async ingestInbox(rt: TeamRuntime, owner: string, announce: boolean): Promise<void> {
    const seqAtStart = this.delivery.writeSeq;
    const path = join(teamPaths(this.teamsRoot, rt.id).inboxes, `${owner}.json`);
    const file = `${rt.id}/inboxes/${owner}.json`;
    const r = await this.inboxReader.read(path, rt.id, owner);
    const key = `inbox:${owner}`;
    if (!rt.owners.includes(owner) && r.kind !== 'missing') {
      rt.owners.push(owner);
      rt.owners.sort();
    }
    if (r.kind === 'missing') {
      rt.seen.delete(owner);
      rt.problems.delete(key);
      return;
    }
    if (r.kind === 'error') {
      this.teamProblem(rt, key, { kind: 'inbox', file, message: r.reason }, announce);
      return;
    }
    if (r.kind === 'corrupt') {
      // Never treated as empty, never rewritten by us; its bytes are kept before Claude's
      // next write (which treats it as empty) can destroy them.
      const preservedAt = await preserveBytes(join(this.stateDir, 'preserved', rt.id), `${owner}.json`, r.bytes).catch(() => undefined);
      rt.seen.set(owner, { size: r.size, mtimeMs: r.mtimeMs });
      this.teamProblem(rt, key, { kind: 'inbox', file, message: `unreadable: ${r.reason}${preservedAt ? '; its bytes were kept' : ''}`, preservedAt }, announce);
      return;
    }
    rt.seen.set(owner, { size: r.size, mtimeMs: r.mtimeMs });
    // A 0-byte file is being created, or rewritten in place by an older Claude: it says
    // nothing about what was consumed, and a later read will see the real contents.
    if (r.size === 0) return;
    if (r.size > HUGE_INBOX_BYTES) {
      this.teamProblem(rt, key, { kind: 'inbox', file, message: `inbox is ${(r.size / 1e6).toFixed(1)} MB; Claude's delivery slows down past about 1 MB` }, announce);
    } else if (r.invalidEntries > 0) {
      this.teamProblem(rt, key, { kind: 'inbox', file, message: `${r.invalidEntries} entries are not messages and were skipped (left in the file)` }, announce);
    } else if (rt.problems.delete(key) && announce) {
      this.emit({ type: 'teams', teams: this.summaries() });
    }
    // When the file only grew by appends since the last read, the messages before are the same
    // bytes as then, already folded in: only the new ones are looked at.
    const from = 'appended' in r ? r.messages.length - r.appended : 0;
    const { records, fresh } = foldInbox(rt, owner, r.messages, from, seqAtStart, this.now());
    if (records.length) {
      await rt.journal.append(...records);
      rt.state.records += records.length;
    }
    let rosterChanged = false;
    for (const o of fresh) {
      const wasTerminated = rt.terminated.has(o.from);
      if (noteObserved(rt, o)) rosterChanged = true;
      // A member that shut down never reads again: what waits for it is undeliverable now.
      if (!wasTerminated && rt.terminated.has(o.from)) rt.outboxes.get(inboxFileStem(o.from))?.kick();
    }
    if (!announce) return;
    for (const o of fresh) {
      this.emit({ type: 'message', team: rt.id, message: observedToThread(rt, o) });
      // An idle notification that answers Teamdeck also shows as the member's own message.
      const answer = rt.era === 'current' ? answerFor(rt, o) : undefined;
      if (answer && answer.id !== o.id) this.emit({ type: 'message', team: rt.id, message: answer });
    }
    this.delivery.announceAll(rt);
    if (rosterChanged || fresh.some((o) => !rt.members.some((mm) => mm.name === o.from))) this.refreshMembers(rt);
    // The target's inbox changed: a queue waiting on it may get through now.
    rt.outboxes.get(inboxFileStem(owner))?.kick();
    if (records.some((x) => x.t === 'consumed')) this.scheduleSeenPoll();
    if (rt.journal.segmentRecords > COMPACT_AFTER) await rt.journal.compact(rt.state);
  }

  // ---------------------------------------------------------------- transcripts (current era)

  private watchTranscripts(rt: TeamRuntime): void {
    const session = rt.config?.leadSessionId ?? rt.meta?.leadSessionId;
    if (rt.era !== 'current' || !session || rt.transcripts?.leadSessionId === session) return;
    rt.transcripts = new TranscriptWatch(this.configDir, session, rt.config?.name ?? rt.id);
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

  /** Reads what was appended to the teams' transcripts: `seen` receipts and answers. */
  private async pollTranscripts(): Promise<void> {
    let waiting = false;
    for (const rt of this.teams.values()) {
      if (!rt.transcripts) continue;
      const unseen = [...rt.state.sent.values()].filter((s) => s.deliveredAt !== undefined && s.seenAt === undefined);
      if (rt.ended && unseen.length === 0) continue;
      const found = await rt.transcripts.poll(rt.lead?.name ?? 'team-lead');
      const seen = unseen.filter((s) => found.prompts.some((p) => p.agent === s.to && holdsTeammateBlock(p.text, s.from, s.text)));
      if (seen.length) await this.delivery.markSeen(rt, seen.map((s) => s.id));
      // Addressed to the user, or to any name Teamdeck wrote as on this team.
      const ours = new Set([USER_INBOX, senderFor(rt.era, this.senderName), ...[...rt.state.sent.values()].map((s) => s.from)]);
      const answers = found.sends.filter((a) => ours.has(a.to.toLowerCase()) || ours.has(a.to));
      const records = [];
      for (const a of answers) {
        if (rt.state.observed.has(a.id)) continue;
        const o = { id: a.id, from: a.agent, to: a.to, text: a.text, timestamp: a.timestamp, at: this.now(), source: 'transcript' as const };
        rt.state.observed.set(o.id, o);
        records.push({ t: 'observed' as const, ...o });
        noteObserved(rt, o);
        this.emit({ type: 'message', team: rt.id, message: observedToThread(rt, o) });
      }
      if (records.length) {
        await rt.journal.append(...records);
        rt.state.records += records.length;
        this.delivery.announceAll(rt);
      }
      if (unseen.length > seen.length && !rt.ended) waiting = true;
    }
    if (waiting) this.scheduleSeenPoll();
  }

  // ---------------------------------------------------------------- problems

  private teamProblem(rt: TeamRuntime, key: string, p: TeamProblem, announce: boolean): void {
    const prev = rt.problems.get(key);
    rt.problems.set(key, p);
    if (announce && prev?.message !== p.message) {
      this.emit({ type: 'problem', problem: p });
      this.emit({ type: 'teams', teams: this.summaries() });
    }
  }

  private problem(p: TeamProblem, announce = true): void {
    this.globalProblems.set(`${p.kind}:${p.file}`, p);
    if (announce) this.emit({ type: 'problem', problem: p });
  }

  // ---------------------------------------------------------------- delivery

  private async resolveTeam(team: string): Promise<TeamRuntime> {
    if (!this.started) throw new Error('service not started');
    const candidates = [team, teamDirName(team)];
    for (const c of candidates) {
      if (!isSafeSegment(c)) continue;
      // A team still being read is waited for: its roster and history are not complete yet.
      const rt = this.opening.has(c) ? await this.opening.get(c) : (this.teams.get(c) ?? (await this.openTeam(c)));
      if (rt) return rt;
    }
    for (const rt of this.teams.values()) if (rt.config?.name === team) return rt;
    for (const c of candidates) {
      const broken = this.globalProblems.get(`journal:journal/${c}`);
      if (broken && !this.teams.has(c)) throw new TeamNotFoundError(`team ${c} is unavailable: ${broken.message}`);
    }
    throw new TeamNotFoundError(`no team ${JSON.stringify(team)} in ${this.teamsRoot}`);
  }

  async send(req: SendRequest): Promise<SendResult> {
    checkText(req);
    // Everything from here to the journal append runs without yielding when the team is
    // already open, so concurrent sends are journaled (and so delivered) in call order.
    let rt: TeamRuntime;
    try {
      rt = (!this.opening.has(req.team) && this.teams.get(req.team)) || (await this.resolveTeam(req.team));
    } catch (e) {
      if (e instanceof TeamNotFoundError) throw new SendRefusedError(e.message);
      throw e;
    }
    const member = checkTarget(rt, this.teamsRoot, req.to);
    return this.delivery.send(rt, member, req.text, req.summary, senderFor(rt.era, this.senderName));
  }

  // ---------------------------------------------------------------- views

  private rosterOf(rt: TeamRuntime): RosterEntry[] {
    const now = this.now();
    return rt.members.map((m) => {
      const lastEventAt = rt.lastEvent.get(m.name);
      // A team that ended ended every member with it.
      const terminated = !!rt.ended || rt.terminated.has(m.name);
      const e: RosterEntry = { ...m, state: memberState({ lastEventAt, terminated }, now, this.idleMs) };
      if (lastEventAt !== undefined) e.lastEventAt = lastEventAt;
      return e;
    });
  }

  private summaryOf(rt: TeamRuntime): TeamSummary {
    return rt.summary(senderFor(rt.era, this.senderName), leadReadsInbox(rt.era, rt.config, rt.lead?.name));
  }

  private summaries(): TeamSummary[] {
    const unopened = [...this.unopened.values()].filter((s) => !this.teams.has(s.id));
    return [...this.teams.values()]
      .map((rt) => this.summaryOf(rt))
      .concat(unopened.map((s) => ({ ...s, sendAs: senderFor(s.era, this.senderName) })))
      .sort((a, b) => a.id.localeCompare(b.id));
  }

  async listTeams(): Promise<TeamSummary[]> {
    return this.summaries();
  }

  async roster(team: string): Promise<RosterEntry[]> {
    return this.rosterOf(await this.resolveTeam(team));
  }

  async thread(team: string, member: string): Promise<ThreadMessage[]> {
    const rt = await this.resolveTeam(team);
    const m = findMember(rt, member);
    if (!m) throw new TeamNotFoundError(`team ${rt.id} has no member ${JSON.stringify(member)}`);
    return threadOf(rt, m.name, m.inboxName);
  }

  async feed(team: string): Promise<ThreadMessage[]> {
    return feedOf(await this.resolveTeam(team));
  }

  async refresh(): Promise<void> {
    await this.scanTeams(false);
    for (const rt of this.teams.values()) {
      if (rt.ended) continue;
      await this.loadConfig(rt, true);
      for (const owner of await listInboxOwners(teamPaths(this.teamsRoot, rt.id).inboxes)) {
        this.reads.schedule(`i\u0000${rt.id}\u0000${owner}`);
      }
    }
    this.reads.schedule('seen');
    await this.reads.settled();
  }

  problems(): TeamProblem[] {
    const out = [...this.globalProblems.values()];
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
