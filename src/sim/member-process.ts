// Runs one simulated member as a separate process: a real second writer and reader of the
// team's files, for tests that must not share a process (or a lock table) with the app.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ConsumeMode } from './claude-inbox.js';
import type { SimEra } from './claude-paths.js';
import type { MemberEvent } from './simulator.js';

const RUN_TS = fileURLToPath(new URL('../../bin/run-ts.mjs', import.meta.url));
const MEMBER_MAIN = fileURLToPath(new URL('./member-main.ts', import.meta.url));

export interface SpawnMemberOptions {
  teamsDir: string;
  team: string;
  name: string;
  /** Default: the team's own era. */
  era?: SimEra;
  mode?: ConsumeMode;
  seed?: number;
  pollMs?: number;
  workMs?: [number, number];
  replyProbability?: number;
  idleOnStart?: boolean;
}

export interface MemberProcess {
  child: ChildProcess;
  /** Every event the member has reported so far. */
  events: MemberEvent[];
  /** Resolves with the first event (already seen or future) that matches. */
  waitFor(pred: (e: MemberEvent) => boolean, timeoutMs?: number): Promise<MemberEvent>;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
  stderr(): string;
}

export function spawnMember(opts: SpawnMemberOptions): MemberProcess {
  const args = [RUN_TS, MEMBER_MAIN, '--teams-dir', opts.teamsDir, '--team', opts.team, '--name', opts.name];
  if (opts.era) args.push('--era', opts.era);
  if (opts.mode) args.push('--mode', opts.mode);
  if (opts.seed !== undefined) args.push('--seed', String(opts.seed));
  if (opts.pollMs !== undefined) args.push('--poll-ms', String(opts.pollMs));
  if (opts.workMs) args.push('--work-ms', `${opts.workMs[0]},${opts.workMs[1]}`);
  if (opts.replyProbability !== undefined) args.push('--reply-probability', String(opts.replyProbability));
  if (opts.idleOnStart) args.push('--idle-on-start');
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });

  const events: MemberEvent[] = [];
  const waiters: { pred: (e: MemberEvent) => boolean; resolve: (e: MemberEvent) => void }[] = [];
  let buffered = '';
  let errText = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      let e: MemberEvent;
      try {
        e = JSON.parse(line) as MemberEvent;
      } catch {
        continue;
      }
      events.push(e);
      for (const w of [...waiters]) {
        if (w.pred(e)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(e);
        }
      }
    }
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (errText += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));

  return {
    child,
    events,
    exited,
    stderr: () => errText,
    waitFor(pred, timeoutMs = 15_000) {
      const seen = events.find(pred);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(w), 1);
          reject(new Error(`member ${opts.name}: no matching event within ${timeoutMs} ms (stderr: ${errText.trim()})`));
        }, timeoutMs);
        const w = {
          pred,
          resolve: (e: MemberEvent) => {
            clearTimeout(timer);
            resolve(e);
          },
        };
        waiters.push(w);
        void exited.then(() => {
          if (waiters.includes(w)) {
            waiters.splice(waiters.indexOf(w), 1);
            clearTimeout(timer);
            reject(new Error(`member ${opts.name} exited before the event (stderr: ${errText.trim()})`));
          }
        });
      });
    },
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
