// What the host asks of a terminal backend (tmux, or a pty in this process). The host keeps the
// records, the states and the events; a backend only runs programs in terminals and talks to them.
import type { TerminalBackend } from '../../shared/types.js';
import type { TerminalRecord } from './records.js';

export interface SpawnSpec {
  id: string;
  /** The executable (absolute) and its arguments, run without a shell. */
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
}

/** What a backend reports to the host. */
export interface BackendEvents {
  output(id: string, data: string): void;
  /** The program ended; `exitCode` as a shell reports it (128 + n for signal n), when known. */
  exited(id: string, exitCode: number | undefined): void;
}

export type Reconnect = { running: true } | { running: false; exitCode?: number };

export interface Backend {
  readonly kind: TerminalBackend;
  /** Starts the program; resolves with its pid once it runs. */
  spawn(spec: SpawnSpec): Promise<number>;
  /** A record left by an earlier Teamdeck: whether its program still runs (and is watched again). */
  reconnect(rec: TerminalRecord): Promise<Reconnect>;
  /** Starts watching a running program for its exit (after spawn or reconnect). */
  watch(rec: TerminalRecord): void;
  /** One more viewer at this size; resolves with the screen as terminal output to paint. */
  attach(id: string, cols: number, rows: number): Promise<string>;
  detach(id: string): void;
  input(id: string, data: string): void;
  resize(id: string, cols: number, rows: number): void;
  /** Pastes the text as the program asked for pastes (bracketed when it turned that on). */
  paste(id: string, text: string): Promise<void>;
  /** Presses Enter. */
  enter(id: string): Promise<void>;
  /** The visible screen as plain text, rows joined by `\n`; undefined when there is none any more. */
  screenText(id: string): Promise<string | undefined>;
  /** Forgets an exited terminal (its dead tmux session, its screen). */
  discard(id: string): Promise<void>;
  /** Ends what this process holds (attach clients; pty leads, which cannot outlive it). */
  stop(): Promise<void>;
}
