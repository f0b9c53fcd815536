// The real `teamdeck` command in child processes over real temp dirs, for the CLI's tests: the
// path scripts and tests run it by, an environment that cannot point it at the user's own
// folders, a run to its end, `teamdeck watch` started as the engine that owns a state dir, and
// per-test dirs whose processes are stopped before the dirs are removed.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach } from 'vitest';
import { makeTempDir } from './tmp.js';

export const BIN = fileURLToPath(new URL('../../bin/teamdeck.mjs', import.meta.url));

/** The environment without the variables that choose the teams root, state dir and Claude's config dir (and `alsoDrop`). */
export function cliEnv(alsoDrop: string[] = []): NodeJS.ProcessEnv {
  const e = { ...process.env };
  for (const name of ['TEAMDECK_TEAMS_DIR', 'TEAMDECK_STATE_DIR', 'CLAUDE_CONFIG_DIR', ...alsoDrop]) delete e[name];
  return e;
}

export interface Done {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Written to a piped stdin, which is then closed; without it stdin is not open at all. */
  input?: string;
  env?: NodeJS.ProcessEnv;
  /** Node's own flags, before the script. */
  nodeArgs?: string[];
  /** The script run (BIN unless told). */
  bin?: string;
}

/** Runs `node [nodeArgs] <bin> ...args` to its end, with its output. */
export function runCli(args: string[], opts: RunOptions = {}): Promise<Done> {
  return new Promise((resolve, reject) => {
    const piped = opts.input !== undefined;
    const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), opts.bin ?? BIN, ...args], { env: opts.env ?? cliEnv(), stdio: [piped ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (piped) child.stdin!.end(opts.input);
  });
}

export interface Watch {
  child: ChildProcess;
  /** Resolves once it says it is watching (rejects after 45 s). */
  started: Promise<void>;
  /** SIGINT unless it has ended, then resolves once it has closed. */
  stop(): Promise<void>;
}

/** Starts `teamdeck watch --json` over these dirs: the engine that owns the state dir. */
export function spawnWatch(teams: string, state: string): Watch {
  const child = spawn(process.execPath, [BIN, 'watch', '--json', '--teams-dir', teams, '--state-dir', state], { env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const closed = new Promise<void>((r) => child.once('close', () => r()));
  let err = '';
  const started = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`watch did not start: ${err}`)), 45_000);
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      if (err.includes('Ctrl-C to stop')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stdout.resume();
  });
  return {
    child,
    started,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      return closed;
    },
  };
}

export interface CliDirs {
  /** This test's temp dir. */
  dir: string;
  /** `<dir>/teams`, created empty. */
  teams: string;
  /** `<dir>/state`, not created (a test may point it elsewhere). */
  state: string;
  /** Runs the command with `--teams-dir <teams> --state-dir <state>` after `args` (`teams` as told; neither with `dirs: false`). */
  run(args: string[], opts?: RunOptions & { teams?: string; dirs?: boolean }): Promise<Done>;
  /** `spawnWatch` over these dirs, resolved once it is watching; stopped after the test. */
  watch(): Promise<Watch>;
  /** Stops this after the test, before the dirs are removed. */
  stopAfter(p: { stop(): Promise<unknown> }): void;
}

/** Fresh dirs for each test (call at top level or inside a describe), removed after it. */
export function useCliDirs(prefix: string): CliDirs {
  const stops: { stop(): Promise<unknown> }[] = [];
  const kit: CliDirs = {
    dir: '',
    teams: '',
    state: '',
    run: (args, opts = {}) => runCli(opts.dirs === false ? args : [...args, '--teams-dir', opts.teams ?? kit.teams, '--state-dir', kit.state], opts),
    watch: async () => {
      const w = spawnWatch(kit.teams, kit.state);
      stops.push(w);
      await w.started;
      return w;
    },
    stopAfter: (p) => void stops.push(p),
  };
  beforeEach(async () => {
    kit.dir = await makeTempDir(prefix);
    kit.teams = join(kit.dir, 'teams');
    kit.state = join(kit.dir, 'state');
    await mkdir(kit.teams);
  });
  afterEach(async () => {
    await Promise.all(stops.splice(0).map((p) => p.stop()));
    await rm(kit.dir, { recursive: true, force: true });
  });
  return kit;
}
