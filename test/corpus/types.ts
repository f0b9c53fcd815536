// The shape of one bad-input case. Each case file under cases/ exports one `corpusCase`.
import type { TeamService } from '../../src/engine/service/team-service.js';
import type { SendRequest, TeamProblem, ThreadMessage } from '../../src/shared/types.js';

/** The real temp folders a case runs in: `base` holds exactly teams/, state/ and outside/. */
export interface CaseEnv {
  base: string;
  /** The teams root given to the service. */
  root: string;
  /** The service's state dir. */
  stateDir: string;
  /** A sentinel folder next to both: nothing may ever change in it. Symlinks point here. */
  outside: string;
}

/**
 * One expected outcome, checked by the runner in order. Each is either a named problem or
 * refusal (matched on its message) or a specific tolerant reading.
 */
export type Expectation =
  /** service.problems() holds a problem for `file` (relative to the teams root or state dir) whose message matches. */
  | { problem: { file: string; kind?: TeamProblem['kind']; message: RegExp } }
  /** service.problems() holds no problem for `file`. */
  | { noProblem: string }
  /** send() throws SendRefusedError whose message matches; nothing is journaled or written. */
  | { send: SendRequest; refused: RegExp }
  /** send() answers queued with a reason that matches. */
  | { send: SendRequest; queued: RegExp }
  /** send() answers accepted and `inbox` (relative to the root; default <team>/inboxes/<to>.json) holds it, from "user". */
  | { send: SendRequest; accepted: true; inbox?: string }
  /** service.thread() reads these texts (tolerant reading), in this order, and `check` holds for the list. */
  | { thread: { team: string; member: string }; texts: Array<string | RegExp>; check?: (m: ThreadMessage[]) => void }
  /** service.roster() names exactly these members, in this order. */
  | { roster: string; names: string[] }
  /** service.listTeams() holds (or lacks) this team id. */
  | { listed: string; present: boolean }
  /** readInbox() on `file` (relative to the root) gives this kind, with a reason or message count. */
  | { readInbox: string; kind: 'ok' | 'corrupt' | 'error' | 'missing'; reason?: RegExp; messages?: number; invalid?: number }
  /** readTeam() on `team` reports a problem whose message matches (or, with `none`, no problem at all). */
  | { readTeam: string; problem?: RegExp; none?: true };

export interface CaseContext extends CaseEnv {
  svc: TeamService;
}

export interface CorpusCase {
  name: string;
  /** The expected outcome in one line (the README lists these). */
  expected: string;
  /** Set when the case cannot run here, with the reason (shown in the test title). */
  skip?: string;
  /** Builds the bad input in the real temp folders, before the snapshot and before the service starts. */
  setup(env: CaseEnv): Promise<void>;
  /** Checked in order against the running service (and readInbox / readTeam). */
  expect: Expectation[];
  /** Further case-specific checks after `expect`, while the service runs; may return a note for the outcome line. */
  after?(ctx: CaseContext): Promise<string | void>;
  /** Checks once the service has stopped (for example the state dir's files). */
  afterStop?(env: CaseEnv): Promise<void>;
  /** Undo what must be undone before the temp folders can be removed (for example an immutable flag). */
  teardown?(env: CaseEnv): Promise<void>;
  /**
   * Files (relative to the teams root) Teamdeck may legitimately append to: every old entry
   * must still be there, in order. Every other pre-existing file must be byte-identical.
   */
  appends?: string[];
  /** Lock folders (relative to the root) that existed before and may be taken over as stale. */
  mayRemove?: string[];
  /** Retry backoff for the service (default: fast, for tests). */
  backoff?: { initialMs: number; maxMs: number };
}
