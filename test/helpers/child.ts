// Runs a TypeScript helper as a real, separate Node process (through tsx), so locking and
// concurrency tests cross a process boundary exactly as Claude Code and Teamdeck do.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach } from 'vitest';
import { REPO_ROOT } from './tmp.js';

export interface TsChild {
  proc: ChildProcess;
  /** Resolves with the first stdout line matching `pattern` (rejects if the process exits first). */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Writes one line to the child's stdin. */
  send(line: string): void;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  stderr(): string;
}

export function spawnTs(file: string, args: string[] = []): TsChild {
  const proc = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  proc.stderr!.setEncoding('utf8');
  proc.stderr!.on('data', (d: string) => (err += d));
  const lines: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (l: string) => void }> = [];
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const w of [...waiters]) {
      if (w.pattern.test(line)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return {
    proc,
    exited,
    stderr: () => err,
    send: (line) => {
      proc.stdin!.write(line + '\n');
    },
    waitForLine: (pattern, timeoutMs = 30_000) => {
      const seen = lines.find((l) => pattern.test(l));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; stderr: ${err}`)), timeoutMs);
        const done = (l: string) => {
          clearTimeout(timer);
          resolve(l);
        };
        waiters.push({ pattern, resolve: done });
        void exited.then((code) => {
          clearTimeout(timer);
          reject(new Error(`process exited (${code}) before printing ${pattern}; stderr: ${err}`));
        });
      });
    },
  };
}

/**
 * spawnTs for the tests of one describe block: every child it started is killed, if still
 * running, and waited for after each test.
 */
export function childrenPerTest(): (file: string, args?: string[]) => TsChild {
  const children: TsChild[] = [];
  afterEach(async () => {
    for (const c of children.splice(0)) {
      if (c.proc.exitCode === null) c.proc.kill();
      await c.exited;
    }
  });
  return (file, args = []) => {
    const c = spawnTs(file, args);
    children.push(c);
    return c;
  };
}
