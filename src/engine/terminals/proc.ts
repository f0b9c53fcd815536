// What the operating system says about a lead's process, read cheaply enough to poll every
// second: whether it still runs, whether its pid now belongs to another process (pid reuse,
// told apart by the start time in /proc/<pid>/stat), and, for a zombie, how it ended.
import { readFile } from 'node:fs/promises';

export type ProcState =
  | { state: 'running'; start?: number }
  | { state: 'gone' }
  /** Ended but not yet reaped by its parent; `exitCode` as a shell would report it. */
  | { state: 'zombie'; exitCode?: number };

const HAS_PROC = process.platform === 'linux';

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces and parens). */
async function statFields(pid: number): Promise<string[] | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** A wait status (as waitpid gives it) as a shell reports it: the exit code, or 128 + signal. */
export function shellStatus(waitStatus: number): number {
  const signal = waitStatus & 0x7f;
  return signal === 0 ? (waitStatus >> 8) & 0xff : 128 + signal;
}

/** The process's start time (clock ticks since boot, stat field 22) on Linux; undefined elsewhere. */
export async function procStart(pid: number): Promise<number | undefined> {
  const f = await statFields(pid);
  // Field 3 (state) is f[0], so field n is f[n - 3].
  const start = f ? Number(f[22 - 3]) : NaN;
  return Number.isFinite(start) ? start : undefined;
}

/**
 * Whether `pid` still is the process that started at `start` (when known). A zombie's exit
 * status is stat field 52 (Linux 3.5+): tmux 3.3a sometimes misses a pane's SIGCHLD, leaving
 * the lead a zombie and its pane without a `pane_dead_status`.
 */
export async function procState(pid: number, start?: number): Promise<ProcState> {
  if (!HAS_PROC) {
    try {
      process.kill(pid, 0);
      return { state: 'running' };
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EPERM' ? { state: 'running' } : { state: 'gone' };
    }
  }
  const f = await statFields(pid);
  if (!f) return { state: 'gone' };
  const began = Number(f[22 - 3]);
  if (start !== undefined && began !== start) return { state: 'gone' };
  if (f[0] === 'Z' || f[0] === 'X') {
    const status = Number(f[52 - 3]);
    return { state: 'zombie', ...(Number.isFinite(status) ? { exitCode: shellStatus(status) } : {}) };
  }
  return { state: 'running', start: began };
}
