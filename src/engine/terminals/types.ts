// The hosted lead terminal, as the rest of the engine sees it. The implementation (tmux where it
// exists, else a pty in this process) lives beside this file; nothing outside this folder knows
// which one runs.
import type { LaunchRequest, TerminalBackend, TerminalInfo } from '../../shared/types.js';
import { TeamdeckError } from '../errors.js';

/** Why a terminal call cannot be carried out. */
export type TerminalFailure = 'not_found' | 'exited' | 'unavailable' | 'refused';

/**
 * A terminal call that cannot be carried out (unknown id, the lead has exited, …), in words.
 * Across the boundary an unknown terminal is `not_found`, and every other reason a refusal.
 */
export class TerminalError extends TeamdeckError {
  constructor(
    message: string,
    readonly failure: TerminalFailure = 'refused',
  ) {
    super(failure === 'not_found' ? 'not_found' : 'refused', message);
  }
}

export type TerminalEvent =
  /** The list changed (launched, exited, closed, team assigned). */
  | { type: 'terminals' }
  /** An attached terminal printed this (UTF-8 text with escape sequences). */
  | { type: 'output'; id: string; data: string };

export interface TerminalHostOptions {
  /** Teamdeck's state folder (0700); records live in `<stateDir>/terminals/`. */
  stateDir: string;
  /** The environment launched leads start from (default process.env); TMUX* is dropped. */
  env?: NodeJS.ProcessEnv;
  /** The `claude` executable from Settings; '' means `claude` found on env's PATH. */
  claudePath: () => string;
  now?: () => number;
  emit: (e: TerminalEvent) => void;
  /** Forces a backend (tests); by default tmux when `tmux -V` runs, else a pty. */
  backend?: TerminalBackend;
}

export interface TerminalAvailability {
  available: boolean;
  reason?: string;
  backend?: TerminalBackend;
}

export interface TerminalHost {
  /** Reads the records, re-attaches leads that still run (tmux), marks the others exited. */
  start(): Promise<void>;
  availability(): TerminalAvailability;
  /**
   * Whether a launch can work now: a terminal to host it and a `claude` to run in it (looked up
   * again on each ask, so that installing it or fixing Settings shows at once).
   */
  launchAvailability(): Promise<TerminalAvailability>;
  list(): TerminalInfo[];
  get(id: string): TerminalInfo | undefined;
  /** Starts `claude` in a new terminal; resolves once its process runs (pid known). */
  launch(req: LaunchRequest): Promise<TerminalInfo>;
  /** Records which session team this terminal's lead made (persisted; survives the team). */
  assignTeam(id: string, team: string): void;
  /** Joins the terminal's output stream at this size; returns the screen as it is now. */
  attach(id: string, cols: number, rows: number): Promise<{ screen: string }>;
  /** Leaves the stream (one viewer fewer); the lead keeps running. */
  detach(id: string): void;
  /** Raw input from the pane (keystrokes, pastes), written as is. */
  input(id: string, data: string): void;
  resize(id: string, cols: number, rows: number): void;
  /** Forgets an exited terminal; refuses a running one. */
  close(id: string): Promise<void>;
  /**
   * The terminal channel's primitive: the text as one turn (a bracketed paste, so several lines
   * arrive whole), then Enter. Given pieces, each is pasted in turn (a short pause between them),
   * then one Enter. Resolves once the keys are written.
   */
  typeTurn(id: string, text: string | readonly string[]): Promise<void>;
  /** The visible screen as plain text, one line per row (for "is a dialog open", "is the input box empty"). */
  screenText(id: string): Promise<string>;
  /** Closes this process's attachments; never ends a lead that runs in tmux. */
  stop(): Promise<void>;
}
