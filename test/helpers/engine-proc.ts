// Spawning the engine test helpers as real processes (through tsx) and talking to them in
// JSON lines, plus the small shared bits the engine tests need (a seeded random, polling).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join, resolve } from 'node:path';

export const REPO = resolve(import.meta.dirname, '..', '..');
export const HELPERS = join(REPO, 'test', 'helpers');

export interface Proc {
  proc: ChildProcess;
  pid: number;
  /** Every stdout line so far, parsed when it is JSON (raw string otherwise). */
  lines: unknown[];
  /** Resolves with the first line (seen so far or later) that matches; rejects on exit or timeout. */
  waitFor<T = unknown>(match: (line: unknown) => boolean, timeoutMs?: number): Promise<T>;
  /** Sends a command and resolves with the first matching line printed after it. */
  ask<T = unknown>(line: unknown, match: (line: unknown) => boolean, timeoutMs?: number): Promise<T>;
  /** Writes one line (objects are sent as JSON). */
  send(line: unknown): void;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
  kill(signal?: NodeJS.Signals): void;
}

/**
 * Runs `node --import tsx <helper> ...args`, optionally behind a command prefix (for example
 * one that drops privileges).
 */
export function spawnHelper(helper: string, args: string[] = [], prefix: string[] = []): Proc {
  const argv = [...prefix, process.execPath, '--import', 'tsx', join(HELPERS, helper), ...args];
  const proc = spawn(argv[0]!, argv.slice(1), { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  proc.stderr!.setEncoding('utf8');
  proc.stderr!.on('data', (d: string) => (err += d));
  proc.stdin!.on('error', () => {}); // the child may be killed while we write
  const lines: unknown[] = [];
  const waiters = new Set<{ match: (l: unknown) => boolean; resolve: (l: unknown) => void }>();
  const send = (line: unknown) => {
    if (proc.stdin!.writable) proc.stdin!.write((typeof line === 'string' ? line : JSON.stringify(line)) + '\n');
  };
  createInterface({ input: proc.stdout! }).on('line', (raw) => {
    let v: unknown = raw;
    try {
      v = JSON.parse(raw);
    } catch {
      // plain text line
    }
    lines.push(v);
    for (const w of [...waiters]) {
      if (w.match(v)) {
        waiters.delete(w);
        w.resolve(v);
      }
    }
  });
  let stdoutClosed: () => void;
  const closed = new Promise<void>((r) => (stdoutClosed = r));
  proc.stdout!.on('close', () => stdoutClosed());
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
    proc.on('exit', (code, signal) => {
      // Resolve only once stdout has been read to its end, so `lines` is complete.
      void closed.then(() => res({ code, signal }));
    }),
  );
  return {
    proc,
    pid: proc.pid ?? -1,
    lines,
    exited,
    stderr: () => err,
    kill: (signal = 'SIGKILL') => {
      proc.kill(signal);
    },
    send,
    ask: <T>(line: unknown, match: (l: unknown) => boolean, timeoutMs = 30_000) => {
      const from = lines.length;
      send(line);
      return waitFor<T>(match, timeoutMs, from);
    },
    waitFor: (match, timeoutMs) => waitFor(match, timeoutMs),
  };
  function waitFor<T>(match: (l: unknown) => boolean, timeoutMs = 30_000, from = 0): Promise<T> {
    const seen = lines.slice(from).find(match);
    if (seen !== undefined) return Promise.resolve(seen as T);
    return new Promise<T>((resolveP, reject) => {
      const w = {
        match,
        resolve: (l: unknown) => {
          clearTimeout(timer);
          resolveP(l as T);
        },
      };
      const timer = setTimeout(() => {
        waiters.delete(w);
        reject(new Error(`${helper}: no matching line within ${timeoutMs} ms; stderr: ${err}`));
      }, timeoutMs);
      waiters.add(w);
      void exited.then(({ code, signal }) => {
        if (!waiters.has(w)) return;
        waiters.delete(w);
        clearTimeout(timer);
        reject(new Error(`${helper} exited (${code ?? signal}) before the expected line; stderr: ${err}`));
      });
    });
  }
}

/** A JSON-lines stdout object with `key`, for waitFor. */
export const has =
  (key: string) =>
  (l: unknown): boolean =>
    typeof l === 'object' && l !== null && key in l;

/** The simulator's seeded PRNG (mulberry32), so a failing run can be replayed from its printed seed. */
export { mulberry32 as rng } from '../../src/sim/prng.js';

export async function until(cond: () => boolean | Promise<boolean>, ms = 15_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`${what} not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** True when `cmd args` runs and exits 0 (used to decide, at load time, what a test can do). */
export function runs(cmd: string, args: string[]): boolean {
  try {
    return spawnSync(cmd, args, { stdio: 'ignore', timeout: 15_000 }).status === 0;
  } catch {
    return false;
  }
}
