// A whole simulated team in its own process (`teamdeck sim --json`): in the current era that
// process is the lead, so its pid is leadProcess.pid, it can be ended with SIGTERM (Claude's clean
// exit: the team folder is deleted) or SIGKILL (everything stays), like a real lead.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SimEra } from './claude-paths.js';
import type { MemberEvent } from './simulator.js';

const TEAMDECK = fileURLToPath(new URL('../../bin/teamdeck.mjs', import.meta.url));

export interface SpawnTeamOptions {
  teamsDir: string;
  era?: SimEra;
  team?: string;
  members?: string[];
  seed?: number;
  pollMs?: number;
  workMs?: [number, number];
  replyProbability?: number;
  leadExitAfterMs?: number;
  /** The lead's working directory (names the transcripts' project folder). */
  cwd?: string;
}

/** The `{"kind":"simulating"}` line: era, team, teamDir, members, and in the current era pid, leadSessionId, sessionFile, leadTranscript. */
export type TeamHeader = Record<string, unknown> & { era: SimEra; team: string; teamDir: string; members: string[] };

export interface TeamProcess {
  child: ChildProcess;
  header: Promise<TeamHeader>;
  events: MemberEvent[];
  waitFor(pred: (e: MemberEvent) => boolean, timeoutMs?: number): Promise<MemberEvent>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends the signal (default SIGTERM) if the process still runs, then waits for its end. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

export function spawnTeam(opts: SpawnTeamOptions): TeamProcess {
  const args = [TEAMDECK, 'sim', '--json', '--teams-dir', opts.teamsDir];
  if (opts.era) args.push('--era', opts.era);
  if (opts.team) args.push('--team', opts.team);
  if (opts.members) args.push('--members', opts.members.join(','));
  if (opts.seed !== undefined) args.push('--seed', String(opts.seed));
  if (opts.pollMs !== undefined) args.push('--poll-ms', String(opts.pollMs));
  if (opts.workMs) args.push('--work-ms', `${opts.workMs[0]},${opts.workMs[1]}`);
  if (opts.replyProbability !== undefined) args.push('--reply-probability', String(opts.replyProbability));
  if (opts.leadExitAfterMs !== undefined) args.push('--lead-exit-after', String(opts.leadExitAfterMs));
  const env = { ...process.env };
  delete env.TEAMDECK_TEAMS_DIR;
  delete env.CLAUDE_CONFIG_DIR;
  const child = spawn(process.execPath, args, { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });

  const events: MemberEvent[] = [];
  const waiters: { pred: (e: MemberEvent) => boolean; resolve: (e: MemberEvent) => void }[] = [];
  let errText = '';
  let buffered = '';
  let gotHeader!: (h: TeamHeader) => void;
  let noHeader!: (e: Error) => void;
  const header = new Promise<TeamHeader>((res, rej) => {
    gotHeader = res;
    noHeader = rej;
  });
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      let v: Record<string, unknown>;
      try {
        v = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      if (v.kind === 'simulating') {
        gotHeader(v as TeamHeader);
        continue;
      }
      const e = v as MemberEvent;
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
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => {
      noHeader(new Error(`teamdeck sim exited before its header (stderr: ${errText.trim()})`));
      resolve({ code, signal });
    }),
  );

  return {
    child,
    header,
    events,
    exited,
    stderr: () => errText,
    waitFor(pred, timeoutMs = 20_000) {
      const seen = events.find(pred);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const w = {
          pred,
          resolve: (e: MemberEvent) => {
            clearTimeout(timer);
            resolve(e);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(w), 1);
          reject(new Error(`simulated team: no matching event within ${timeoutMs} ms (stderr: ${errText.trim()})`));
        }, timeoutMs);
        waiters.push(w);
        void exited.then(() => {
          if (waiters.includes(w)) {
            waiters.splice(waiters.indexOf(w), 1);
            clearTimeout(timer);
            reject(new Error(`simulated team exited before the event (stderr: ${errText.trim()})`));
          }
        });
      });
    },
    stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
