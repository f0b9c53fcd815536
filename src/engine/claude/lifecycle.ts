// Is a team still running? Current Claude deletes a team's folder when its lead exits cleanly
// (renamed `<dir>.deleted-<uuid>`, then removed) and leaves everything behind when the lead is
// killed, with a dead `leadProcess.pid` in config.json (docs/claude-contract.md#lifecycle). Legacy
// teams outlive their lead: only a missing folder ends them.
import { readFileSync, readlinkSync } from 'node:fs';
import type { TeamEra } from '../../shared/types.js';
import type { LeadProcess, TeamConfig } from './config.js';

/** Folders Claude is deleting: `<dir>.deleted-<uuid>`. Never a team. */
export const DELETED_TEAM_FOLDER = /\.deleted-[0-9a-f-]+$/i;

export const ENDED_FOLDER_GONE = 'the lead exited and Claude removed the team folder';

/** Linux: a process's state letter (field 3) and start time (field 22) from /proc/<pid>/stat. */
function procStat(pid: number): { state: string; start: string | undefined } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 is the command in parentheses and may hold spaces: count from the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0] ?? '', start: rest[19] };
  } catch {
    return undefined;
  }
}

/** Linux: field 22 of /proc/<pid>/stat (start time in clock ticks since boot), as Claude records it. */
export function procStartOf(pid: number): string | undefined {
  return procStat(pid)?.start;
}

let pidSpaceOfThisProcess: { ns: string | undefined } | undefined;

/** This process's pid namespace, read once (a process does not change namespace). */
function ownPidSpace(): string | undefined {
  if (!pidSpaceOfThisProcess) {
    let ns: string | undefined;
    try {
      ns = readlinkSync('/proc/self/ns/pid');
    } catch {
      ns = undefined;
    }
    pidSpaceOfThisProcess = { ns };
  }
  return pidSpaceOfThisProcess.ns;
}

/**
 * Whether the lead's process still runs: true, false, or undefined when this machine cannot
 * tell (another pid namespace, a platform without signals to probe). `startToo` (default):
 * a running pid counts only if it started when the lead did; without it, one signal probe.
 */
export function leadProcessAlive(lp: LeadProcess, startToo = true): boolean | undefined {
  // `pidSpace` is like "vm#pid:[4026531836]": a pid from another namespace means nothing here.
  if (lp.pidSpace) {
    const mine = ownPidSpace();
    const theirs = /pid:\[\d+\]/.exec(lp.pidSpace)?.[0];
    if (mine && theirs && mine !== theirs) return undefined;
  }
  try {
    process.kill(lp.pid, 0);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ESRCH') return false;
    if (code !== 'EPERM') return undefined;
  }
  // A killed lead stays a zombie until its parent reaps it (seen for 30 s under a busy tmux
  // server): the signal probe finds it, yet it is gone. Read from /proc, where there is one.
  const st = procStat(lp.pid);
  if (st && (st.state === 'Z' || st.state === 'X')) return false;
  // The pid runs; it is the lead only if it started when the lead did (pids are reused).
  if (startToo && lp.procStart !== undefined && st?.start !== undefined && st.start !== lp.procStart) return false;
  return true;
}

export type TeamLiveness = { state: 'running' } | { state: 'ended'; reason: string };

/**
 * The state of a team whose folder is present: current-era teams end when their lead's process
 * is gone (Claude leaves the folder after a SIGKILL); legacy teams run as long as the folder is.
 * `startToo`: as for leadProcessAlive (a reused pid is told apart only with it).
 */
export function judgeLiveness(era: TeamEra, config: TeamConfig | undefined, startToo = true): TeamLiveness {
  if (era !== 'current' || !config?.leadProcess) return { state: 'running' };
  if (leadProcessAlive(config.leadProcess, startToo) === false) {
    return { state: 'ended', reason: `the lead's process (pid ${config.leadProcess.pid}) is gone; Claude left the team folder behind` };
  }
  return { state: 'running' };
}
