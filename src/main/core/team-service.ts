// The engine: durable sends (the Steer model on files), history, receipts and presence for
// every team under one teams root. Plain Node; every shell wraps this one class.
import { lstat, stat, readdir, rm } from 'node:fs/promises';
import { lstatSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AppEvent } from '../../shared/contract.js';
import type {
  DeliveryStatus,
  MemberInfo,
  RosterEntry,
  SendRequest,
  SendResult,
  TeamMessage,
  TeamProblem,
  TeamSummary,
  ThreadMessage,
} from '../../shared/types.js';
import { readTeamConfig, type TeamConfig } from './claude/config.js';
import { looksLikeProtocolFrame, parseFrame, isShutdownApproval } from './claude/frames.js';
import { appendManyToInbox, userInboxEntry } from './claude/inbox-writer.js';
import { InboxReader } from './claude/inbox-tail.js';
import { Journal, type FoldedState, type JournalRecord, type SentState, type ObservedState } from './delivery/journal.js';
import { newMessageId } from './claude/message-id.js';
import { TargetOutbox, DEFAULT_BACKOFF, type BackoffOptions, type Outcome } from './delivery/outbox.js';
import { inboxFileStem, teamDirName, teamPaths, isSafeSegment } from './claude/paths.js';
import { DEFAULT_IDLE_THRESHOLD_MS, memberState } from './presence.js';
import { preserveBytes } from './preserve.js';
import { SendRefusedError, type TeamServiceApi, type TeamServiceOptions } from './service-types.js';
import { acquireStateLock } from './state-lock.js';
import { buildMembers, listInboxOwners, listTeamIds, USER_INBOX } from './claude/team-reader.js';
import { Coalescer, watchTeamsRoot, type RootWatcher, type WatchTarget } from './watcher.js';

export const MAX_TEXT_BYTES = 65_536;
export const MAX_SUMMARY_CHARS = 1_000;
export const DEFAULT_MAX_PENDING = 64;
/** An inbox this large is reported: Claude's delivery is known to stall past about 1 MB. */
export const HUGE_INBOX_BYTES = 1_000_000;
/** Journal records in one segment before it is folded into a snapshot. */
const COMPACT_AFTER = 50_000;

export class TeamNotFoundError extends Error {
  readonly code = 'not_found';
  constructor(message: string) {
    super(message);
    this.name = 'TeamNotFoundError';
  }
}

interface InboxSeen {
  size: number;
  mtimeMs: number;
}

/** Everything the service holds for one team. */
class TeamRuntime {
  config: TeamConfig | undefined;
  configProblem: TeamProblem | undefined;
  owners: string[] = [];
  members: MemberInfo[] = [];
  problems = new Map<string, TeamProblem>();
  outboxes = new Map<string, TargetOutbox>();
  /** Last time each member did anything (ms), and who approved its own shutdown. */
  lastEvent = new Map<string, number>();
  terminated = new Set<string>();
  /** Latest message time from each member to the user, for `replied`. */
  lastReply = new Map<string, number>();
  /** Status last announced per sent id, to emit only changes. */
  announced = new Map<string, DeliveryStatus>();
  /** Why each waiting message waits. */
  waitReason = new Map<string, string>();
  /** Write sequence at which each sent id was written into its inbox in this process. */
  writtenSeq = new Map<string, number>();
  seen = new Map<string, InboxSeen>();
  constructor(
    readonly id: string,
    readonly journal: Journal,
    readonly state: FoldedState,
  ) {}
}

export class TeamService implements TeamServiceApi {
  readonly teamsRoot: string;
  readonly stateDir: string;
  private readonly now: () => number;
  private idleMs: number;
  private readonly maxPending: number;
  private readonly watchEnabled: boolean;
  private readonly backoff: BackoffOptions;
  private teams = new Map<string, TeamRuntime>();
  private opening = new Map<string, Promise<TeamRuntime | undefined>>();
  private listeners = new Set<(e: AppEvent) => void>();
  private release: (() => Promise<void>) | undefined;
  private watcher: RootWatcher | undefined;
  private rescanTimer: NodeJS.Timeout | undefined;
  private globalProblems = new Map<string, TeamProblem>();
  private writeSeq = 0;
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
    this.now = opts.now ?? Date.now;
    this.idleMs = opts.idleThresholdMs ?? DEFAULT_IDLE_THRESHOLD_MS;
    this.maxPending = opts.maxPendingPerTarget ?? DEFAULT_MAX_PENDING;
    this.watchEnabled = opts.watch ?? true;
    this.backoff = opts.backoff ?? DEFAULT_BACKOFF;
    this.rescanMs = opts.rescanMs ?? 2_000;
    this.openInBackground = opts.openInBackground ?? false;
    this.reads = new Coalescer((key) => this.readKey(key));
  }
  private readonly rescanMs: number;

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
        this.background = this.scanTeams().catch(() => {});
      } else {
        await this.scanTeams();
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
    if (kind === 'scan') return this.scanTeams();
    const rt = this.teams.get(team!) ?? (await this.openTeam(team!));
    if (!rt) return;
    if (kind === 'c') return this.loadConfig(rt, true);
    if (kind === 'i') return this.ingestInbox(rt, owner!, true);
  }

  /** The periodic safety net: catches anything the watcher missed, re-reading only changed files. */
  private async rescan(): Promise<void> {
    if (this.stopping) return;
    this.reads.schedule('scan');
    for (const rt of this.teams.values()) {
      for (const owner of await listInboxOwners(teamPaths(this.teamsRoot, rt.id).inboxes)) {
        const seen = rt.seen.get(owner);
        try {
          const st = await stat(join(teamPaths(this.teamsRoot, rt.id).inboxes, `${owner}.json`));
          if (!seen || seen.size !== st.size || seen.mtimeMs !== st.mtimeMs) this.reads.schedule(`i\u0000${rt.id}\u0000${owner}`);
        } catch {
          // gone between listing and stat
        }
      }
      // Waiting messages get another chance even when no file event arrives.
    }
  }

  /** The teams under the root, listed from their configs before their histories are read. */
  private async listUnopened(): Promise<void> {
    for (const id of await listTeamIds(this.teamsRoot)) {
      const r = await readTeamConfig(teamPaths(this.teamsRoot, id).config);
      const config = r.kind === 'ok' ? r.config : undefined;
      const s: TeamSummary = { id, name: config?.name ?? id, memberCount: config?.members.length ?? 0, problems: [] };
      if (config?.description !== undefined) s.description = config.description;
      if (config?.createdAt !== undefined) s.createdAt = config.createdAt;
      this.unopened.set(id, s);
    }
  }

  private async scanTeams(): Promise<void> {
    // In the order the window lists them, so the team it opens first is read first.
    const ids = (await listTeamIds(this.teamsRoot)).sort((a, b) => a.localeCompare(b));
    let changed = false;
    for (const id of ids) {
      if (this.stopping) return;
      if (!this.teams.has(id)) {
        const rt = await this.openTeam(id);
        if (rt) changed = true;
      } else {
        const rt = this.teams.get(id)!;
        const owners = await listInboxOwners(teamPaths(this.teamsRoot, id).inboxes);
        for (const o of owners) if (!rt.owners.includes(o)) this.reads.schedule(`i\u0000${id}\u0000${o}`);
      }
    }
    if (changed) this.emit({ type: 'teams', teams: this.summaries() });
  }

  private openTeam(id: string): Promise<TeamRuntime | undefined> {
    if (!isSafeSegment(id)) return Promise.resolve(undefined);
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
    const paths = teamPaths(this.teamsRoot, id);
    try {
      const st = await lstat(paths.dir);
      if (!st.isDirectory()) return undefined;
    } catch {
      return undefined;
    }
    let opened;
    try {
      opened = await Journal.open(join(this.stateDir, 'journal', id));
    } catch (e) {
      // A journal we cannot fold (or even open) is never guessed at: the team is shown as
      // broken, and nothing is sent to it until a human looks. The other teams carry on.
      this.problem({ kind: 'journal', file: `journal/${id}`, message: (e as Error).message });
      return undefined;
    }
    const rt = new TeamRuntime(id, opened.journal, opened.state);
    if (opened.tornBytes > 0) {
      this.problem({ kind: 'journal', file: `journal/${id}`, message: `recovered from a crash: cut ${opened.tornBytes} bytes of an unfinished journal line` }, false);
    }
    // Presence and reply facts from history.
    for (const o of rt.state.observed.values()) this.noteObserved(rt, o);
    this.teams.set(id, rt);
    await this.loadConfig(rt, false);
    rt.owners = await listInboxOwners(paths.inboxes);
    for (const owner of rt.owners) await this.ingestInbox(rt, owner, false);
    rt.members = buildMembers(rt.config, rt.owners, rt.state.observed.values());
    // Recovery: everything queued and not delivered, per target, in journal order.
    for (const s of rt.state.sent.values()) {
      if (s.deliveredAt === undefined) this.outboxFor(rt, s.to).enqueue(s.id);
      rt.announced.set(s.id, this.statusOf(rt, s));
    }
    if (rt.state.records > COMPACT_AFTER && rt.journal.segmentRecords > COMPACT_AFTER / 2) await rt.journal.compact(rt.state);
    return rt;
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
        if (m.joinedAt !== undefined) this.noteEvent(rt, m.name, m.joinedAt);
      }
    } else if (r.kind === 'invalid') {
      // Keep the last good config: a half-written config must not empty the roster.
      rt.problems.set('config', { kind: 'config', file: `${rt.id}/config.json`, message: r.message });
    }
    if (announce) this.refreshMembers(rt);
  }

  private refreshMembers(rt: TeamRuntime): void {
    rt.members = buildMembers(rt.config, rt.owners, rt.state.observed.values());
    this.emit({ type: 'roster', team: rt.id, roster: this.rosterOf(rt) });
    this.emit({ type: 'teams', teams: this.summaries() });
  }

  /**
   * Re-reads one inbox and folds what changed into history and receipts. Never sends anything:
   * the only thing it may do for delivery is wake a waiting queue.
   */
  private async ingestInbox(rt: TeamRuntime, owner: string, announce: boolean): Promise<void> {
    const seqAtStart = this.writeSeq;
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

    const records: JournalRecord[] = [];
    const fresh: ObservedState[] = [];
    const at = this.now();
    const ownerStem = inboxFileStem(owner);
    // When the file only grew by appends since the last read, the messages before are the same
    // bytes as then, already folded in: only the new ones are looked at.
    const from = 'appended' in r ? r.messages.length - r.appended : 0;
    for (let i = from; i < r.messages.length; i++) {
      const m = r.messages[i]!;
      const sent = rt.state.sent.get(m.id);
      if (sent) {
        if (m.read && sent.deliveredAt !== undefined && sent.consumedAt === undefined) {
          sent.consumedAt = at;
          records.push({ t: 'consumed', id: sent.id, to: sent.to, at, how: 'flagged' });
        }
        continue;
      }
      if (rt.state.observed.has(m.id)) continue;
      const o: ObservedState = { id: m.id, from: m.from, to: owner, text: m.text, timestamp: m.timestamp, at };
      if (m.summary !== undefined) o.summary = m.summary;
      if (m.color !== undefined) o.color = m.color;
      rt.state.observed.set(o.id, o);
      records.push({ t: 'observed', ...o });
      fresh.push(o);
    }
    // A delivered message that is no longer in its inbox was consumed (pruned) by its owner.
    // Only a read that began after the write can tell: an earlier one may predate it.
    let present: Set<string> | undefined;
    for (const s of rt.state.sent.values()) {
      if (s.deliveredAt === undefined || s.consumedAt !== undefined || inboxFileStem(s.to) !== ownerStem) continue;
      const seq = rt.writtenSeq.get(s.id) ?? 0;
      if (seq > seqAtStart) continue;
      present ??= new Set(r.messages.map((m) => m.id));
      if (present.has(s.id)) continue;
      s.consumedAt = at;
      records.push({ t: 'consumed', id: s.id, to: s.to, at, how: 'pruned' });
    }
    if (records.length) {
      await rt.journal.append(...records);
      rt.state.records += records.length;
    }
    let rosterChanged = false;
    for (const o of fresh) {
      if (this.noteObserved(rt, o)) rosterChanged = true;
    }
    if (!announce) return;
    for (const o of fresh) this.emit({ type: 'message', team: rt.id, message: this.observedToThread(rt, o) });
    this.announceStatuses(rt);
    if (rosterChanged || fresh.some((o) => !rt.members.some((mm) => mm.name === o.from))) this.refreshMembers(rt);
    // The target's inbox changed: a queue waiting on it may get through now.
    rt.outboxes.get(ownerStem)?.kick();
    if (rt.journal.segmentRecords > COMPACT_AFTER) await rt.journal.compact(rt.state);
  }

  /** Updates presence and reply facts; true when a roster-visible fact changed. */
  private noteObserved(rt: TeamRuntime, o: ObservedState): boolean {
    if (o.from === USER_INBOX) return false;
    const time = Date.parse(o.timestamp) || o.at;
    let changed = this.noteEvent(rt, o.from, time);
    if (o.to === USER_INBOX) {
      const prev = rt.lastReply.get(o.from) ?? 0;
      if (time > prev) rt.lastReply.set(o.from, time);
    }
    // Only a shutdown approval matters here, and its text names it (unless escaped): the other
    // frames (most of a team's traffic) need not be parsed again at every start.
    const frame = o.text.includes('shutdown_') || o.text.includes('\\u') ? parseFrame(o.text) : undefined;
    if (isShutdownApproval(frame) && !rt.terminated.has(o.from)) {
      rt.terminated.add(o.from);
      changed = true;
    }
    return changed;
  }

  private noteEvent(rt: TeamRuntime, member: string, time: number): boolean {
    const prev = rt.lastEvent.get(member);
    if (prev === undefined || time > prev) {
      rt.lastEvent.set(member, time);
      return true;
    }
    return false;
  }

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

  private outboxFor(rt: TeamRuntime, to: string): TargetOutbox {
    const stem = inboxFileStem(to);
    let o = rt.outboxes.get(stem);
    if (!o) {
      o = new TargetOutbox(
        {
          admit: async (ids) => {
            const sent = ids.map((id) => rt.state.sent.get(id)!);
            const path = teamPaths(this.teamsRoot, rt.id).inbox(sent[0]!.to);
            const r = await appendManyToInbox(
              path,
              sent.map((s) => userInboxEntry(s.id, s.text, s.timestamp, s.summary)),
              { preserveDir: join(this.stateDir, 'preserved', rt.id), preserveLabel: `${stem}.json` },
            );
            const seq = ++this.writeSeq;
            for (const id of ids) rt.writtenSeq.set(id, seq);
            return r;
          },
          delivered: async (ids, duplicates) => {
            const at = this.now();
            await rt.journal.append(
              ...ids.map((id, i): JournalRecord => ({ t: 'delivered', id, to: rt.state.sent.get(id)!.to, at, ...(duplicates[i] ? { duplicate: true } : {}) })),
            );
            rt.state.records += ids.length;
            for (const id of ids) {
              const s = rt.state.sent.get(id)!;
              s.deliveredAt = at;
              rt.waitReason.delete(id);
              this.announceStatus(rt, s);
            }
          },
          drained: () => this.emit({ type: 'queued-count', count: this.queuedCount() }),
          waiting: (ids, reason) => {
            for (const id of ids) rt.waitReason.set(id, reason);
            for (const id of ids) {
              const s = rt.state.sent.get(id);
              if (s) this.emit({ type: 'delivery', team: rt.id, id, to: s.to, status: 'queued', reason });
            }
          },
        },
        this.backoff,
      );
      rt.outboxes.set(stem, o);
    }
    return o;
  }

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

  private findMember(rt: TeamRuntime, name: string): MemberInfo | undefined {
    return rt.members.find((m) => m.name === name) ?? rt.members.find((m) => m.inboxName === inboxFileStem(name));
  }

  async send(req: SendRequest): Promise<SendResult> {
    const { text, summary } = req;
    if (typeof text !== 'string' || text.trim() === '') throw new SendRefusedError('message is empty');
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > MAX_TEXT_BYTES) throw new SendRefusedError(`message is ${bytes} bytes; the limit is ${MAX_TEXT_BYTES}`);
    if (looksLikeProtocolFrame(text)) {
      throw new SendRefusedError('message looks like a protocol frame (a JSON object with a "type"); teammates would treat it as a control message, so it is refused');
    }
    if (summary !== undefined && (typeof summary !== 'string' || summary.length > MAX_SUMMARY_CHARS)) {
      throw new SendRefusedError(`summary must be text of at most ${MAX_SUMMARY_CHARS} characters`);
    }
    // Everything from here to the journal append runs without yielding when the team is
    // already open, so concurrent sends are journaled (and so delivered) in call order.
    let rt: TeamRuntime;
    try {
      rt = (!this.opening.has(req.team) && this.teams.get(req.team)) || (await this.resolveTeam(req.team));
    } catch (e) {
      if (e instanceof TeamNotFoundError) throw new SendRefusedError(e.message);
      throw e;
    }
    if (typeof req.to !== 'string' || req.to === '') throw new SendRefusedError('no recipient: name the member to send to');
    if (inboxFileStem(req.to) === USER_INBOX) {
      throw new SendRefusedError(`cannot send to ${JSON.stringify(req.to)}: that is the user's own inbox`);
    }
    // A member is named exactly, or by its inbox stem; a name that is neither ("team/lead",
    // "team\u0000lead") must not reach team-lead's inbox by sanitizing into its stem.
    const member = inboxFileStem(req.to) === req.to ? this.findMember(rt, req.to) : rt.members.find((m) => m.name === req.to);
    if (!member) throw new SendRefusedError(`team ${rt.id} has no member ${JSON.stringify(req.to)}`);
    if (rt.terminated.has(member.name)) {
      throw new SendRefusedError(`${member.name} has shut down (it approved a shutdown request); nothing reads its inbox any more`);
    }
    let path: string;
    try {
      path = teamPaths(this.teamsRoot, rt.id).inbox(member.name);
    } catch (e) {
      throw new SendRefusedError((e as Error).message);
    }
    let folder, st;
    try {
      folder = lstatSync(dirname(path), { throwIfNoEntry: false });
      if (folder?.isDirectory()) st = lstatSync(path, { throwIfNoEntry: false });
    } catch (e) {
      throw new SendRefusedError(`inbox of ${member.name} cannot be checked (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    if (folder?.isSymbolicLink()) throw new SendRefusedError(`the inboxes folder of team ${rt.id} is a symbolic link; refusing to write through it`);
    if (folder && !folder.isDirectory()) throw new SendRefusedError(`the inboxes folder of team ${rt.id} is not a folder`);
    if (st?.isSymbolicLink()) throw new SendRefusedError(`inbox of ${member.name} is a symbolic link; refusing to write through it`);
    if (st && !st.isFile()) throw new SendRefusedError(`inbox of ${member.name} is not a regular file`);
    const outbox = this.outboxFor(rt, member.name);
    if (outbox.load >= this.maxPending) {
      throw new SendRefusedError(`${member.name} already has ${outbox.load} undelivered messages (limit ${this.maxPending}); wait for them to be delivered`);
    }
    const unreserve = outbox.reserve();
    const at = this.now();
    const id = newMessageId();
    const s: SentState = { id, to: member.name, text, timestamp: new Date(at).toISOString(), queuedAt: at };
    if (summary) s.summary = summary;
    let delivery: Promise<Outcome>;
    try {
      // Journal first: from here on the message cannot be lost. (If the journal cannot be
      // written, the send fails with nothing stored and nothing delivered.)
      await rt.journal.append({ t: 'queued', id, to: s.to, from: 'user', text, ...(summary ? { summary } : {}), timestamp: s.timestamp, at });
      rt.state.sent.set(id, s);
      rt.state.records++;
      rt.announced.set(id, 'queued');
      this.emit({ type: 'message', team: rt.id, message: this.sentToThread(rt, s) });
      delivery = outbox.enqueue(id, true);
    } finally {
      unreserve();
    }
    const outcome = await delivery;
    if (outcome.status === 'queued') {
      this.emit({ type: 'queued-count', count: this.queuedCount() });
      return { id, status: 'queued', reason: outcome.reason };
    }
    return { id, status: 'accepted' };
  }

  // ---------------------------------------------------------------- status and views

  private statusOf(rt: TeamRuntime, s: SentState): DeliveryStatus {
    if (s.deliveredAt === undefined) return 'queued';
    if (s.consumedAt === undefined) return 'accepted';
    const reply = rt.lastReply.get(s.to) ?? rt.lastReply.get(this.findMember(rt, s.to)?.name ?? s.to);
    if (reply !== undefined && reply > Date.parse(s.timestamp)) return 'replied';
    return 'read';
  }

  private announceStatus(rt: TeamRuntime, s: SentState): void {
    const st = this.statusOf(rt, s);
    if (rt.announced.get(s.id) === st) return;
    rt.announced.set(s.id, st);
    this.emit({ type: 'delivery', team: rt.id, id: s.id, to: s.to, status: st });
  }

  private announceStatuses(rt: TeamRuntime): void {
    for (const s of rt.state.sent.values()) {
      if (rt.announced.get(s.id) !== 'replied') this.announceStatus(rt, s);
    }
  }

  private observedMessages(rt: TeamRuntime): TeamMessage[] {
    return [...rt.state.observed.values()].map((o) => this.observedToThread(rt, o));
  }

  private observedToThread(rt: TeamRuntime, o: ObservedState): ThreadMessage {
    const time = Date.parse(o.timestamp);
    const m: ThreadMessage = {
      id: o.id,
      team: rt.id,
      from: o.from,
      to: o.to,
      text: o.text,
      timestamp: o.timestamp,
      time: Number.isFinite(time) ? time : o.at,
      read: false,
    };
    if (o.summary !== undefined) m.summary = o.summary;
    if (o.color !== undefined) m.color = o.color;
    const frame = parseFrame(o.text);
    if (frame) m.frame = frame;
    return m;
  }

  private sentToThread(rt: TeamRuntime, s: SentState): ThreadMessage {
    const status = this.statusOf(rt, s);
    const m: ThreadMessage = {
      id: s.id,
      team: rt.id,
      from: 'user',
      to: s.to,
      text: s.text,
      timestamp: s.timestamp,
      time: Date.parse(s.timestamp),
      read: s.consumedAt !== undefined,
      status,
    };
    if (s.summary !== undefined) m.summary = s.summary;
    const reason = rt.waitReason.get(s.id);
    if (status === 'queued' && reason) m.queuedReason = reason;
    return m;
  }

  private rosterOf(rt: TeamRuntime): RosterEntry[] {
    const now = this.now();
    return rt.members.map((m) => {
      const lastEventAt = rt.lastEvent.get(m.name);
      const e: RosterEntry = { ...m, state: memberState({ lastEventAt, terminated: rt.terminated.has(m.name) }, now, this.idleMs) };
      if (lastEventAt !== undefined) e.lastEventAt = lastEventAt;
      return e;
    });
  }

  private summaries(): TeamSummary[] {
    const unopened = [...this.unopened.values()].filter((s) => !this.teams.has(s.id));
    return [...this.teams.values()]
      .map((rt) => {
        const s: TeamSummary = {
          id: rt.id,
          name: rt.config?.name ?? rt.id,
          memberCount: rt.members.length,
          problems: [...rt.problems.values()],
        };
        if (rt.config?.description !== undefined) s.description = rt.config.description;
        if (rt.config?.createdAt !== undefined) s.createdAt = rt.config.createdAt;
        return s;
      })
      .concat(unopened)
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
    const m = this.findMember(rt, member);
    if (!m) throw new TeamNotFoundError(`team ${rt.id} has no member ${JSON.stringify(member)}`);
    const stem = m.inboxName;
    const out: ThreadMessage[] = [];
    for (const o of rt.state.observed.values()) {
      const fromMember = o.from === m.name && o.to === USER_INBOX;
      const fromUser = o.from === USER_INBOX && inboxFileStem(o.to) === stem;
      if (fromMember || fromUser) out.push(this.observedToThread(rt, o));
    }
    for (const s of rt.state.sent.values()) if (inboxFileStem(s.to) === stem) out.push(this.sentToThread(rt, s));
    return sortByTime(out);
  }

  async feed(team: string): Promise<ThreadMessage[]> {
    const rt = await this.resolveTeam(team);
    const out: ThreadMessage[] = this.observedMessages(rt);
    for (const s of rt.state.sent.values()) out.push(this.sentToThread(rt, s));
    return sortByTime(out);
  }

  async refresh(): Promise<void> {
    await this.scanTeams();
    for (const rt of this.teams.values()) {
      await this.loadConfig(rt, true);
      for (const owner of await listInboxOwners(teamPaths(this.teamsRoot, rt.id).inboxes)) {
        this.reads.schedule(`i\u0000${rt.id}\u0000${owner}`);
      }
    }
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

function sortByTime<T extends { time: number }>(list: T[]): T[] {
  // Stable: messages with the same time keep journal order.
  return list.map((m, i) => [m, i] as const).sort((a, b) => a[0].time - b[0].time || a[1] - b[1]).map(([m]) => m);
}
