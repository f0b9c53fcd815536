// Talking to Teamdeck's own tmux server: its name (one per state folder, never the user's
// tmux), its configuration (no tmux UI at all: no status line, no prefix key, no bindings),
// finding the tmux executable, and running one tmux command without a shell, with a timeout.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { findOnPath } from './launch-command.js';

/** `teamdeck-<first 10 hex of sha256(stateDir)>`: Teamdeck's server for this state folder (`tmux -L`). */
export function tmuxSocketName(stateDir: string): string {
  return `teamdeck-${createHash('sha256').update(stateDir).digest('hex').slice(0, 10)}`;
}

/**
 * Read when the server starts. The dead pane stays (its last screen and exit status stay
 * readable); the attached client's size is the pane's size; every key goes to the lead.
 */
export const TMUX_CONF = `# Teamdeck's own tmux server: one session per hosted lead terminal, none of tmux's own UI.
set -s escape-time 0
set -g default-terminal xterm-256color
set -as terminal-features ',xterm-256color:RGB'
set -g history-limit 10000
set -g remain-on-exit on
set -g status off
set -g mouse off
set -g prefix None
set -g prefix2 None
set -g window-size latest
unbind-key -a
unbind-key -a -T root
`;

/** Where tmux often is when a desktop app's PATH is short (macOS apps started from the Finder). */
const TMUX_DIRS = ['/opt/homebrew/bin', '/usr/local/bin', '/usr/bin', '/bin'];

/** tmux 3.3 refuses a command whose arguments pass ~16 KB ("command too long"); stay below. */
export const TMUX_ARGV_LIMIT = 15_000;

/** The bytes a command's arguments take in the client's message to the server (about). */
export function argvBytes(args: string[]): number {
  return args.reduce((n, a) => n + Buffer.byteLength(a) + 1, 0);
}

/**
 * tmux reads an argument that ends in `;` as the end of a command (`\;` is a literal `;`), even
 * from argv: `a;` becomes `a\;`, `a\;` becomes `a\\;` (which tmux reads back as `a\;`).
 */
export function tmuxArg(arg: string): string {
  return arg.endsWith(';') ? `${arg.slice(0, -1)}\\;` : arg;
}

export class TmuxCommandError extends Error {
  constructor(
    readonly args: string[],
    readonly stderr: string,
    message: string,
  ) {
    super(message);
    this.name = 'TmuxCommandError';
  }

  /** The server, the session or the pane is not there (as opposed to tmux failing). */
  get missing(): boolean {
    return /can't find|no server running|error connecting|session not found/i.test(this.stderr);
  }
}

export interface RunOptions {
  input?: string;
  env?: Record<string, string>;
  cwd?: string;
  timeoutMs?: number;
}

export class TmuxClient {
  constructor(
    /** The tmux executable (absolute). */
    readonly bin: string,
    readonly socket: string,
    readonly conf: string,
    /** The environment tmux clients run with (no TMUX: a client inside tmux refuses to attach). */
    readonly env: Record<string, string>,
  ) {}

  /** The arguments every client gets: UTF-8 to its terminal, Teamdeck's server, its config. */
  base(): string[] {
    return ['-u', '-L', this.socket, '-f', this.conf];
  }

  /** Runs one tmux command; resolves with its stdout, rejects with TmuxCommandError. */
  run(args: string[], opts: RunOptions = {}): Promise<string> {
    const argv = [...this.base(), ...args.map(tmuxArg)];
    return new Promise((resolve, reject) => {
      const child = spawn(this.bin, argv, { env: opts.env ?? this.env, cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, opts.timeoutMs ?? 5_000);
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => err.push(b));
      child.on('error', (e) => {
        clearTimeout(timer);
        reject(new TmuxCommandError(args, '', `tmux ${args[0]} could not run: ${e.message}`));
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        const stderr = Buffer.concat(err).toString('utf8').trim();
        if (timedOut) reject(new TmuxCommandError(args, stderr, `tmux ${args[0]} did not answer within ${opts.timeoutMs ?? 5_000} ms`));
        else if (code !== 0) reject(new TmuxCommandError(args, stderr, `tmux ${args[0]} failed: ${stderr || `exit ${code}`}`));
        else resolve(Buffer.concat(out).toString('utf8'));
      });
      child.stdin.on('error', () => {});
      child.stdin.end(opts.input ?? '');
    });
  }
}

/** The tmux executable when `tmux -V` runs, with its version line; undefined when there is none. */
export async function findTmux(env: NodeJS.ProcessEnv): Promise<{ bin: string; version: string } | undefined> {
  const bin = await findOnPath('tmux', env, TMUX_DIRS);
  if (!bin) return undefined;
  const version = await new Promise<string | undefined>((resolve) => {
    const child = spawn(bin, ['-V'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const out: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.on('error', () => resolve(undefined));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? Buffer.concat(out).toString('utf8').trim() : undefined);
    });
  });
  return version ? { bin, version } : undefined;
}
