// The renderer's state and every way it changes, as pure functions: the zustand store in
// store.ts only sequences API calls around these, so all of the logic is testable in Node.
import type { AppEvent, Settings, Snapshot } from '../../../shared/contract';
import { isShutdownApproval } from '../../../shared/frame-text';
import { endedNewestFirst, firstTeam, type HostBoot } from '../../../shared/host-boot';
import { inThread as inThreadRule, isFromUser, isToUser, isUnreadCandidate } from '../../../shared/threads';
import type {
  ChannelKind,
  DeliveryStatus,
  MemberActivity,
  NeedItem,
  RosterEntry,
  SendRequest,
  SendResult,
  TeamProblem,
  TaskBoard,
  TeamSummary,
  ThreadMessage,
  TerminalInfo,
  TimelineItem,
} from '../../../shared/types';
import { hasReason, laterStatus } from '../lib/delivery';
import { DEFAULT_SENDER_NAME } from '../lib/sender-name';
import { activityByMember, mergeTimeline, needsNewestFirst, timelineAfterLoad } from './live-merge';
import { applyTerminals, resolvePendingLaunch, type ChannelCache, type LaunchAvailability } from './terminal-state';

export { endedNewestFirst };

/**
 * What the main area shows: a member (its thread, its activity, or the lead's terminal), the team
 * feed, the task board, or a hosted terminal on its own (no team yet, or the team ended).
 */
export type View = 'thread' | 'feed' | 'tasks' | 'terminal';

/** Beside a member's thread: its transcript as a timeline. Kept while moving between members. */
export type MemberPane = 'thread' | 'activity';

/** A member's transcript as far as this window has it. */
export interface TimelineCache {
  /** Oldest first, unique by id. */
  items: TimelineItem[];
  /** Generation in which it was last asked for; from then on its `timeline` events are kept. */
  requested: number;
  loaded?: number;
  error?: string;
}

export interface Delivery {
  status: DeliveryStatus;
  reason?: string;
}

export interface TeamCache {
  roster?: RosterEntry[];
  rosterError?: string;
  /** Every message of the team this window knows of, oldest first, unique by id. */
  messages: ThreadMessage[];
  /**
   * Generation (see DeckState.generation) in which getFeed was last merged in; undefined until the
   * first load, during which `messages` holds only loaded threads and pushed events.
   */
  feedLoaded?: number;
  feedError?: string;
  /** Generation in which each member's thread was last loaded. */
  threadLoaded: Record<string, number>;
  rosterLoaded?: number;
  threadError: Record<string, string>;
  /** Latest delivery state per sent message id; survives a message arriving after its delivery event. */
  deliveries: Record<string, Delivery>;
  /** Messages from a member to the user that arrived after the user last viewed that thread. */
  unread: Record<string, number>;
  /** What each member is doing, keyed by member; replaced wholesale by each `activity` event. */
  activity?: Record<string, MemberActivity>;
  activityLoaded?: number;
  activityError?: string;
  /** Transcripts of the members whose activity view was opened; other members' events are not kept. */
  timelines: Record<string, TimelineCache>;
  tasks?: TaskBoard;
  tasksLoaded?: number;
  tasksError?: string;
}

export interface Draft {
  text: string;
  summary: string;
}

export interface DeckState {
  phase: 'loading' | 'ready' | 'failed';
  loadError?: string;
  /**
   * Bumped by every snapshot after the first (a host reconnect, a new root): whatever was loaded
   * in an older generation may have missed events and is fetched again when next shown.
   */
  generation: number;
  teamsRoot: string;
  rootSource: string;
  alsoLooked: string[];
  watching: boolean;
  canStartDemo: boolean;
  settings: Settings;
  teams: TeamSummary[];
  problems: TeamProblem[];
  queuedCount: number;
  /** Host clock minus this window's clock, so presence ages the way the host sees it. */
  clockOffset: number;
  /** Host-aligned time, advanced by a timer; everything relative ("3 min ago", dot colours) reads this. */
  now: number;
  byTeam: Record<string, TeamCache>;
  selectedTeam?: string;
  view: View;
  /** The open member per team, so switching teams comes back to the same thread. */
  memberByTeam: Record<string, string>;
  /** Feed filter per team: a member name, or '' for everyone. */
  feedFilter: Record<string, string>;
  /** Keyed by memberKey(team, member). */
  drafts: Record<string, Draft>;
  sendErrors: Record<string, string>;
  sending: Record<string, boolean>;
  /** Time of the newest message the user has seen per thread (memberKey). */
  viewedAt: Record<string, number>;
  /** Messages older than this count as seen when a thread has no viewedAt yet (first launch). */
  viewedBaseline: number;
  pane: MemberPane;
  /** A message to bring into view and mark (opened from the needs queue). */
  focus?: { team: string; member: string; id: string };
  /** What the teams need from the human, across all teams, newest first; replaced by each `needs` event. */
  needs: NeedItem[];
  needsLoaded?: number;
  needsError?: string;
  /** The lead terminals Teamdeck hosts, running and exited, as the host last listed them. */
  terminals: TerminalInfo[];
  /** Whether the host can launch a team, or why not. */
  launch: LaunchAvailability;
  /** The terminal shown on its own (view `terminal`). */
  openTerminal?: string;
  /** Per team: the lead's Terminal tab is the chosen pane (instead of Thread or Activity). */
  leadTerminal: Record<string, boolean>;
  /** A terminal launched from this window: its team opens once Claude makes it. */
  pendingLaunch?: string;
  /** Per memberKey: the ways a message can reach that member, as the host said. */
  channels: Record<string, ChannelCache>;
  /** Per memberKey: the channel the user picked; absent means the host's preferred one. */
  channelChoice: Record<string, ChannelKind>;
}

export const DEFAULT_SETTINGS: Settings = {
  teamsDir: '',
  idleMinutes: 5,
  notifications: true,
  senderName: DEFAULT_SENDER_NAME,
  needsNotifications: true,
  claudePath: '',
};

export const USER = 'user';

export function memberKey(team: string, member: string): string {
  return `${team}/${member}`;
}

export function initialState(opts: { viewedAt?: Record<string, number>; viewedBaseline: number; now: number }): DeckState {
  return {
    phase: 'loading',
    generation: 0,
    teamsRoot: '',
    rootSource: '',
    alsoLooked: [],
    watching: false,
    canStartDemo: false,
    settings: DEFAULT_SETTINGS,
    teams: [],
    problems: [],
    queuedCount: 0,
    clockOffset: 0,
    now: opts.now,
    byTeam: {},
    view: 'thread',
    memberByTeam: {},
    feedFilter: {},
    drafts: {},
    sendErrors: {},
    sending: {},
    viewedAt: opts.viewedAt ?? {},
    viewedBaseline: opts.viewedBaseline,
    pane: 'thread',
    needs: [],
    terminals: [],
    launch: { available: false },
    leadTerminal: {},
    channels: {},
    channelChoice: {},
  };
}

export function emptyTeamCache(): TeamCache {
  return { messages: [], threadLoaded: {}, threadError: {}, deliveries: {}, unread: {}, timelines: {} };
}

function teamCache(s: DeckState, team: string): TeamCache {
  return s.byTeam[team] ?? emptyTeamCache();
}

function withTeam(s: DeckState, team: string, next: TeamCache): DeckState {
  return { ...s, byTeam: { ...s.byTeam, [team]: next } };
}

// ---------- messages ----------

type Direction = Pick<ThreadMessage, 'from' | 'to' | 'frame' | 'sentAs' | 'source'>;

// Who wrote a message to whom, and which thread shows it: one rule with the engine and search.
export { isFromUser, isToUser, isUnreadCandidate };

/** Whether a message belongs in the window's thread with `member` (the member's protocol events give it context). */
export function inThread(m: Direction, member: string): boolean {
  return inThreadRule(m, member, { context: true });
}

function mergeMessage(old: ThreadMessage | undefined, inc: ThreadMessage, d: Delivery | undefined): ThreadMessage {
  const merged: ThreadMessage = old ? { ...old, ...inc, read: old.read || inc.read } : { ...inc };
  const status = laterStatus(laterStatus(old?.status, inc.status), d?.status);
  if (status) merged.status = status;
  else delete merged.status;
  const reason = reasonFor(status, d, inc, old);
  if (reason) merged.reason = reason;
  else delete merged.reason;
  return merged;
}

/**
 * The reason that goes with the state a message ended up in, from the first source that reported
 * that same state: a queued message's "inbox locked" never explains why it became undeliverable.
 */
function reasonFor(status: DeliveryStatus | undefined, ...from: (Delivery | ThreadMessage | undefined)[]): string | undefined {
  if (!hasReason(status)) return undefined;
  for (const x of from) if (x && x.status === status && x.reason) return x.reason;
  return undefined;
}

function upperBound(list: readonly ThreadMessage[], time: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.time <= time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function lastIndexOfId(list: readonly ThreadMessage[], id: string): number {
  // Updates nearly always concern recent messages: search from the end.
  for (let i = list.length - 1; i >= 0; i--) if (list[i]!.id === id) return i;
  return -1;
}

/** Inserts or merges one message, keeping time order. `added` is false when the id was known. */
export function upsertMessage(
  list: readonly ThreadMessage[],
  inc: ThreadMessage,
  deliveries: Record<string, Delivery> = {},
): { list: ThreadMessage[]; added: boolean } {
  const idx = lastIndexOfId(list, inc.id);
  const merged = mergeMessage(idx >= 0 ? list[idx] : undefined, inc, deliveries[inc.id]);
  if (idx >= 0 && list[idx]!.time === merged.time) {
    const copy = list.slice();
    copy[idx] = merged;
    return { list: copy, added: false };
  }
  const rest = idx >= 0 ? list.slice(0, idx).concat(list.slice(idx + 1)) : list.slice();
  rest.splice(upperBound(rest, merged.time), 0, merged);
  return { list: rest, added: idx < 0 };
}

/** Merges a batch (a loaded thread or feed) into the known messages: union by id, time order. */
export function mergeMessages(
  list: readonly ThreadMessage[],
  incoming: readonly ThreadMessage[],
  deliveries: Record<string, Delivery> = {},
): ThreadMessage[] {
  if (incoming.length === 0) return list as ThreadMessage[];
  const out = list.slice();
  const at = new Map<string, number>();
  out.forEach((m, i) => at.set(m.id, i));
  for (const inc of incoming) {
    const i = at.get(inc.id);
    if (i === undefined) {
      at.set(inc.id, out.length);
      out.push(mergeMessage(undefined, inc, deliveries[inc.id]));
    } else {
      out[i] = mergeMessage(out[i], inc, deliveries[inc.id]);
    }
  }
  // Array.prototype.sort is stable: equal times keep the order they were seen in.
  return out.sort((a, b) => a.time - b.time);
}

export function recountUnread(
  messages: readonly ThreadMessage[],
  team: string,
  viewedAt: Record<string, number>,
  baseline: number,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of messages) {
    if (!isUnreadCandidate(m)) continue;
    const seen = viewedAt[memberKey(team, m.from)] ?? baseline;
    if (m.time > seen) out[m.from] = (out[m.from] ?? 0) + 1;
  }
  return out;
}

// ---------- presence ----------

/** Moves a member's last event forward (or marks it terminated) as its messages arrive, between roster events. */
export function bumpPresence(roster: RosterEntry[] | undefined, m: ThreadMessage): RosterEntry[] | undefined {
  if (!roster || isFromUser(m)) return roster;
  const terminated = isShutdownApproval(m.frame);
  const i = roster.findIndex((r) => r.name === m.from);
  if (i < 0) {
    // Someone the roster has not heard of yet: show them now; the next roster event fills in the rest.
    const entry: RosterEntry = {
      name: m.from,
      inboxName: m.from,
      isLead: false,
      inConfig: false,
      state: terminated ? 'terminated' : 'active',
      ...(m.time ? { lastEventAt: m.time } : {}),
    };
    return [...roster, entry];
  }
  const cur = roster[i]!;
  const last = m.time && (cur.lastEventAt === undefined || m.time > cur.lastEventAt) ? m.time : cur.lastEventAt;
  const state = terminated ? 'terminated' : cur.state;
  if (last === cur.lastEventAt && state === cur.state) return roster;
  const copy = roster.slice();
  copy[i] = { ...cur, state, ...(last !== undefined ? { lastEventAt: last } : {}) };
  return copy;
}

// ---------- snapshot and events ----------

/** Keeps the selection while its team is listed (ended ones too); else the first running team, else the newest ended. */
function pickTeam(teams: readonly TeamSummary[], current: string | undefined): string | undefined {
  if (current && teams.some((t) => t.id === current)) return current;
  // The browser host reads this same team's roster into the page it serves (host-boot.ts).
  return firstTeam(teams);
}

export function applySnapshot(s: DeckState, snap: Snapshot, localNow: number): DeckState {
  const rootChanged = s.phase === 'ready' && s.teamsRoot !== snap.teamsRoot;
  const base = rootChanged
    ? { ...s, byTeam: {}, memberByTeam: {}, feedFilter: {}, selectedTeam: undefined, view: 'thread' as View, focus: undefined, needs: [], needsLoaded: undefined, channels: {} }
    : s;
  const next: DeckState = {
    ...base,
    phase: 'ready',
    loadError: undefined,
    generation: s.phase === 'ready' ? s.generation + 1 : s.generation,
    teamsRoot: snap.teamsRoot,
    rootSource: snap.rootSource,
    alsoLooked: snap.alsoLooked,
    watching: snap.watching,
    canStartDemo: snap.canStartDemo,
    settings: snap.settings,
    teams: snap.teams,
    problems: snap.problems,
    queuedCount: snap.queuedCount,
    clockOffset: snap.now - localNow,
    now: snap.now,
    selectedTeam: pickTeam(snap.teams, base.selectedTeam),
    // An older host sends neither: no terminals, and no launching.
    launch: snap.launch ?? { available: false, reason: 'this Teamdeck host cannot launch teams' },
  };
  // The terminals live outside the teams root: a new root keeps them.
  return applyTerminals(next, snap.terminals ?? []);
}

/**
 * The browser host's start-up data (src/shared/host-boot.ts) applied: its snapshot, then the
 * roster it carries. The store's first start does this; so does the host's first screen
 * (first-screen.tsx), which must show what the window's first render will.
 */
export function applyBoot(s: DeckState, boot: Pick<HostBoot, 'snapshot' | 'roster'>, localNow: number): DeckState {
  const x = applySnapshot(s, boot.snapshot, localNow);
  return boot.roster ? applyRoster(x, boot.roster.team, boot.roster.entries, x.generation) : x;
}

function upsertProblem(list: readonly TeamProblem[], p: TeamProblem): TeamProblem[] {
  const i = list.findIndex((x) => x.kind === p.kind && x.file === p.file);
  if (i < 0) return [...list, p];
  const copy = list.slice();
  copy[i] = p;
  return copy;
}

function applyIncomingMessage(s: DeckState, team: string, m: ThreadMessage): DeckState {
  const cache = teamCache(s, team);
  const { list, added } = upsertMessage(cache.messages, m, cache.deliveries);
  let unread = cache.unread;
  if (added && isUnreadCandidate(m)) {
    const seen = s.viewedAt[memberKey(team, m.from)] ?? s.viewedBaseline;
    if (m.time > seen) unread = { ...unread, [m.from]: (unread[m.from] ?? 0) + 1 };
  }
  const roster = bumpPresence(cache.roster, m);
  return withTeam(s, team, { ...cache, messages: list, unread, ...(roster ? { roster } : {}) });
}

function applyDelivery(s: DeckState, team: string, id: string, status: DeliveryStatus, reason?: string): DeckState {
  const cache = teamCache(s, team);
  const prev = cache.deliveries[id];
  const next = laterStatus(prev?.status, status);
  if (!next) return s;
  const why = reasonFor(next, { status, ...(reason ? { reason } : {}) }, prev);
  const delivery: Delivery = { status: next, ...(why ? { reason: why } : {}) };
  const deliveries = { ...cache.deliveries, [id]: delivery };
  const i = lastIndexOfId(cache.messages, id);
  let messages = cache.messages;
  if (i >= 0) {
    messages = messages.slice();
    messages[i] = mergeMessage(messages[i], messages[i]!, delivery);
  }
  return withTeam(s, team, { ...cache, deliveries, messages });
}

/** Applies one event pushed by the host. */
export function applyEvent(s: DeckState, ev: AppEvent, localNow: number): DeckState {
  switch (ev.type) {
    case 'snapshot':
      return applySnapshot(s, ev.snapshot, localNow);
    case 'teams':
      return resolvePendingLaunch({ ...s, teams: ev.teams, selectedTeam: pickTeam(ev.teams, s.selectedTeam) });
    case 'terminals':
      return applyTerminals(s, ev.terminals);
    case 'message':
      return applyIncomingMessage(s, ev.team, ev.message);
    case 'delivery':
      return applyDelivery(s, ev.team, ev.id, ev.status, ev.reason);
    case 'roster':
      return applyRoster(s, ev.team, ev.roster);
    case 'problem':
      return { ...s, problems: upsertProblem(s.problems, ev.problem) };
    case 'queued-count':
      return { ...s, queuedCount: ev.count };
    case 'activity':
      return applyActivity(s, ev.team, ev.activity);
    case 'timeline':
      return applyTimelineItems(s, ev.team, ev.member, ev.items);
    case 'tasks':
      return withTeam(s, ev.team, { ...teamCache(s, ev.team), tasks: ev.board, tasksError: undefined });
    case 'needs':
      return { ...s, needs: needsNewestFirst(ev.needs) };
    default:
      return s;
  }
}

// ---------- activity, timelines, tasks, needs ----------

function applyActivity(s: DeckState, team: string, list: readonly MemberActivity[]): DeckState {
  const cache = teamCache(s, team);
  return withTeam(s, team, { ...cache, activity: activityByMember(cache.activity, list), activityError: undefined });
}

export function applyActivityLoaded(s: DeckState, team: string, list: readonly MemberActivity[], gen = s.generation): DeckState {
  const next = applyActivity(s, team, list);
  return withTeam(next, team, { ...teamCache(next, team), activityLoaded: gen });
}

export function applyActivityError(s: DeckState, team: string, message: string): DeckState {
  return withTeam(s, team, { ...teamCache(s, team), activityError: message });
}

function withTimeline(s: DeckState, team: string, member: string, next: TimelineCache): DeckState {
  const cache = teamCache(s, team);
  return withTeam(s, team, { ...cache, timelines: { ...cache.timelines, [member]: next } });
}

/** From now on this member's `timeline` events are kept, so none is lost while its load is on its way. */
export function requestTimeline(s: DeckState, team: string, member: string, gen = s.generation): DeckState {
  const cur = teamCache(s, team).timelines[member];
  if (cur?.requested === gen) return s;
  return withTimeline(s, team, member, { items: cur?.items ?? [], requested: gen, ...(cur?.loaded !== undefined ? { loaded: cur.loaded } : {}) });
}

function applyTimelineItems(s: DeckState, team: string, member: string, items: readonly TimelineItem[]): DeckState {
  const cur = s.byTeam[team]?.timelines[member];
  // Nobody asked for this member's transcript: opening it loads the latest items anyway.
  if (!cur) return s;
  const merged = mergeTimeline(cur.items, items);
  return merged === cur.items ? s : withTimeline(s, team, member, { ...cur, items: merged });
}

export function applyTimelineLoaded(s: DeckState, team: string, member: string, items: readonly TimelineItem[], gen = s.generation): DeckState {
  const cur = teamCache(s, team).timelines[member];
  return withTimeline(s, team, member, { items: timelineAfterLoad(cur?.items ?? [], items), requested: cur?.requested ?? gen, loaded: gen });
}

export function applyTimelineError(s: DeckState, team: string, member: string, message: string): DeckState {
  const cur = teamCache(s, team).timelines[member] ?? { items: [], requested: s.generation };
  return withTimeline(s, team, member, { ...cur, error: message });
}

export function applyTasksLoaded(s: DeckState, team: string, board: TaskBoard, gen = s.generation): DeckState {
  return withTeam(s, team, { ...teamCache(s, team), tasks: board, tasksLoaded: gen, tasksError: undefined });
}

export function applyTasksError(s: DeckState, team: string, message: string): DeckState {
  return withTeam(s, team, { ...teamCache(s, team), tasksError: message });
}

export function applyNeedsLoaded(s: DeckState, needs: readonly NeedItem[], gen = s.generation): DeckState {
  return { ...s, needs: needsNewestFirst(needs), needsLoaded: gen, needsError: undefined };
}

export function applyNeedsError(s: DeckState, message: string): DeckState {
  return { ...s, needsError: message };
}

// ---------- loads ----------

function defaultMember(roster: readonly RosterEntry[]): string | undefined {
  const visible = roster.filter((r) => r.name !== USER);
  return (visible.find((r) => r.isLead) ?? visible.find((r) => r.state !== 'terminated') ?? visible[0])?.name;
}

export function applyRoster(s: DeckState, team: string, roster: RosterEntry[], gen = s.generation): DeckState {
  const cache = teamCache(s, team);
  const next = withTeam(s, team, { ...cache, roster, rosterError: undefined, rosterLoaded: gen });
  const current = s.memberByTeam[team];
  if (current) return next;
  const chosen = defaultMember(roster);
  return chosen ? { ...next, memberByTeam: { ...next.memberByTeam, [team]: chosen } } : next;
}

export function applyRosterError(s: DeckState, team: string, message: string): DeckState {
  return withTeam(s, team, { ...teamCache(s, team), rosterError: message });
}

export function applyThreadLoaded(s: DeckState, team: string, member: string, msgs: readonly ThreadMessage[], gen = s.generation): DeckState {
  const cache = teamCache(s, team);
  const messages = mergeMessages(cache.messages, msgs, cache.deliveries);
  const { [member]: _dropped, ...threadError } = cache.threadError;
  return withTeam(s, team, {
    ...cache,
    messages,
    threadLoaded: { ...cache.threadLoaded, [member]: gen },
    threadError,
    unread: recountUnread(messages, team, s.viewedAt, s.viewedBaseline),
  });
}

export function applyThreadError(s: DeckState, team: string, member: string, message: string): DeckState {
  const cache = teamCache(s, team);
  return withTeam(s, team, { ...cache, threadError: { ...cache.threadError, [member]: message } });
}

export function applyFeedLoaded(s: DeckState, team: string, msgs: readonly ThreadMessage[], gen = s.generation): DeckState {
  const cache = teamCache(s, team);
  const messages = mergeMessages(cache.messages, msgs, cache.deliveries);
  return withTeam(s, team, {
    ...cache,
    messages,
    feedLoaded: gen,
    feedError: undefined,
    unread: recountUnread(messages, team, s.viewedAt, s.viewedBaseline),
  });
}

export function applyFeedError(s: DeckState, team: string, message: string): DeckState {
  return withTeam(s, team, { ...teamCache(s, team), feedError: message });
}

/** A send the host accepted or queued: the message shows at once with that status; the draft clears. */
export function applySent(s: DeckState, req: SendRequest, result: SendResult, hostNow: number): DeckState {
  const key = memberKey(req.team, req.to);
  const sentAs = s.teams.find((t) => t.id === req.team)?.sendAs;
  const msg: ThreadMessage = {
    id: result.id,
    team: req.team,
    from: USER,
    to: req.to,
    text: req.text,
    ...(req.summary ? { summary: req.summary } : {}),
    timestamp: new Date(hostNow).toISOString(),
    time: hostNow,
    read: false,
    status: result.status,
    ...(result.reason ? { reason: result.reason } : {}),
    // The host's echo of the message says for sure; until it comes, the team's sender name is
    // the one the host writes, and the channel the one asked for.
    ...(sentAs ? { sentAs } : {}),
    ...(req.channel ? { channel: req.channel } : {}),
  };
  const cache = teamCache(s, req.team);
  // If the host already pushed this message (or its delivery), keep the host's timestamp and the later status.
  const known = lastIndexOfId(cache.messages, msg.id);
  const { list } = known >= 0
    ? upsertMessage(cache.messages, mergeMessage(msg, cache.messages[known]!, undefined), cache.deliveries)
    : upsertMessage(cache.messages, msg, cache.deliveries);
  const { [key]: _d, ...drafts } = s.drafts;
  const { [key]: _e, ...sendErrors } = s.sendErrors;
  const { [key]: _s, ...sending } = s.sending;
  return { ...withTeam(s, req.team, { ...cache, messages: list }), drafts, sendErrors, sending };
}

// ---------- user intent ----------

export function selectTeam(s: DeckState, team: string): DeckState {
  if (s.selectedTeam === team && s.view !== 'terminal') return s;
  return { ...s, selectedTeam: team, view: 'thread', focus: undefined };
}

export function selectMember(s: DeckState, team: string, member: string): DeckState {
  const focus = s.focus && s.focus.team === team && s.focus.member === member ? s.focus : undefined;
  return { ...s, selectedTeam: team, view: 'thread', memberByTeam: { ...s.memberByTeam, [team]: member }, focus };
}

export function showFeed(s: DeckState, on = true): DeckState {
  return { ...s, view: on ? 'feed' : 'thread' };
}

export function showTasks(s: DeckState, on = true): DeckState {
  return { ...s, view: on ? 'tasks' : 'thread' };
}

/** Thread or Activity beside the open member; on a lead with a hosted terminal, that leaves its Terminal tab. */
export function setPane(s: DeckState, pane: MemberPane): DeckState {
  const team = s.selectedTeam;
  const onTerminal = team !== undefined && !!s.leadTerminal[team];
  if (s.pane === pane && s.view === 'thread' && !onTerminal) return s;
  return { ...s, pane, view: 'thread', ...(onTerminal ? { leadTerminal: { ...s.leadTerminal, [team]: false } } : {}) };
}

/** Opens a member's thread with one of its messages brought into view. */
export function focusMessage(s: DeckState, team: string, member: string, id: string): DeckState {
  return { ...selectMember(s, team, member), pane: 'thread', focus: { team, member, id } };
}

/** The `member` of a focus on the team's feed (no member is named so: names are safe segments). */
export const FEED_FOCUS = '\u0000feed';

/** Opens the team's feed, unfiltered, with one of its messages brought into view. */
export function focusFeedMessage(s: DeckState, team: string, id: string): DeckState {
  const { [team]: _filter, ...feedFilter } = s.feedFilter;
  return { ...showFeed(selectTeam(s, team), true), feedFilter, focus: { team, member: FEED_FOCUS, id } };
}

export function clearFocus(s: DeckState): DeckState {
  return s.focus ? { ...s, focus: undefined } : s;
}

export function setFeedFilter(s: DeckState, team: string, member: string): DeckState {
  return { ...s, feedFilter: { ...s.feedFilter, [team]: member } };
}

export function setDraft(s: DeckState, team: string, member: string, patch: Partial<Draft>): DeckState {
  const key = memberKey(team, member);
  const cur = s.drafts[key] ?? { text: '', summary: '' };
  return { ...s, drafts: { ...s.drafts, [key]: { ...cur, ...patch } } };
}

export function setSending(s: DeckState, team: string, member: string, on: boolean): DeckState {
  const key = memberKey(team, member);
  const { [key]: _x, ...rest } = s.sending;
  const { [key]: _e, ...sendErrors } = s.sendErrors;
  return on ? { ...s, sending: { ...rest, [key]: true }, sendErrors } : { ...s, sending: rest };
}

export function setSendError(s: DeckState, team: string, member: string, message: string | undefined): DeckState {
  const key = memberKey(team, member);
  const { [key]: _x, ...rest } = s.sendErrors;
  const { [key]: _s, ...sending } = s.sending;
  return { ...s, sending, sendErrors: message ? { ...rest, [key]: message } : rest };
}

/** The user has seen the newest message from `member`: clear its unread badge. */
export function markViewed(s: DeckState, team: string, member: string): DeckState {
  const cache = s.byTeam[team];
  if (!cache) return s;
  let newest = 0;
  for (let i = cache.messages.length - 1; i >= 0; i--) {
    const m = cache.messages[i]!;
    if (m.from === member && isUnreadCandidate(m)) {
      newest = m.time;
      break;
    }
  }
  const key = memberKey(team, member);
  const seen = s.viewedAt[key] ?? s.viewedBaseline;
  if (newest <= seen && !cache.unread[member]) return s;
  const viewedAt = newest > seen ? { ...s.viewedAt, [key]: newest } : s.viewedAt;
  const { [member]: _u, ...unread } = cache.unread;
  return { ...withTeam(s, team, { ...cache, unread }), viewedAt };
}

export function tick(s: DeckState, localNow: number): DeckState {
  return { ...s, now: localNow + s.clockOffset };
}

export function applySettings(s: DeckState, settings: Settings): DeckState {
  return { ...s, settings };
}
