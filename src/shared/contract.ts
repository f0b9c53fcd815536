// The one contract between the UI and whatever hosts it (Electron main, or the browser host).
// Every call the renderer may make (CALLS, near the end) and every event main pushes is declared
// here, once.
import type {
  AnswerRequest,
  ChannelOption,
  DeliveryStatus,
  DoctorReport,
  ImportStatus,
  LeadAction,
  PlanAnswerRequest,
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
import type { AllUsage, BudgetRequest, Budgets, ModelPrice, PriceInfo, TeamUsage, UsageRequest } from './usage-types.js';

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

/**
 * Why a call failed, the same word at every boundary (the contract's Result, the engine socket,
 * the CLI's exit status): `refused`: the input or the state of things rules the call out, and
 * nothing was written; `not_found`: no such team, member or terminal; `invalid`: the payload
 * failed validation; `state_busy`: another process owns the state folder; `unavailable`: no
 * engine could be reached; `internal`: anything else (a bug, a disk that fails).
 */
export const ERROR_CODES = ['refused', 'not_found', 'invalid', 'state_busy', 'unavailable', 'internal'] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ApiError {
  code: ErrorCode;
  /** Words for a person; never a stack. */
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
  /** Permission prompts may be answered, and turns stopped, from Teamdeck (keys in the lead's terminal). */
  answerFromTeamdeck: boolean;
  /** The window's colours; absent means `system` (follow the system's light or dark). */
  theme?: ThemeChoice;
}

/** The window's colour choices in Settings. */
export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

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
  | { type: 'terminal-output'; id: string; data: string }
  /** A team's usage changed (new replies in its transcripts, new prices): its figures now. */
  | { type: 'usage'; team: string; usage: TeamUsage }
  /** The background reading of teams found in Claude's transcripts made progress. */
  | { type: 'import-status'; status: ImportStatus }
  /** The team's record grew by history read late (a catch-up on transcripts): what the page loaded of it is fetched again. */
  | { type: 'record'; team: string }
  /** The shell asks the page to show this needs-you item (its desktop notification was clicked). */
  | { type: 'open-need'; need: string };

// ---------------------------------------------------------------------------------------------
// The calls. CALLS below is the one list: the names, the TeamdeckCalls type, the preload bridge,
// the WebSocket client, the IPC registration and the hosts' validation are all built from it.
// Adding a call is one line here and its handler in src/engine/api/api-handlers.ts.
//
// A call's arguments are named by kind (`'team'`, `'sendRequest'`; `'timelineLimit?'` may be
// left out). ArgTypes gives each kind's type and contract-schema.ts its schema, so this file
// holds no validation code: the page imports it without the schemas' library.

/** The type of each kind of argument a call takes. Its schema is ARG_SCHEMAS in contract-schema.ts. */
export interface ArgTypes {
  /** A team's folder name (or its config name). */
  team: string;
  member: string;
  /** How many of a member's latest transcript items to give. */
  timelineLimit: number;
  sendRequest: SendRequest;
  settingsPatch: Partial<Settings>;
  /** An http(s) link to open outside the app. */
  url: string;
  launchRequest: LaunchRequest;
  /** One of Teamdeck's own terminal ids: `t-` and 12 hex digits. */
  terminalId: string;
  cols: number;
  rows: number;
  /** Keystrokes and pastes, as the terminal would send them. */
  terminalInput: string;
  exportRequest: ExportRequest;
  searchRequest: SearchRequest;
  usageRequest: UsageRequest;
  budgetRequest: BudgetRequest;
  /** Model name → its prices per million tokens (the overrides over the defaults). */
  priceTable: Record<string, ModelPrice>;
  answerRequest: AnswerRequest;
  planAnswerRequest: PlanAnswerRequest;
}

export type ArgKind = keyof ArgTypes;
/** An argument of that kind; with a trailing `?`, one the caller may leave out (the last ones only). */
export type ArgSpec = ArgKind | `${ArgKind}?`;

/** The positional argument types a list of kinds stands for: ['team', 'timelineLimit?'] is [string, number?]. */
export type ArgsOf<S extends readonly ArgSpec[]> = S extends readonly [infer F, ...infer Rest extends readonly ArgSpec[]]
  ? F extends `${infer K extends ArgKind}?`
    ? [ArgTypes[K]?, ...ArgsOf<Rest>]
    : F extends ArgKind
      ? [ArgTypes[F], ...ArgsOf<Rest>]
      : never
  : [];

declare const RESULT: unique symbol;
/** Names a call's result type; it holds nothing at run time. */
export type Returns<T> = { readonly [RESULT]?: T };
export function returns<T>(): Returns<T> {
  return {};
}

export interface CallSpec<A extends readonly ArgSpec[], T> {
  readonly args: A;
  readonly result: Returns<T>;
}

function call<const A extends readonly ArgSpec[], T>(args: A, result: Returns<T>): CallSpec<A, T> {
  return { args, result };
}

/** Every call the renderer may make. Arguments are validated by the host before any handler runs. */
export const CALLS = {
  getSnapshot: call([], returns<Snapshot>()),
  getRoster: call(['team'], returns<RosterEntry[]>()),
  getThread: call(['team', 'member'], returns<ThreadMessage[]>()),
  getFeed: call(['team'], returns<ThreadMessage[]>()),
  send: call(['sendRequest'], returns<SendResult>()),
  getSettings: call([], returns<Settings>()),
  setSettings: call(['settingsPatch'], returns<Settings>()),
  startDemo: call([], returns<{ teamsRoot: string; team: string }>()),
  /** Opens an http(s) link in the system browser; never inside the app. */
  openExternal: call(['url'], returns<null>()),
  /** What every member of the team is doing now. */
  getActivity: call(['team'], returns<MemberActivity[]>()),
  /** A member's transcript as a timeline, oldest first (at most `limit` latest items; default 2,000). Later items arrive as `timeline` events. */
  getTimeline: call(['team', 'member', 'timelineLimit?'], returns<TimelineItem[]>()),
  getTasks: call(['team'], returns<TaskBoard>()),
  /** What the teams need from the human, across all teams, newest first. */
  getNeeds: call([], returns<NeedItem[]>()),
  /** The ways a message can reach this member now, in words; the preferred one is marked. */
  getChannels: call(['team', 'member'], returns<ChannelOption[]>()),
  /** Starts an interactive `claude` lead in a terminal Teamdeck hosts; its session team follows. */
  launchTeam: call(['launchRequest'], returns<LaunchResult>()),
  getTerminals: call([], returns<TerminalInfo[]>()),
  /**
   * Starts (or joins) the terminal's output stream at this size. Returns the screen as it is now
   * (with its colours), to paint before the `terminal-output` events that follow.
   */
  attachTerminal: call(['terminalId', 'cols', 'rows'], returns<{ screen: string }>()),
  /** Keystrokes and pastes from the pane, as the terminal would send them (at most 64 KiB a call). */
  terminalInput: call(['terminalId', 'terminalInput'], returns<null>()),
  resizeTerminal: call(['terminalId', 'cols', 'rows'], returns<null>()),
  /** Stops this viewer's stream; the lead keeps running. */
  detachTerminal: call(['terminalId'], returns<null>()),
  /** Removes an exited terminal from the list (a running one is refused: end the lead in it). */
  closeTerminal: call(['terminalId'], returns<null>()),
  /** A member's thread with the user, or the whole team, as a Markdown or JSON file's text. */
  exportConversation: call(['exportRequest'], returns<ExportFile>()),
  /** Every team's messages that match the words and phrases, newest first. */
  search: call(['searchRequest'], returns<SearchResult>()),
  /** What one team (or every team) spent: tokens and USD per member, per hour and per day. */
  getUsage: call(['usageRequest'], returns<AllUsage>()),
  /** Sets or clears a team's budget or the daily one across all teams. */
  setBudget: call(['budgetRequest'], returns<Budgets>()),
  getPrices: call([], returns<PriceInfo>()),
  /** Replaces the price overrides (`<state>/prices.json`), merged over the defaults. */
  setPrices: call(['priceTable'], returns<PriceInfo>()),
  /** What stands between this machine and a working Teamdeck, each finding with what to do (the same as `teamdeck doctor`). */
  doctor: call([], returns<DoctorReport>()),
  /** How far the background reading of teams found in Claude's transcripts has got (also pushed as `import-status`). */
  importStatus: call([], returns<ImportStatus>()),
  /** Answers a permission prompt of the needs-you queue by keys in the lead's terminal, once its screen shows exactly that prompt. */
  answerPrompt: call(['answerRequest'], returns<LeadAction>()),
  /** Stops the member's turn in flight (the lead: Esc in its terminal); refused, saying why, where no safe way exists. */
  interruptMember: call(['team', 'member'], returns<LeadAction>()),
  /** Approves or rejects a teammate's plan through the lead, typed as the user. */
  answerPlan: call(['planAnswerRequest'], returns<LeadAction>()),
};

type Calls = typeof CALLS;
export type CallName = keyof Calls;
export const CALL_NAMES = Object.keys(CALLS) as readonly CallName[];

export type CallArgs<N extends CallName> = ArgsOf<Calls[N]['args']>;
export type CallValue<N extends CallName> = Calls[N]['result'] extends Returns<infer T> ? T : never;

/** The calls as the renderer makes them: each resolves to a Result, never throws across the bridge. */
export type TeamdeckCalls = { [N in keyof Calls]: (...args: CallArgs<N>) => Promise<Result<CallValue<N>>> };

/** The calls as a host carries them out: the value, or a throw that the host turns into a Result. */
export type CallHandlers = { [N in keyof Calls]: (...args: CallArgs<N>) => Promise<CallValue<N>> };

/** What the renderer receives: the calls plus one subscription that returns its unsubscribe. */
export interface TeamdeckApi extends TeamdeckCalls {
  onEvent(listener: (event: AppEvent) => void): () => void;
}

/** IPC channel names; the prefix says who sends. */
export const CHANNELS = {
  invoke: (name: CallName) => `renderer:${name}` as const,
  event: 'main:event',
} as const;

/**
 * The arguments without the `undefined`s at their end: a call left its optional arguments out.
 * (JSON would send them as null, which the strict schemas refuse.)
 */
export function withoutTrailingUndefined(args: readonly unknown[]): unknown[] {
  let n = args.length;
  while (n > 0 && args[n - 1] === undefined) n--;
  return args.slice(0, n);
}

// The browser host's WebSocket envelope: the renderer sends calls, the host answers each by id
// and pushes events. The same calls and results as IPC, as JSON text frames.
export type WsClientMessage = { t: 'call'; id: number; name: CallName; args: unknown[] };
export type WsServerMessage = { t: 'result'; id: number; result: Result<unknown> } | { t: 'event'; event: AppEvent };

export type { TeamMessage };
