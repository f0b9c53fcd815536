// Teamdeck's side of the contract tests: the real `teamdeck` command (bin/teamdeck.mjs) run as
// child processes against a team the real Claude Code runs, with a `teamdeck watch` engine
// child serving the state dir for the team's life (so `send`, `thread` and `teams` go through
// its socket and see its live history), and a process that holds a member's inbox lock the way
// Claude's proper-lockfile does (a `<inbox>.json.lock` directory), to make a send wait.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { waitFor, WaitTimeout } from './wait.js';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));
export const TEAMDECK_BIN = join(REPO, 'bin', 'teamdeck.mjs');

/** One run of the `teamdeck` command. */
export interface CliRun {
  args: string[];
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Date.now() just before the spawn and when the process had exited. */
  startedAt: number;
  endedAt: number;
}

/** A team as `teamdeck teams --json` lists it. */
export interface CliTeam {
  id: string;
  name: string;
  era: 'legacy' | 'current';
  state: 'running' | 'ended';
  endedAt?: number;
  endedReason?: string;
  sendAs: string;
  memberCount: number;
  leadReadsInbox?: boolean;
  [k: string]: unknown;
}

/** A message as `teamdeck thread --json` shows it. */
export interface CliMessage {
  id: string;
  team: string;
  from: string;
  to: string;
  text: string;
  summary?: string;
  timestamp: string;
  status?: 'queued' | 'accepted' | 'taken' | 'seen' | 'replied' | 'undeliverable';
  reason?: string;
  sentAs?: string;
  source?: 'idle-notification' | 'transcript' | 'user-inbox';
  frame?: string;
  [k: string]: unknown;
}

/** One `thread` call of a poll: what it showed, and the window in which the engine answered it. */
export interface ThreadSample {
  startedAt: number;
  endedAt: number;
  messages: CliMessage[];
}

export interface TeamdeckCli {
  teamsDir: string;
  stateDir: string;
  /** Every run so far, in order of start (for failure reports). */
  runs: CliRun[];
  /** `teamdeck <command> --teams-dir D --state-dir S <rest of args>`; `args` in the result leave the folders out. */
  run(args: string[], opts?: { timeoutMs?: number }): Promise<CliRun>;
  /** `teams --json`; throws unless it exits 0 with JSON. */
  teams(): Promise<CliTeam[]>;
  /** `thread --team T --with M --json`, with when it ran. */
  thread(team: string, member: string): Promise<ThreadSample>;
  /** `send --team T --to M --json TEXT`; `sent` is the parsed stdout when there is one. */
  send(team: string, to: string, text: string, opts?: { summary?: string }): Promise<CliRun & { sent?: { id: string; status: string } }>;
  /**
   * `thread` called back to back until `done` holds for a sample (returned with every sample
   * before it) or the deadline passes (WaitTimeout naming the last sample).
   */
  pollThread(team: string, member: string, done: (messages: CliMessage[]) => boolean, timeoutMs: number, what: string): Promise<ThreadSample[]>;
  report(): string;
}

/**
 * The command's environment: the scratch home, and none of the developer's Teamdeck or Claude
 * variables (so no default folder of theirs is read or written). TMPDIR stays, so tsx's
 * compile cache stays warm between runs.
 */
export function cliEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('TEAMDECK_') || k.startsWith('CLAUDE_') || k.startsWith('XDG_') || k.startsWith('VITEST') || k === 'NODE_OPTIONS') continue;
    env[k] = v;
  }
  env.HOME = home;
  return env;
}

function runCommand(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<CliRun> {
  const startedAt = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TEAMDECK_BIN, ...args], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ args, code, signal, stdout, stderr, startedAt, endedAt: Date.now() });
    });
  });
}

function describeRun(r: CliRun): string {
  return `teamdeck ${r.args.join(' ')} -> exit ${r.code ?? r.signal} in ${r.endedAt - r.startedAt} ms\n  stdout: ${r.stdout.trim().slice(0, 600)}\n  stderr: ${r.stderr.trim().slice(0, 600)}`;
}

function parseJson<T>(r: CliRun): T {
  if (r.code !== 0) throw new Error(`expected exit 0: ${describeRun(r)}`);
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON: ${describeRun(r)}`);
  }
}

export function teamdeckCli(opts: { teamsDir: string; stateDir: string; home: string; env?: NodeJS.ProcessEnv }): TeamdeckCli {
  const env = { ...cliEnv(opts.home), ...opts.env };
  const runs: CliRun[] = [];
  const run = async (args: string[], o: { timeoutMs?: number } = {}) => {
    // The folders go right after the command name: a `--` before the text ends the options.
    const [command, ...rest] = args;
    const r = await runCommand([command!, '--teams-dir', opts.teamsDir, '--state-dir', opts.stateDir, ...rest], env, o.timeoutMs ?? 30_000);
    const shown = { ...r, args };
    runs.push(shown);
    return shown;
  };
  const thread = async (team: string, member: string): Promise<ThreadSample> => {
    const r = await run(['thread', '--team', team, '--with', member, '--json']);
    return { startedAt: r.startedAt, endedAt: r.endedAt, messages: parseJson<CliMessage[]>(r) };
  };
  return {
    teamsDir: opts.teamsDir,
    stateDir: opts.stateDir,
    runs,
    run,
    teams: async () => parseJson<CliTeam[]>(await run(['teams', '--json'])),
    thread,
    send: async (team, to, text, o = {}) => {
      const r = await run(['send', '--team', team, '--to', to, '--json', ...(o.summary !== undefined ? ['--summary', o.summary] : []), '--', text]);
      let sent: { id: string; status: string } | undefined;
      try {
        sent = r.stdout.trim() ? JSON.parse(r.stdout) : undefined;
      } catch {
        sent = undefined;
      }
      return { ...r, sent };
    },
    pollThread: async (team, member, done, timeoutMs, what) => {
      const samples: ThreadSample[] = [];
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const s = await thread(team, member);
        samples.push(s);
        if (done(s.messages)) return samples;
        if (Date.now() >= deadline) {
          const last = s.messages.map((m) => [m.from, m.status ?? m.source, m.text.slice(0, 40)]);
          throw new WaitTimeout(`timed out after ${timeoutMs} ms waiting for ${what} (${samples.length} thread calls; the last showed ${JSON.stringify(last)})`);
        }
      }
    },
    report: () => ['--- teamdeck runs ---', ...runs.map(describeRun)].join('\n'),
  };
}

/** An event `teamdeck watch --json` printed, with when the test read it. */
export interface WatchEvent {
  at: number;
  event: { type: string; team?: string; id?: string; to?: string; status?: string; reason?: string; [k: string]: unknown };
}

export interface WatchEngine {
  pid: number;
  events: WatchEvent[];
  /** The delivery statuses announced for one message, in order. */
  deliveries(id: string): WatchEvent[];
  waitForDelivery(id: string, status: string, timeoutMs: number): Promise<WatchEvent>;
  alive(): boolean;
  stderr(): string;
  /** SIGTERM (the watch's own Ctrl-C path), SIGKILL after a few seconds; resolves with how it ended. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `teamdeck watch --json` as a child: resolves once it serves its engine socket (it prints
 * "watching …" on stderr after that, and `<state>/engine-socket.json` names the socket).
 */
export async function startWatch(opts: { teamsDir: string; stateDir: string; home: string; env?: NodeJS.ProcessEnv }): Promise<WatchEngine> {
  const args = [TEAMDECK_BIN, 'watch', '--json', '--teams-dir', opts.teamsDir, '--state-dir', opts.stateDir];
  const child: ChildProcess = spawn(process.execPath, args, { cwd: REPO, env: { ...cliEnv(opts.home), ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const events: WatchEvent[] = [];
  let err = '';
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve((exited = { code, signal }))),
  );
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      events.push({ at: Date.now(), event: JSON.parse(line) });
    } catch {
      // not an event line
    }
  });
  const stop = async () => {
    if (exited) return exited;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    try {
      return await exit;
    } finally {
      clearTimeout(timer);
    }
  };
  try {
    await waitFor(() => exited !== undefined || (/^watching /m.test(err) && existsSync(join(opts.stateDir, 'engine-socket.json'))), {
      what: 'teamdeck watch to serve its engine socket',
      timeoutMs: 60_000,
      intervalMs: 20,
    });
    if (exited) throw new Error(`teamdeck watch exited at start (${exited.code ?? exited.signal}): ${err.trim()}`);
  } catch (e) {
    await stop();
    throw e;
  }
  const deliveries = (id: string) => events.filter((e) => e.event.type === 'delivery' && e.event.id === id);
  return {
    pid: child.pid!,
    events,
    deliveries,
    waitForDelivery: (id, status, timeoutMs) =>
      waitFor(() => deliveries(id).find((e) => e.event.status === status), {
        what: `teamdeck watch to announce ${id} ${status} (so far: ${deliveries(id).map((e) => e.event.status).join(' > ') || 'nothing'})`,
        timeoutMs,
      }),
    alive: () => exited === undefined,
    stderr: () => err,
    stop,
  };
}

export interface LockHolder {
  /** The lock directory (`<inbox>.json.lock`). */
  path: string;
  pid: number;
  /** Removes the lock directory if it is still there (never makes anything) and ends the holder. */
  release(): Promise<void>;
}

/**
 * Another process holds a member's inbox lock exactly as Claude's proper-lockfile does: it
 * makes the `<inbox>.json.lock` directory with a plain mkdir (never recursive: a vanished team
 * folder is not made again) and refreshes its mtime every 2 s, so the lock never goes stale
 * (stale is 10 s). Writers following the protocol give up after about 0.65 s with ELOCKED.
 */
export async function holdInboxLock(inboxPath: string): Promise<LockHolder> {
  const path = `${inboxPath}.lock`;
  const script = [
    "const fs = require('node:fs');",
    'const p = process.argv[1];',
    'fs.mkdirSync(p);',
    "process.stdout.write('held\\n');",
    'const t = setInterval(() => { try { const n = new Date(); fs.utimesSync(p, n, n); } catch {} }, 2000);',
    'const release = () => { clearInterval(t); try { fs.rmdirSync(p); } catch {} process.exit(0); };',
    "process.on('SIGTERM', release);",
    "process.stdin.on('end', release);",
    'process.stdin.resume();',
  ].join('\n');
  const child = spawn(process.execPath, ['-e', script, path], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  let code: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    child.on('exit', (c) => {
      code = c;
      resolve();
    }),
  );
  await waitFor(() => out.includes('held') || code !== undefined, { what: `a process to hold ${path}`, timeoutMs: 10_000, intervalMs: 5 });
  if (!out.includes('held')) throw new Error(`could not take the inbox lock ${path}: ${err.trim()}`);
  return {
    path,
    pid: child.pid!,
    release: async () => {
      if (code !== undefined) return;
      child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exit;
      clearTimeout(timer);
    },
  };
}

/** The inbox file's current text, or undefined when it is not there. */
export function readInbox(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
