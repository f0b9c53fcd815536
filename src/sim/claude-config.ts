// config.json of a current-era team, the way Claude Code 2.1.332 writes it
// (docs/claude-contract.md#config, #lifecycle): created with mkdir + a plain write, no lock;
// updated under the lock dir `config.json.lock` by rewriting the file in place (so readers can
// catch it torn).
import { mkdir, open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { claudeLock } from './claude-inbox.js';
import { claudeSidePaths, sessionTeamName } from './claude-paths.js';
import { DEFAULT_MODEL } from './transcript.js';
import { leadProcessOf } from './lead-session.js';
import { isReservedName } from './provenance.js';

export const LEAD_NAME = 'team-lead';

/** Claude hands teammates colours from this list, in this order. */
export const MEMBER_COLORS = ['blue', 'green', 'yellow', 'purple', 'orange', 'pink', 'cyan', 'red'] as const;

export interface TeammateSpec {
  name: string;
  agentType?: string;
  model?: string;
  color?: string;
  planModeRequired?: boolean;
  joinedAt?: number;
}

type Config = Record<string, unknown>;

export function configMembers(config: Config | undefined): Record<string, unknown>[] {
  const list = Array.isArray(config?.members) ? (config.members as unknown[]) : [];
  return list.filter((m): m is Record<string, unknown> => !!m && typeof m === 'object' && !Array.isArray(m));
}

export function leadEntry(team: string, joinedAt: number, cwd: string): Record<string, unknown> {
  return {
    agentId: `${LEAD_NAME}@${team}`,
    name: LEAD_NAME,
    agentType: 'team-lead',
    joinedAt,
    tmuxPaneId: 'leader',
    cwd,
    subscriptions: [],
    backendType: 'in-process',
  };
}

/** An in-process teammate's entry, keys in the order 2.1.332 writes them. */
export function teammateEntry(team: string, spec: TeammateSpec, color: string, joinedAt: number, cwd: string): Record<string, unknown> {
  return {
    agentId: `${spec.name}@${team}`,
    name: spec.name,
    color,
    joinedAt,
    tmuxPaneId: 'in-process',
    subscriptions: [],
    agentType: spec.agentType ?? 'general-purpose',
    model: spec.model ?? DEFAULT_MODEL,
    planModeRequired: spec.planModeRequired ?? false,
    cwd,
    backendType: 'in-process',
  };
}

/** Claude refuses these teammate names (any case), and agent- or session-id shapes. */
export function refusedTeammateName(name: string): string | undefined {
  if (name.trim() === '') return 'a teammate needs a name';
  if (isReservedName(name) || name.trim().toLowerCase() === 'main') return `"${name}" is reserved by Claude Code`;
  if (/^a[\w-]*-[0-9a-f]{16}$/.test(name) || /^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i.test(name)) return `"${name}" looks like an agent or session id`;
  return undefined;
}

/** The name Claude gives a requested one: `@` becomes `-`, a taken name gets `-2`, `-3`… */
export function teammateName(requested: string, taken: ReadonlySet<string>): string {
  const base = requested.replace(/@/g, '-');
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

export interface CreatedSessionTeam {
  id: string;
  dir: string;
  configPath: string;
  sessionId: string;
  config: Config;
}

/** A new interactive lead's team: config.json with the lead alone, and its empty task list folder. */
export async function createSessionTeamConfig(o: { teamsDir: string; sessionId: string; cwd: string; createdAt: number; pid: number }): Promise<CreatedSessionTeam> {
  const name = sessionTeamName(o.sessionId);
  const dir = join(o.teamsDir, name);
  await mkdir(o.teamsDir, { recursive: true });
  try {
    await mkdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new Error(`a team folder ${name} already exists in ${o.teamsDir}`);
    throw e;
  }
  const config: Config = {
    name,
    createdAt: o.createdAt,
    leadAgentId: `${LEAD_NAME}@${name}`,
    leadSessionId: o.sessionId,
    leadProcess: leadProcessOf(o.pid, o.createdAt),
    members: [leadEntry(name, o.createdAt, o.cwd)],
  };
  const configPath = join(dir, 'config.json');
  await writeFile(configPath, JSON.stringify(config, null, 2));
  await mkdir(claudeSidePaths(o.teamsDir).tasksDir(name), { recursive: true });
  return { id: name, dir, configPath, sessionId: o.sessionId, config };
}

export async function readConfig(configPath: string): Promise<Config | undefined> {
  try {
    const v: unknown = JSON.parse(await readFile(configPath, 'utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Config) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Claude's update: take `config.json.lock`, re-read, change, then write over the same file
 * (`r+`, write, truncate): never a temp file and rename. Resolves undefined, writing nothing,
 * when the team is gone; `change` returning false skips the write.
 */
export async function updateConfigInPlace(configPath: string, change: (config: Config) => boolean | void): Promise<Config | undefined> {
  let release: () => Promise<void>;
  try {
    release = await claudeLock(configPath);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  try {
    let text: string;
    try {
      text = await readFile(configPath, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
    const config = JSON.parse(text) as Config;
    if (change(config) === false) return config;
    const bytes = Buffer.from(JSON.stringify(config, null, 2));
    const fh = await open(configPath, 'r+');
    try {
      await fh.write(bytes, 0, bytes.length, 0);
      await fh.truncate(bytes.length);
    } finally {
      await fh.close();
    }
    return config;
  } finally {
    // As Claude's lockfile: a lock that cannot be removed goes stale and is taken over.
    await release().catch(() => undefined);
  }
}

/** Adds teammates as the lead's spawns do; returns the names they were given. */
export async function spawnIntoConfig(configPath: string, specs: TeammateSpec[], o: { now: () => number; cwd: string }): Promise<string[]> {
  for (const s of specs) {
    const why = refusedTeammateName(s.name);
    if (why) throw new Error(`cannot spawn teammate: ${why}`);
  }
  const names: string[] = [];
  const done = await updateConfigInPlace(configPath, (config) => {
    const list = configMembers(config);
    const team = typeof config.name === 'string' ? config.name : '';
    for (const spec of specs) {
      const taken = new Set(list.map((m) => String(m.name)));
      const name = teammateName(spec.name, taken);
      const index = list.filter((m) => m.name !== LEAD_NAME).length;
      const color = spec.color ?? MEMBER_COLORS[index % MEMBER_COLORS.length]!;
      list.push(teammateEntry(team, { ...spec, name }, color, spec.joinedAt ?? o.now(), o.cwd));
      names.push(name);
    }
    config.members = list;
  });
  if (!done) throw new Error('cannot spawn teammates: the team is gone');
  return names;
}

/** A member leaving the team (approved shutdown, kill): gone from config, history elsewhere. */
export async function removeFromConfig(configPath: string, name: string): Promise<boolean> {
  let removed = false;
  await updateConfigInPlace(configPath, (config) => {
    const list = configMembers(config);
    const next = list.filter((m) => m.name !== name);
    if (next.length === list.length) return false;
    config.members = next;
    removed = true;
  });
  return removed;
}

/** A lead (re)claiming its team rewrites leadProcess. */
export async function reclaimLead(configPath: string, pid: number, at: number): Promise<Config | undefined> {
  return updateConfigInPlace(configPath, (config) => {
    config.leadProcess = leadProcessOf(pid, at);
  });
}
