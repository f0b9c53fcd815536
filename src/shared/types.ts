// Domain types shared by the core, the shells and the renderer. No Node, no DOM.

export type MemberState = 'active' | 'idle' | 'terminated';

/**
 * Delivery state of a message the user sent, in the order it can advance:
 * - `queued`: journaled, not in the target's inbox yet (a temporary failure, or waiting its turn);
 * - `accepted`: written into the target's inbox;
 * - `taken`: the member's process removed or flagged the entry (not proof its model saw it);
 * - `seen`: the message is in the member's transcript, so its model has it;
 * - `replied`: the member answered after that;
 * - `undeliverable`: no one can ever read it (the team ended, the member shut down); see `reason`.
 */
export type DeliveryStatus = 'queued' | 'accepted' | 'taken' | 'seen' | 'replied' | 'undeliverable';

export const DELIVERY_STATUSES = ['queued', 'accepted', 'taken', 'seen', 'replied', 'undeliverable'] as const satisfies readonly DeliveryStatus[];

/**
 * Which contract of Claude Code a team follows. `legacy`: named teams that outlive the lead,
 * `from:"user"` accepted, answers in `inboxes/user.json`. `current` (2.1.2xx to 2.1.332): one
 * `session-<8>` team per interactive lead, deleted at its exit, sender provenance, no user mailbox.
 */
export type TeamEra = 'legacy' | 'current';

/** `running` while the team's folder and lead are there; `ended` once Claude removed it or its lead died. */
export type TeamState = 'running' | 'ended';

/** Where a member's answer was found. */
export type AnswerSource =
  /** legacy: the member's SendMessage(to:"user") landed in inboxes/user.json */
  | 'user-inbox'
  /** current: the `result` of its idle notification to the lead */
  | 'idle-notification'
  /** current: a SendMessage to Teamdeck's name or to "user" read from its transcript */
  | 'transcript'
  /** current: a SendMessage the member sent to Teamdeck's messaging socket */
  | 'socket';

export const FRAME_TYPES = [
  'idle_notification',
  'shutdown_request',
  'shutdown_approved',
  'shutdown_rejected',
  'shutdown_response',
  'plan_approval_request',
  'plan_approval_response',
  'permission_request',
  'permission_response',
  'sandbox_permission_request',
  'sandbox_permission_response',
  'task_assignment',
  'task_completed',
  'teammate_terminated',
  'mode_set_request',
  'team_permission_update',
] as const;

export type FrameType = (typeof FRAME_TYPES)[number];

/** A protocol message carried as a JSON string in an inbox message's `text`. */
export interface Frame {
  type: FrameType;
  /** Every field of the frame as written, unknown ones included. */
  fields: Record<string, unknown>;
}

/** One inbox message, normalized. `to` is the owner of the inbox it was found in. */
export interface TeamMessage {
  id: string;
  team: string;
  from: string;
  to: string;
  text: string;
  summary?: string;
  /** ISO-8601, as written. */
  timestamp: string;
  /** Milliseconds since the epoch, parsed from `timestamp` (NaN-safe: 0 when unparsable). */
  time: number;
  color?: string;
  read: boolean;
  frame?: Frame;
}

export interface MemberInfo {
  name: string;
  /** File-safe name used for `inboxes/<inboxName>.json`. */
  inboxName: string;
  agentId?: string;
  agentType?: string;
  model?: string;
  color?: string;
  cwd?: string;
  joinedAt?: number;
  backendType?: string;
  isLead: boolean;
  /** false when the member is known only from inbox traffic (left the config, or never in it). */
  inConfig: boolean;
}

export interface RosterEntry extends MemberInfo {
  state: MemberState;
  /** Milliseconds since the epoch of the latest event from this member, if any. */
  lastEventAt?: number;
}

export interface TeamProblem {
  kind: 'config' | 'inbox' | 'watch' | 'journal' | 'prices';
  /** Path relative to the teams root (or the state dir for the journal). */
  file: string;
  message: string;
  /** Where the bytes of an unreadable file were kept, when they were. */
  preservedAt?: string;
}

export interface TeamSummary {
  /** The team's folder name under the teams root: the key used everywhere. */
  id: string;
  /** The `name` from config.json, else the folder name. */
  name: string;
  description?: string;
  createdAt?: number;
  memberCount: number;
  problems: TeamProblem[];
  era: TeamEra;
  state: TeamState;
  /** When the team was seen to end (ms since the epoch); only when `state` is `ended`. */
  endedAt?: number;
  /** Why the team counts as ended, in words ("the lead exited and Claude removed the team folder"). */
  endedReason?: string;
  /**
   * The sender name Teamdeck writes into this team's inboxes: `user` on legacy teams, its own
   * name (default `teamdeck`) on current ones, where reserved names are rated forged.
   */
  sendAs: string;
  /**
   * Current era: the lead reads its inbox only while it has teammates it spawned itself. False
   * when it has none, so a message to the lead waits until it spawns one.
   */
  leadReadsInbox: boolean;
  /** The hosted terminal the lead runs in, when Teamdeck launched it. */
  terminal?: string;
  /**
   * The Claude Code version the team's lead runs (its sessions file), else the one its transcript
   * was last written by; judged against the proven range by shared/claude-versions.ts.
   */
  claudeVersion?: string;
}

export interface SendRequest {
  team: string;
  to: string;
  text: string;
  summary?: string;
  /** How it should arrive; absent = the member's preferred channel (see ChannelOption). */
  channel?: ChannelKind;
}

/**
 * `accepted`: in the target's inbox; `queued`: journaled, delivered later (with the reason it
 * waits); `undeliverable`: journaled, but the target can never read it (the team ended or the
 * member shut down between the check and the write), with the reason.
 */
export type SendResult = { id: string; status: 'accepted' | 'queued' | 'undeliverable'; reason?: string };

/** A message as the app shows it: what was seen or sent, plus delivery state for sent ones. */
export interface ThreadMessage extends TeamMessage {
  /** Present on messages the user sent through Teamdeck. */
  status?: DeliveryStatus;
  /** Why a queued message is still waiting, or why an undeliverable one can never arrive. */
  reason?: string;
  /** Sent messages: the sender name written into the inbox (`user` legacy, `teamdeck` current). */
  sentAs?: string;
  /** A member's answer: where it was found. */
  source?: AnswerSource;
  /** Sent messages: how it was (or will be) delivered; absent on older journals = inbox. */
  channel?: ChannelKind;
  /** How the message travelled, where Teamdeck read it from a transcript (see MessageVia). */
  via?: MessageVia;
  /** Not a message: something Teamdeck did for the user in the lead's terminal (an answer, a stop). */
  action?: LeadAction['kind'];
}

/**
 * How a message travelled, as read from the members' transcripts (docs/claude-contract.md#record):
 * `typed` in the lead's terminal; `at-name`, an `@name` line typed there; `answer`, the final
 * text of the turn that took the user's words; `spawn`, the lead's spawn prompt; `message`, a
 * SendMessage between members (or a protocol frame); `teamdeck`, sent as Teamdeck (an inbox
 * entry of its name); `socket`, a message on a session's messaging socket.
 */
export type MessageVia = 'typed' | 'at-name' | 'answer' | 'spawn' | 'message' | 'teamdeck' | 'socket';

// ---------------------------------------------------------------------------------------------
// What each member is doing, its transcript as a timeline, the team's tasks, and what the team
// needs from the human (current era: from Claude's sessions, transcripts and tasks folders).

/** What a member is doing now, in one word; the presence dot keeps its own three states. */
export type ActivityKind = 'working' | 'waiting' | 'idle' | 'shut-down' | 'unknown';

export interface MemberActivity {
  member: string;
  kind: ActivityKind;
  /** When the member entered this state (ms), e.g. the tool call's start or the turn's end. */
  since?: number;
  /** The tool in flight while working: its name and a one-line summary of its input. */
  tool?: { name: string; summary: string; since: number };
  /** While waiting: what for, in words ("a permission answer in the lead's terminal"). */
  waitingFor?: string;
  /** The last text the member wrote (trimmed to a line). */
  lastText?: string;
  /** When its last turn ended (ms). */
  lastTurnEndAt?: number;
  /** Where the facts came from: `session` (the lead's sessions file), `transcript`, `config`. */
  sources: Array<'session' | 'transcript' | 'config'>;
  /** The last thing the user did to this member from Teamdeck, while it still shows ("stopped by you"). */
  byYou?: { what: string; at: number };
  /** Whether a Stop can reach this member's turn now, or why not (working members only). */
  stop?: { available: boolean; reason?: string };
}

export type TimelineKind = 'received' | 'prompt' | 'text' | 'tool-call' | 'tool-result';

/** One readable step of a member's transcript. */
export interface TimelineItem {
  /** Stable within the transcript (row uuid + block index). */
  id: string;
  kind: TimelineKind;
  /** ms since the epoch; 0 when the row had none. */
  at: number;
  /** The text, the tool input summarized, or the result (bounded; the UI collapses results). */
  text: string;
  /** tool-call and tool-result: the tool's name. */
  tool?: string;
  /** received: who sent it (teammate_id of the block). */
  from?: string;
  /** tool-result: the tool reported an error. */
  isError?: boolean;
}

export type TaskStatus = 'pending' | 'in_progress' | 'completed';

export interface TaskItem {
  id: string;
  subject: string;
  description?: string;
  activeForm?: string;
  owner?: string;
  status: TaskStatus;
  blocks: string[];
  blockedBy: string[];
}

export interface TaskBoard {
  team: string;
  /** The task list's folder name under `<Claude's config dir>/tasks/`. */
  list: string;
  /** That folder in full (the home folder as `~`): a demo's or a CLAUDE_CONFIG_DIR's is not under ~/.claude. */
  folder?: string;
  /** False when the folder does not exist (yet). */
  exists: boolean;
  tasks: TaskItem[];
  /** Task files that do not parse, each with its name; the others still show. */
  problems: TeamProblem[];
}

export type NeedKind = 'permission' | 'plan-approval' | 'stuck-queued' | 'stuck-taken' | 'idle-with-mail' | 'orphan-inbox' | 'held' | 'budget';

/** Something the team waits on the human for. Clears itself when resolved. */
export interface NeedItem {
  /** Stable while the need lasts (kind + team + subject). */
  id: string;
  kind: NeedKind;
  team: string;
  member?: string;
  /** One line: what is needed ("researcher waits for a permission answer: Bash npm test"). */
  title: string;
  detail?: string;
  /** Since when it has waited (ms). */
  since: number;
  /** stuck-*: the sent message concerned. */
  messageId?: string;
  /** orphan-inbox: the inbox stem that no member reads, and how many messages sit in it. */
  orphan?: { inbox: string; messages: number };
  /** permission: the hosted terminal that shows the prompt; answering there clears the need. */
  terminal?: string;
  /** permission: what is asked (the tool call in flight of the member that asks), when known. */
  ask?: PermissionAsk;
  /** permission: whether Teamdeck can answer it (a lead terminal it can reach), or why not. */
  answer?: { available: boolean; reason?: string };
  /** plan-approval: the plan as the member wrote it, whole. */
  plan?: string;
}

/** What a permission prompt asks: the tool, and its command or path. */
export interface PermissionAsk {
  tool: string;
  /** Bash: the command; file tools: the path; else the call's one-line summary. */
  subject?: string;
}

/** An answer to a permission prompt, as the dialog's options give it. */
export const ANSWER_CHOICES = ['allow', 'allow-always', 'deny'] as const;
export type AnswerChoice = (typeof ANSWER_CHOICES)[number];

export interface AnswerRequest {
  /** The permission need's id (`teamdeck needs --json`). */
  need: string;
  choice: AnswerChoice;
  /** With `deny`: typed into Claude's "No, and tell Claude what to do differently" input. */
  reason?: string;
}

/** Approves or rejects a teammate's plan through the lead, in the user's own words. */
export interface PlanAnswerRequest {
  need: string;
  approve: boolean;
  feedback?: string;
}

/** Where an answer or an interrupt came from. */
export type ActionVia = 'window' | 'browser' | 'cli';

/** What Teamdeck did in a lead's terminal for the user (an answer, an interrupt), as journaled. */
export interface LeadAction {
  id: string;
  team: string;
  member: string;
  kind: 'answer' | 'interrupt' | 'plan';
  /** In words: "allowed Bash touch a.txt", "stopped". */
  what: string;
  at: number;
  via: ActionVia;
  /** Where the keys went ("Teamdeck's terminal t-…", "tmux pane %3 of …"). */
  where: string;
  /** Every key pressed, in order, with when. */
  keys: Array<{ key: string; at: number }>;
  /** The screen showed the result (the dialog closed, the turn stopped). */
  confirmed: boolean;
}

// ---------------------------------------------------------------------------------------------
// Channels and hosted terminals (current Claude Code: only the lead's own terminal carries the
// user's voice; see docs/claude-contract.md#channels).

/**
 * How a message reaches its member:
 * - `terminal`: typed into the lead's terminal that Teamdeck hosts (a turn for the lead,
 *   `@name text` for a teammate): the user's own voice;
 * - `inbox`: written into the member's inbox file as Teamdeck's sender name: a teammate message;
 * - `socket`: Claude's per-session messaging socket: "another Claude session".
 */
export type ChannelKind = 'terminal' | 'inbox' | 'socket';
export const CHANNEL_KINDS = ['terminal', 'inbox', 'socket'] as const satisfies readonly ChannelKind[];

/** One way to reach a member, in words, for the compose box. */
export interface ChannelOption {
  kind: ChannelKind;
  /** How the message will arrive, e.g. "as you, typed into the lead's terminal". */
  label: string;
  /** Whether a send over it is possible now; `reason` says why not. */
  available: boolean;
  reason?: string;
  /** The channel a send without one uses. */
  preferred?: boolean;
}

export type TerminalBackend = 'tmux' | 'pty';
export type TerminalState = 'starting' | 'running' | 'exited';

/** A lead's terminal that Teamdeck hosts. */
export interface TerminalInfo {
  /** Teamdeck's id for it (`t-<hex>`), stable across restarts. */
  id: string;
  backend: TerminalBackend;
  state: TerminalState;
  cwd: string;
  /** The lead's pid (= config.leadProcess.pid) once it runs. */
  pid?: number;
  /** The session team Claude made for this lead, once it exists. */
  team?: string;
  startedAt: number;
  exitedAt?: number;
  exitCode?: number;
  /** One line for lists: the project folder's name and the team. */
  title: string;
  /** The permission mode the lead was started with. */
  permissionMode?: PermissionModeChoice;
}

export type PermissionModeChoice = 'default' | 'acceptEdits' | 'plan' | 'auto' | 'bypassPermissions';
export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'auto', 'bypassPermissions'] as const satisfies readonly PermissionModeChoice[];

export interface LaunchRequest {
  /** The project folder the lead works in (absolute, or `~/…`). */
  cwd: string;
  /** The lead's first turn, typed once it is ready. */
  prompt?: string;
  model?: string;
  permissionMode?: PermissionModeChoice;
}

export interface LaunchResult {
  terminal: TerminalInfo;
}

// What `doctor` reports lives in doctor-types.ts; re-exported so callers keep one import.
export type { DoctorFinding, DoctorFolder, DoctorLevel, DoctorReport } from './doctor-types.js';

/**
 * The background reading of agent teams found in Claude's transcripts (docs/claude-contract.md#record),
 * for a progress line: files and bytes read of those found, and how many teams they hold.
 */
export interface ImportStatus {
  running: boolean;
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  teamsFound: number;
  /**
   * Transcript bytes this run read: a file read to its end by an earlier run is not read again,
   * one that grew is read from where it was left.
   */
  bytesRead: number;
  /** How long this run has taken (ms): to now while it runs, its whole length once it is done. */
  ms: number;
}
