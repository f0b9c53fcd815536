// The one contract between the UI and whatever hosts it (Electron main, or the browser host).
// Every call the renderer may make and every event main pushes is declared here, once.
import type {
  ChannelOption,
  DeliveryStatus,
  LaunchRequest,
  LaunchResult,
  TerminalInfo,
  MemberActivity,
  NeedItem,
  TaskBoard,
  TimelineItem,
  RosterEntry,
  SendRequest,
  SendResult,
  TeamMessage,
  TeamProblem,
  TeamSummary,
  ThreadMessage,
} from './types.js';

/** A conversation exported as a file: Markdown for people, JSON (`teamdeck-export` v1) for programs. */
export type ExportFormat = 'md' | 'json';

export interface ExportRequest {
  team: string;
  /** The member whose thread with the user is exported; absent: every message of the team. */
  member?: string;
  format: ExportFormat;
  /** IANA time zone for the readable local times (default: the host's); ISO times are UTC either way. */
  timeZone?: string;
}

export interface ExportFile {
  /** A file name to save it under: `teamdeck-<team>[-<member>]-<YYYYMMDD-HHMMSS>.md|json`. */
  filename: string;
  /** `text/markdown; charset=utf-8` or `application/json`. */
  mime: string;
  text: string;
  /** How many messages it holds. */
  count: number;
}

/** Search across every team's history: words and phrases, newest first. */
export interface SearchRequest {
  /** Words (all must match; `word*` matches as a prefix) and "quoted phrases"; at most 1,000 characters. */
  query: string;
  /** One team's messages only (its id); absent: every team, running and ended. */
  team?: string;
  /** Hits per page: 1..200 (default 50). */
  limit?: number;
  /** The `next` of the page before: the hits older than it. */
  before?: string;
}

/** Who wrote a hit: you, a member answering you (its thread), or teammates to each other (the feed). */
export type SearchDirection = 'you' | 'member' | 'team';

export interface SearchHit {
  team: string;
  teamName: string;
  /** The member whose thread with you shows the message; absent: teammates' traffic, in the feed. */
  member?: string;
  messageId: string;
  /** ms since the epoch. */
  time: number;
  direction: SearchDirection;
  from: string;
  to: string;
  /** Plain text around the matches (never HTML); `ranges` are [start, end) offsets of each match in it (UTF-16). */
  snippet: { text: string; ranges: [number, number][] };
}

export interface SearchResult {
  hits: SearchHit[];
  /** There are older hits than this page: ask again with `before: next`. */
  more: boolean;
  next?: string;
  /** The index is being rebuilt from the journals: the hits are from what is indexed so far. */
  building: boolean;
  /** While building: how far, 0..1. */
  progress?: number;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: ApiError };

export interface ApiError {
  /** `refused`: the input was rejected and nothing was written; `invalid`: the payload failed validation. */
  code: 'refused' | 'invalid' | 'not_found' | 'internal';
  message: string;
}

export interface Settings {
  /** Explicit teams root; empty means the default resolution (env, then ~/.claude/teams). */
  teamsDir: string;
  /** Minutes without events before a member shows IDLE. */
  idleMinutes: number;
  notifications: boolean;
  /**
   * The sender name Teamdeck writes on current-era teams (default `teamdeck`). Reserved names
   * (`user`, `team-lead`, `system`, any case) are refused: Claude rates them forged.
   */
  senderName: string;
  /** Desktop notifications for new items in the needs-you queue. */
  needsNotifications: boolean;
  /** The `claude` executable for launched teams; empty means `claude` from the PATH. */
  claudePath: string;
}

export interface Snapshot {
  teamsRoot: string;
  /** How the root was chosen: --teams-dir, TEAMDECK_TEAMS_DIR, CLAUDE_CONFIG_DIR, setting or default. */
  rootSource: string;
  /** Other places the app would look, for the empty state. */
  alsoLooked: string[];
  watching: boolean;
  teams: TeamSummary[];
  problems: TeamProblem[];
  settings: Settings;
  /** Messages held by the engine that are not yet in their target inbox. */
  queuedCount: number;
  /** The host's clock when the snapshot was taken, to age presence dots consistently. */
  now: number;
  /** Whether the host can start a demo team (Electron and the browser host can). */
  canStartDemo: boolean;
  /** The lead terminals Teamdeck hosts, running and exited. */
  terminals: TerminalInfo[];
  /** Whether this host can launch a team (tmux or a pty, and a `claude` to run), or why not. */
  launch: { available: boolean; reason?: string; backend?: 'tmux' | 'pty' };
}

/** Events main pushes to the renderer. */
export type AppEvent =
  | { type: 'snapshot'; snapshot: Snapshot }
  | { type: 'teams'; teams: TeamSummary[] }
  | { type: 'message'; team: string; message: ThreadMessage }
  | { type: 'delivery'; team: string; id: string; to: string; status: DeliveryStatus; reason?: string }
  | { type: 'roster'; team: string; roster: RosterEntry[] }
  | { type: 'problem'; problem: TeamProblem }
  | { type: 'queued-count'; count: number }
  | { type: 'activity'; team: string; activity: MemberActivity[] }
  | { type: 'timeline'; team: string; member: string; items: TimelineItem[] }
  | { type: 'tasks'; team: string; board: TaskBoard }
  | { type: 'needs'; needs: NeedItem[] }
  | { type: 'terminals'; terminals: TerminalInfo[] }
  /** What an attached terminal printed (UTF-8 text with its escape sequences), in order. */
  | { type: 'terminal-output'; id: string; data: string };

/** Every call the renderer may make. Arguments are validated by the host before any handler runs. */
export interface TeamdeckCalls {
  getSnapshot(): Promise<Result<Snapshot>>;
  getRoster(team: string): Promise<Result<RosterEntry[]>>;
  getThread(team: string, member: string): Promise<Result<ThreadMessage[]>>;
  getFeed(team: string): Promise<Result<ThreadMessage[]>>;
  send(req: SendRequest): Promise<Result<SendResult>>;
  getSettings(): Promise<Result<Settings>>;
  setSettings(patch: Partial<Settings>): Promise<Result<Settings>>;
  startDemo(): Promise<Result<{ teamsRoot: string; team: string }>>;
  /** Opens an http(s) link in the system browser; never inside the app. */
  openExternal(url: string): Promise<Result<null>>;
  /** What every member of the team is doing now. */
  getActivity(team: string): Promise<Result<MemberActivity[]>>;
  /** A member's transcript as a timeline, oldest first (at most `limit` latest items; default 2,000). Later items arrive as `timeline` events. */
  getTimeline(team: string, member: string, limit?: number): Promise<Result<TimelineItem[]>>;
  getTasks(team: string): Promise<Result<TaskBoard>>;
  /** What the teams need from the human, across all teams, newest first. */
  getNeeds(): Promise<Result<NeedItem[]>>;
  /** The ways a message can reach this member now, in words; the preferred one is marked. */
  getChannels(team: string, member: string): Promise<Result<ChannelOption[]>>;
  /** Starts an interactive `claude` lead in a terminal Teamdeck hosts; its session team follows. */
  launchTeam(req: LaunchRequest): Promise<Result<LaunchResult>>;
  getTerminals(): Promise<Result<TerminalInfo[]>>;
  /**
   * Starts (or joins) the terminal's output stream at this size. Returns the screen as it is now
   * (with its colours), to paint before the `terminal-output` events that follow.
   */
  attachTerminal(id: string, cols: number, rows: number): Promise<Result<{ screen: string }>>;
  /** Keystrokes and pastes from the pane, as the terminal would send them (at most 64 KiB a call). */
  terminalInput(id: string, data: string): Promise<Result<null>>;
  resizeTerminal(id: string, cols: number, rows: number): Promise<Result<null>>;
  /** Stops this viewer's stream; the lead keeps running. */
  detachTerminal(id: string): Promise<Result<null>>;
  /** Removes an exited terminal from the list (a running one is refused: end the lead in it). */
  closeTerminal(id: string): Promise<Result<null>>;
  /** A member's thread with the user, or the whole team, as a Markdown or JSON file's text. */
  exportConversation(req: ExportRequest): Promise<Result<ExportFile>>;
  /** Every team's messages that match the words and phrases, newest first. */
  search(req: SearchRequest): Promise<Result<SearchResult>>;
}

export type CallName = keyof TeamdeckCalls;

export const CALL_NAMES = [
  'getSnapshot',
  'getRoster',
  'getThread',
  'getFeed',
  'send',
  'getSettings',
  'setSettings',
  'startDemo',
  'openExternal',
  'getActivity',
  'getTimeline',
  'getTasks',
  'getNeeds',
  'getChannels',
  'launchTeam',
  'getTerminals',
  'attachTerminal',
  'terminalInput',
  'resizeTerminal',
  'detachTerminal',
  'closeTerminal',
  'exportConversation',
  'search',
] as const satisfies readonly CallName[];

/** What the renderer receives: the calls plus one subscription that returns its unsubscribe. */
export interface TeamdeckApi extends TeamdeckCalls {
  onEvent(listener: (event: AppEvent) => void): () => void;
}

/** IPC channel names; the prefix says who sends. */
export const CHANNELS = {
  invoke: (name: CallName) => `renderer:${name}` as const,
  event: 'main:event',
} as const;

export type { TeamMessage };
