// The renderer's state: its shape, its first value, and the two helpers every reducer uses to
// read and replace one team's cache. The ways it changes are pure functions (state in, state
// out) in the modules beside this one, one concern each; the zustand store (store.ts) only
// sequences API calls around them, so all of the logic is testable in Node.
import { EMPTY_USAGE, type UsageState } from './usage-slice';
import type { Snapshot, Settings } from '../../../shared/contract';
import type {
  ChannelKind,
  ChannelOption,
  DeliveryStatus,
  MemberActivity,
  NeedItem,
  RosterEntry,
  TaskBoard,
  TeamProblem,
  TeamSummary,
  ThreadMessage,
  TerminalInfo,
  TimelineItem,
} from '../../../shared/types';
import { DEFAULT_SENDER_NAME } from '../lib/sender-name';

/**
 * What the main area shows: a member (its thread, its activity, or the lead's terminal), the team
 * feed, the task board, or a hosted terminal on its own (no team yet, or the team ended).
 */
export type View = 'thread' | 'feed' | 'tasks' | 'terminal' | 'usage';

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
  /** Bumped when the host read more of the team's history (a `record` event): a load begun before it counts as stale. */
  recordSeq?: number;
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
  /** A needs-you item to show, asked for by the shell (its desktop notification was clicked); `seq` makes a second ask new. */
  openNeed?: { id: string; seq: number };
  /** What the teams need from the human, across all teams, newest first; replaced by each `needs` event. */
  needs: NeedItem[];
  needsLoaded?: number;
  /** What the teams spent (usage-state.ts); kept current by `usage` events. */
  usage: UsageState;
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

export type LaunchAvailability = Snapshot['launch'];

/** What the host said about one member's channels, and what they depended on then. */
export interface ChannelCache {
  options?: ChannelOption[];
  error?: string;
  /** channelInputs() when they were asked for: a different value means ask again. */
  inputs: string;
}

export const DEFAULT_SETTINGS: Settings = {
  teamsDir: '',
  idleMinutes: 5,
  notifications: true,
  senderName: DEFAULT_SENDER_NAME,
  needsNotifications: true,
  answerFromTeamdeck: true,
  claudePath: '',
};

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
    usage: EMPTY_USAGE,
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

/** A team's cache, or an empty one for a team nothing was loaded for yet. */
export function teamCache(s: DeckState, team: string): TeamCache {
  return s.byTeam[team] ?? emptyTeamCache();
}

export function withTeam(s: DeckState, team: string, next: TeamCache): DeckState {
  return { ...s, byTeam: { ...s.byTeam, [team]: next } };
}

export function tick(s: DeckState, localNow: number): DeckState {
  return { ...s, now: localNow + s.clockOffset };
}

export function applySettings(s: DeckState, settings: Settings): DeckState {
  return { ...s, settings };
}
