// A whole simulated team in one process: creates the team if needed and runs every member's
// poller until stopped (the `teamdeck sim` and `teamdeck demo` commands use this).
import { access } from 'node:fs/promises';
import type { ConsumeMode } from './claude-inbox.js';
import { randomSeed } from './prng.js';
import {
  LEAD_NAME,
  addMembers,
  configMemberNames,
  createTeam,
  readSimConfig,
  runMember,
  simTeamPaths,
  type MemberEvent,
  type MemberHandle,
} from './simulator.js';

export const DEFAULT_SIM_MEMBERS = ['researcher', 'implementer', 'tester'] as const;

export interface SimulationOptions {
  teamsDir: string;
  /** Team name or folder name. */
  team: string;
  /** Members to run; missing ones are added to the config. Default: the config's members, or DEFAULT_SIM_MEMBERS for a new team. */
  members?: string[];
  /** Also poll the lead's inbox and answer the user from `team-lead`. */
  lead?: boolean;
  mode?: ConsumeMode;
  seed?: number;
  pollMs?: number;
  workMs?: [number, number];
  replyProbability?: number;
  idleOnStart?: boolean;
  now?: () => number;
  onEvent?: (e: MemberEvent) => void;
}

export interface Simulation {
  teamsDir: string;
  teamId: string;
  teamName: string;
  teamDir: string;
  /** True when this run wrote a fresh config.json. */
  created: boolean;
  /** Members this run added to an existing config. */
  added: string[];
  members: string[];
  seed: number;
  mode: ConsumeMode;
  handles: MemberHandle[];
  /** Resolves once every member has exited (all shut down, or stop()). */
  done: Promise<void>;
  stop(): Promise<void>;
}

async function exists(p: string): Promise<boolean> {
  try {
    await access(p);
    return true;
  } catch {
    return false;
  }
}

export async function startSimulation(opts: SimulationOptions): Promise<Simulation> {
  const paths = simTeamPaths(opts.teamsDir, opts.team);
  const seed = opts.seed ?? randomSeed();
  const mode = opts.mode ?? 'prune';
  let created = false;
  let added: string[] = [];
  let members: string[];
  if (!(await exists(paths.configPath))) {
    members = opts.members ?? [...DEFAULT_SIM_MEMBERS];
    await createTeam({ teamsDir: opts.teamsDir, team: opts.team, members, now: opts.now });
    created = true;
  } else {
    if (opts.members) added = await addMembers(opts.teamsDir, opts.team, opts.members, { now: opts.now });
    members = opts.members ?? configMemberNames(await readSimConfig(opts.teamsDir, opts.team));
  }
  const config = await readSimConfig(opts.teamsDir, opts.team);
  const running = [...(opts.lead ? [LEAD_NAME] : []), ...members.filter((m) => m !== LEAD_NAME)];
  const handles = running.map((name) =>
    runMember({
      teamsDir: opts.teamsDir,
      team: opts.team,
      name,
      mode,
      seed,
      pollMs: opts.pollMs,
      workMs: opts.workMs,
      replyProbability: opts.replyProbability,
      idleOnStart: opts.idleOnStart,
      now: opts.now,
      onEvent: opts.onEvent,
    }),
  );
  const done = Promise.all(handles.map((h) => h.done)).then(() => undefined);
  return {
    teamsDir: opts.teamsDir,
    teamId: paths.id,
    teamName: typeof config?.name === 'string' ? config.name : opts.team,
    teamDir: paths.dir,
    created,
    added,
    members: running,
    seed,
    mode,
    handles,
    done,
    stop: async () => {
      await Promise.all(handles.map((h) => h.stop()));
    },
  };
}
