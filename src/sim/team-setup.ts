// A simulated team's folder set up the way Claude sets it up, in either era: creating the team
// (legacy: config.json under Claude's lock; current: what a 2.1.332 lead leaves after spawning),
// adding members later, and telling a team's era from its name or its config.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { randomBytes, randomUUID } from 'node:crypto';
import { claudeLock } from './claude-inbox.js';
import { SESSION_TEAM, simTeamPaths, type SimEra } from './claude-paths.js';
import { configMembers, createSessionTeamConfig, LEAD_NAME, leadEntry, MEMBER_COLORS, spawnIntoConfig } from './claude-config.js';
import { SessionFile } from './lead-session.js';

const MODELS = ['sonnet', 'opus', 'haiku'] as const;

export interface SimMemberSpec {
  name: string;
  agentType?: string;
  model?: string;
  color?: string;
  backendType?: 'in-process' | 'tmux';
  /** The spawn prompt; Claude keeps it in the config entry. */
  prompt?: string;
  planModeRequired?: boolean;
  joinedAt?: number;
}

export interface CreateTeamOptions {
  teamsDir: string;
  /**
   * Legacy: the team name; its folder is derived from it as Claude derives it. Current: omit it
   * (the name comes from the session id) or give a `session-<8 hex>` name to pin it.
   */
  team?: string;
  /** Default: the era a team of this name can only be from (a chosen name is legacy; none or `session-<8 hex>` is current). */
  era?: SimEra;
  /** Legacy only; current-era configs have none. */
  description?: string;
  members?: (string | SimMemberSpec)[];
  cwd?: string;
  /** ms since epoch, for createdAt and joinedAt. */
  now?: () => number;
  leadSessionId?: string;
  /** Current: the lead's pid in leadProcess and sessions/<pid>.json (default: this process). */
  pid?: number;
}

export interface SimTeam {
  /** The folder name under the teams root. */
  id: string;
  name: string;
  dir: string;
  configPath: string;
  inboxesDir: string;
  config: Record<string, unknown>;
  era: SimEra;
  leadSessionId: string;
}

/** The era a team of this name can be from, when nothing else says: Claude 2.1.332 only makes `session-<8 hex>` teams. */
export function eraOfName(team: string | undefined): SimEra {
  return team === undefined || SESSION_TEAM.test(team) ? 'current' : 'legacy';
}

/** A team's era from its files (docs/claude-contract.md#eras): leadProcess says current; legacy markers or a chosen name say legacy. */
export function eraOfConfig(config: Record<string, unknown> | undefined, team: string): SimEra {
  if (config?.leadProcess) return 'current';
  if (typeof config?.description === 'string' || configMembers(config).some((m) => typeof m.prompt === 'string')) return 'legacy';
  return eraOfName(typeof config?.name === 'string' ? config.name : team);
}

export async function teamEra(teamsDir: string, team: string): Promise<SimEra> {
  return eraOfConfig(await readSimConfig(teamsDir, team), team);
}

function memberEntry(team: string, spec: SimMemberSpec, index: number, joinedAt: number, cwd: string): Record<string, unknown> {
  const backendType = spec.backendType ?? 'in-process';
  const entry: Record<string, unknown> = {
    agentId: `${spec.name}@${team}`,
    name: spec.name,
    agentType: spec.agentType ?? 'general-purpose',
    model: spec.model ?? MODELS[index % MODELS.length],
  };
  if (spec.prompt !== undefined) entry.prompt = spec.prompt;
  entry.color = spec.color ?? MEMBER_COLORS[index % MEMBER_COLORS.length];
  entry.planModeRequired = spec.planModeRequired ?? false;
  entry.joinedAt = spec.joinedAt ?? joinedAt;
  entry.tmuxPaneId = backendType === 'tmux' ? `%${index + 1}` : 'in-process';
  entry.cwd = cwd;
  entry.subscriptions = [];
  entry.backendType = backendType;
  entry.isActive = true;
  return entry;
}

const toSpec = (m: string | SimMemberSpec): SimMemberSpec => (typeof m === 'string' ? { name: m } : m);

/** Claude rewrites config.json under `config.json.lock` (proper-lockfile), pretty-printed. */
async function withConfigLock<T>(configPath: string, fn: () => Promise<T>): Promise<T> {
  const release = await claudeLock(configPath);
  try {
    return await fn();
  } finally {
    await release();
  }
}

async function writeConfig(configPath: string, config: Record<string, unknown>): Promise<void> {
  const tmp = `${configPath}.tmp.${randomBytes(4).toString('hex')}`;
  await writeFile(tmp, JSON.stringify(config, null, 2));
  await rename(tmp, configPath);
}

export async function readSimConfig(teamsDir: string, team: string): Promise<Record<string, unknown> | undefined> {
  try {
    const v: unknown = JSON.parse(await readFile(simTeamPaths(teamsDir, team).configPath, 'utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes a fresh team. Legacy: config.json with the lead and the members, and an empty
 * inboxes/ folder. Current: what a 2.1.332 lead leaves once it has spawned the members (config
 * created, then members added under the lock; tasks/<team>/; sessions/<pid>.json): a snapshot
 * with no process behind it beyond `pid`. To run a lead, use startLead or startSimulation.
 */
export async function createTeam(opts: CreateTeamOptions): Promise<SimTeam> {
  const era = opts.era ?? eraOfName(opts.team);
  if (era === 'current') return createSessionTeam(opts);
  if (opts.team === undefined) throw new Error('a legacy team needs a name');
  return createLegacyTeam({ ...opts, team: opts.team });
}

async function createSessionTeam(opts: CreateTeamOptions): Promise<SimTeam> {
  const now = opts.now ?? Date.now;
  const sessionId = sessionIdFor(opts.team, opts.leadSessionId);
  const cwd = opts.cwd ?? process.cwd();
  const pid = opts.pid ?? process.pid;
  const createdAt = now();
  const t = await createSessionTeamConfig({ teamsDir: opts.teamsDir, sessionId, cwd, createdAt, pid });
  const specs = (opts.members ?? []).map(toSpec);
  for (const s of specs) {
    if (s.backendType === 'tmux') throw new Error(`${s.name}: the current-era simulator runs in-process teammates only`);
  }
  if (specs.length > 0) await spawnIntoConfig(t.configPath, specs, { now: () => createdAt, cwd });
  const session = new SessionFile({ teamsDir: opts.teamsDir, pid, sessionId, cwd, startedAt: createdAt, now });
  await session.start();
  await session.setStatus('idle');
  const config = (await readSimConfig(opts.teamsDir, t.id)) ?? t.config;
  const p = simTeamPaths(opts.teamsDir, t.id);
  return { id: t.id, name: t.id, dir: t.dir, configPath: t.configPath, inboxesDir: p.inboxesDir, config, era: 'current', leadSessionId: sessionId };
}

/** A session id whose first 8 characters give the team name asked for, or a random one. */
export function sessionIdFor(team: string | undefined, sessionId: string | undefined): string {
  if (team !== undefined && !SESSION_TEAM.test(team)) throw new Error(`current-era teams are named session-<8 hex>, not ${JSON.stringify(team)}`);
  if (sessionId !== undefined) {
    if (team !== undefined && !sessionId.startsWith(team.slice('session-'.length))) throw new Error(`session id ${sessionId} does not make team ${team}`);
    return sessionId;
  }
  const id = randomUUID();
  return team === undefined ? id : team.slice('session-'.length) + id.slice(8);
}

async function createLegacyTeam(opts: CreateTeamOptions & { team: string }): Promise<SimTeam> {
  const now = opts.now ?? Date.now;
  const p = simTeamPaths(opts.teamsDir, opts.team);
  const cwd = opts.cwd ?? process.cwd();
  await mkdir(p.inboxesDir, { recursive: true });
  const createdAt = now();
  const config: Record<string, unknown> = { name: opts.team };
  if (opts.description !== undefined) config.description = opts.description;
  config.createdAt = createdAt;
  config.leadAgentId = `${LEAD_NAME}@${opts.team}`;
  config.leadSessionId = opts.leadSessionId ?? randomUUID();
  config.members = [
    leadEntry(opts.team, createdAt, cwd),
    ...(opts.members ?? []).map(toSpec).map((s, i) => memberEntry(opts.team, s, i, createdAt, cwd)),
  ];
  await withConfigLock(p.configPath, () => writeConfig(p.configPath, config));
  return { id: p.id, name: opts.team, dir: p.dir, configPath: p.configPath, inboxesDir: p.inboxesDir, config, era: 'legacy', leadSessionId: config.leadSessionId as string };
}

/** Adds members missing from an existing config, as Claude does when it spawns a teammate. Returns the names added. */
export async function addMembers(
  teamsDir: string,
  team: string,
  members: (string | SimMemberSpec)[],
  opts: { now?: () => number; cwd?: string } = {},
): Promise<string[]> {
  const p = simTeamPaths(teamsDir, team);
  const current = await readSimConfig(teamsDir, team);
  if (eraOfConfig(current, team) === 'current') {
    // A 2.1.332 lead spawning: in-place update under the lock, names as Claude gives them.
    const have = new Set(configMembers(current).map((m) => m.name));
    const missing = members.map(toSpec).filter((s) => !have.has(s.name));
    if (missing.length === 0) return [];
    return spawnIntoConfig(p.configPath, missing, { now: opts.now ?? Date.now, cwd: opts.cwd ?? process.cwd() });
  }
  return withConfigLock(p.configPath, async () => {
    const config = JSON.parse(await readFile(p.configPath, 'utf8')) as Record<string, unknown>;
    const list = Array.isArray(config.members) ? (config.members as Record<string, unknown>[]) : [];
    const have = new Set(list.map((m) => m?.name));
    const teamName = typeof config.name === 'string' ? config.name : team;
    const added: string[] = [];
    for (const spec of members.map(toSpec)) {
      if (have.has(spec.name)) continue;
      // Colour and model continue the sequence of the members already there (the lead excluded).
      const index = list.filter((m) => m?.name !== LEAD_NAME).length;
      list.push(memberEntry(teamName, spec, index, (opts.now ?? Date.now)(), opts.cwd ?? process.cwd()));
      have.add(spec.name);
      added.push(spec.name);
    }
    if (added.length > 0) {
      config.members = list;
      await writeConfig(p.configPath, config);
    }
    return added;
  });
}

/** Non-lead member names in config order. */
export function configMemberNames(config: Record<string, unknown> | undefined): string[] {
  const list = Array.isArray(config?.members) ? (config.members as unknown[]) : [];
  return list
    .map((m) => (m && typeof m === 'object' ? (m as Record<string, unknown>) : {}))
    .filter((m) => typeof m.name === 'string' && m.name !== LEAD_NAME && m.agentType !== 'team-lead')
    .map((m) => m.name as string);
}
