// The facade every shell (Electron main, the CLI, the browser host) uses. Implemented by
// TeamService in team-service.ts.
import type { AppEvent, ExportFile, ExportRequest, SearchRequest, SearchResult } from '../../shared/contract.js';
import type {
  ActionVia,
  AnswerRequest,
  LeadAction,
  PlanAnswerRequest,
  ChannelOption,
  DoctorReport,
  LaunchRequest,
  MemberActivity,
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
  ImportStatus,
} from '../../shared/types.js';
import type { AllUsage, BudgetRequest, Budgets, ModelPrice, PriceInfo, UsageRequest } from '../../shared/usage-types.js';
import type { TerminalAvailability, TerminalHost, TerminalHostOptions } from '../terminals/types.js';

export interface TeamServiceOptions {
  teamsRoot: string;
  /** Where the journal, preserved files and the owner lock live. */
  stateDir: string;
  idleThresholdMs?: number;
  /** Claude's config dir (sessions, projects, tasks); default: the teams root's parent. */
  configDir?: string;
  /** The sender name written on current-era teams (default `teamdeck`; reserved names refused). */
  senderName?: string;
  /** Injectable clock (ms since epoch) for presence and timestamps. */
  now?: () => number;
  /** Watch the teams root for changes (default true). One-shot CLI commands turn it off. */
  watch?: boolean;
  /** Undelivered messages allowed per target before a send is refused (default 64). */
  maxPendingPerTarget?: number;
  /**
   * start() returns once the teams are found, and their histories are read afterwards, the team
   * listed first first; until a team is read it is listed from its config alone, and calls for it
   * wait for it (default false: start() reads every team). For long-running hosts with a window
   * to show early.
   */
  openInBackground?: boolean;
  /**
   * Creates the host of the lead terminals this engine launches (tmux or a pty). Absent: the
   * engine hosts none (one-shot commands), and the terminal channel is not offered.
   */
  terminalHost?: (opts: Pick<TerminalHostOptions, 'emit' | 'now'>) => TerminalHost;
}

export { SendRefusedError, StateDirBusyError } from '../errors.js';

export interface TeamServiceApi {
  readonly teamsRoot: string;
  readonly stateDir: string;
  /** Takes the state-dir lock, folds journals, recovers queued messages, starts watching. */
  start(): Promise<void>;
  /** Stops watching and retrying, flushes, releases the lock. */
  stop(): Promise<void>;
  listTeams(): Promise<TeamSummary[]>;
  roster(team: string): Promise<RosterEntry[]>;
  /**
   * Starts reading the team now, for a roster asked for soon (the window's first), without
   * counting as that roster given (which starts the other teams' reading). Resolves once it is
   * read, or could not be; never rejects.
   */
  prepare?(team: string): Promise<void>;
  /** Messages between the user and `member` (both directions), oldest first, with delivery state on sent ones. */
  thread(team: string, member: string): Promise<ThreadMessage[]>;
  /** Every message of the team, oldest first. */
  feed(team: string): Promise<ThreadMessage[]>;
  /** What every member of the team is doing now, in roster order. */
  activity(team: string): Promise<MemberActivity[]>;
  /** A member's transcript as a timeline, oldest first: the latest `limit` items (default 2,000). */
  timeline(team: string, member: string, limit?: number): Promise<TimelineItem[]>;
  /** The team's task list (`<config>/tasks/<list>/`), with a problem per file that does not parse. */
  tasks(team: string): Promise<TaskBoard>;
  /** What the teams need from the human, across all teams, newest first. */
  needs(): Promise<NeedItem[]>;
  /** Throws SendRefusedError for bad input; otherwise the message is durable and `accepted` or `queued`. */
  send(req: SendRequest): Promise<SendResult>;
  /** Re-reads every team now (also happens on watcher events). */
  refresh(): Promise<void>;
  problems(): TeamProblem[];
  queuedCount(): number;
  setIdleThresholdMs(ms: number): void;
  /** The sender name for current-era teams from now on; throws SendRefusedError for a reserved name. */
  setSenderName(name: string): void;
  onEvent(listener: (event: AppEvent) => void): () => void;
  /** The ways a message can reach the member now, in words; the preferred one is marked. */
  channels(team: string, member: string): Promise<ChannelOption[]>;
  terminalAvailability(): Promise<TerminalAvailability>;
  terminals(): Promise<TerminalInfo[]>;
  /** Starts an interactive lead in a hosted terminal; its session team follows when Claude makes it. */
  launch(req: LaunchRequest): Promise<TerminalInfo>;
  attachTerminal(id: string, cols: number, rows: number): Promise<{ screen: string }>;
  terminalInput(id: string, data: string): Promise<void>;
  resizeTerminal(id: string, cols: number, rows: number): Promise<void>;
  detachTerminal(id: string): Promise<void>;
  closeTerminal(id: string): Promise<void>;
  /** A member's thread with the user (`member`), or every message of the team, as a Markdown or JSON file. */
  export(req: ExportRequest): Promise<ExportFile>;
  /** Every team's messages (or one team's) matching the words and phrases, newest first, a page at a time. */
  search(req: SearchRequest): Promise<SearchResult>;
  /** What one team (or every team) spent: tokens and USD per member, per hour, per day (docs/usage.md). */
  usage(req: UsageRequest): Promise<AllUsage>;
  /** Sets or clears a team's budget, or the daily one across all teams. */
  setBudget(req: BudgetRequest): Promise<Budgets>;
  /** The price table in effect, the overrides and any problem with `<state>/prices.json`. */
  prices(): Promise<PriceInfo>;
  /** Replaces the overrides in `<state>/prices.json`. */
  setPrices(table: Record<string, ModelPrice>): Promise<PriceInfo>;
  /** The claude Teamdeck launches and its version, the proven range, tmux, the folders, the engine: each finding with what to do. */
  doctor(): Promise<DoctorReport>;
  /** How far the reading of teams found in Claude's transcripts has got. */
  importStatus(): Promise<ImportStatus>;
  /**
   * Answers a permission prompt of the needs-you queue by keys in the lead's terminal, after
   * checking its screen shows exactly that prompt; refused (nothing typed) otherwise. `via`:
   * where the call came from (default `cli`: the command, or a client of the engine socket).
   */
  answer(req: AnswerRequest, via?: ActionVia): Promise<LeadAction>;
  /** Stops the member's turn in flight: the lead's by Esc in its terminal; a teammate's is refused, saying why. */
  interrupt(team: string, member: string, via?: ActionVia): Promise<LeadAction>;
  /** Approves or rejects a teammate's plan through the lead, typed as the user. */
  answerPlan(req: PlanAnswerRequest, via?: ActionVia): Promise<LeadAction>;
}
