// A whole simulated team in one process (the `teamdeck sim` and `teamdeck demo` commands use
// this). Current era: a Claude Code 2.1.332 lead (this process) that makes or reclaims its
// session team, spawns the teammates and deletes the team when it stops. Legacy: creates the
// named team if needed and runs every member's poller until stopped.
import type { ConsumeMode } from './claude-inbox.js';
import { claudeConfigDir, type SimEra } from './claude-paths.js';
import { startLead, type SimLead } from './lead.js';
import { randomSeed } from './prng.js';
import { exists } from './fs-exists.js';
import {
  LEAD_NAME,
  addMembers,
  configMemberNames,
  createTeam,
  eraOfConfig,
  eraOfName,
  readSimConfig,
  runMember,
  simTeamPaths,
  type MemberEvent,
  type MemberHandle,
} from './simulator.js';

export const DEFAULT_SIM_MEMBERS = ['researcher', 'implementer', 'tester'] as const;

export interface SimulationOptions {
  teamsDir: string;
  /**
   * Team name or folder name. Legacy: required. Current: an existing `session-<8 hex>` team to
   * reclaim, or the name to create; default: a new session team.
   */
  team?: string;
  /** Default: an existing team's own era; else legacy for a chosen name and current for none (or session-<8 hex>). */
  era?: SimEra;
  /** Members to run; missing ones are added to the config. Default: the config's members, or DEFAULT_SIM_MEMBERS for a new team. */
  members?: string[];
  /** Legacy: also poll the lead's inbox and answer the user from `team-lead`. Current: the lead always runs. */
  lead?: boolean;
  /** Legacy only: current Claude always prunes. */
  mode?: ConsumeMode;
  seed?: number;
  pollMs?: number;
  workMs?: [number, number];
  replyProbability?: number;
  idleOnStart?: boolean;
  now?: () => number;
  onEvent?: (e: MemberEvent) => void;
  // Current era only:
  /** The lead's team-lead.json poll (Claude: 1000 ms). */
  leadPollMs?: number;
  /** The lead's (and so the members') working directory, which names the transcripts' project folder. */
  cwd?: string;
  /** The lead exits cleanly this long after the start. */
  leadExitAfterMs?: number;
  /** New teammates start with a spawn-prompt turn, as Claude's do (default true). */
  spawnPrompts?: boolean;
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
  era: SimEra;
  handles: MemberHandle[];
  /** Current era: the simulated lead (its pid, session, transcript; messages and shutdowns from it). */
  lead?: SimLead;
  /** Current era: where sessions/, projects/ and tasks/ are written (the teams root's parent). */
  configDir?: string;
  /** Legacy: resolves once every member has exited (all shut down, or stop()). Current: once the lead has ended. */
  done: Promise<void>;
  /** Legacy: stops the members. Current: the lead's clean exit, which deletes the team folder. */
  stop(): Promise<void>;
  /** Stops everything and cleans nothing up, as SIGKILL would (legacy: the same as stop()). */
  crash(): Promise<void>;
}


async function resolveEra(opts: SimulationOptions): Promise<SimEra> {
  if (opts.team === undefined) {
    if (opts.era === 'legacy') throw new Error('a legacy-era simulation needs a team name');
    return 'current';
  }
  const config = await readSimConfig(opts.teamsDir, opts.team);
  const own = config ? eraOfConfig(config, opts.team) : eraOfName(opts.team);
  if (opts.era !== undefined && config && opts.era !== own) throw new Error(`team ${opts.team} is a ${own}-era team, not ${opts.era}`);
  if (opts.era === 'current' && own === 'legacy') throw new Error(`current-era teams are named session-<8 hex>, not ${JSON.stringify(opts.team)}`);
  return opts.era ?? own;
}

export async function startSimulation(opts: SimulationOptions): Promise<Simulation> {
  const era = await resolveEra(opts);
  if (era === 'current') return startCurrent(opts);
  return startLegacy({ ...opts, team: opts.team! });
}

async function startCurrent(opts: SimulationOptions): Promise<Simulation> {
  const seed = opts.seed ?? randomSeed();
  const lead = await startLead({
    teamsDir: opts.teamsDir,
    team: opts.team,
    cwd: opts.cwd,
    now: opts.now,
    pollMs: opts.leadPollMs,
    memberPollMs: opts.pollMs,
    workMs: opts.workMs,
    replyProbability: opts.replyProbability,
    seed,
    exitAfterMs: opts.leadExitAfterMs,
    onEvent: opts.onEvent,
  });
  try {
    const inConfig = configMemberNames(await readSimConfig(opts.teamsDir, lead.team));
    const wanted = opts.members ?? (lead.created ? [...DEFAULT_SIM_MEMBERS] : inConfig);
    const fresh = wanted.filter((m) => m !== LEAD_NAME && !inConfig.includes(m));
    lead.adopt(wanted.filter((m) => inConfig.includes(m)));
    const spawned = await lead.spawn(fresh.map((name) => ({ name, prompt: opts.spawnPrompts === false ? false : undefined })));
    const running = [...wanted.filter((m) => inConfig.includes(m)), ...spawned];
    return {
      teamsDir: opts.teamsDir,
      teamId: lead.team,
      teamName: lead.team,
      teamDir: lead.dir,
      created: lead.created,
      added: lead.created ? [] : spawned,
      members: running,
      seed,
      mode: 'prune',
      era: 'current',
      handles: lead.handles,
      lead,
      configDir: claudeConfigDir(opts.teamsDir),
      done: lead.done.then(() => undefined),
      stop: () => lead.exit(),
      crash: () => lead.crash(),
    };
  } catch (e) {
    await lead.exit();
    throw e;
  }
}

async function startLegacy(opts: SimulationOptions & { team: string }): Promise<Simulation> {
  const paths = simTeamPaths(opts.teamsDir, opts.team);
  const seed = opts.seed ?? randomSeed();
  const mode = opts.mode ?? 'prune';
  let created = false;
  let added: string[] = [];
  let members: string[];
  if (!(await exists(paths.configPath))) {
    members = opts.members ?? [...DEFAULT_SIM_MEMBERS];
    await createTeam({ teamsDir: opts.teamsDir, team: opts.team, era: 'legacy', members, now: opts.now, cwd: opts.cwd });
    created = true;
  } else {
    if (opts.members) added = await addMembers(opts.teamsDir, opts.team, opts.members, { now: opts.now });
    members = opts.members ?? configMemberNames(await readSimConfig(opts.teamsDir, opts.team));
  }
  const config = await readSimConfig(opts.teamsDir, opts.team);
  const running = [...(opts.lead ? [LEAD_NAME] : []), ...members.filter((m) => m !== LEAD_NAME)];
  const handles = running.map((name) =>
    runMember({
      era: 'legacy',
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
  const stop = async () => {
    await Promise.all(handles.map((h) => h.stop()));
  };
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
    era: 'legacy',
    handles,
    done,
    stop,
    crash: stop,
  };
}
