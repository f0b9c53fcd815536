// Opens the engine for one CLI command. When another process (the app, `teamdeck serve`,
// `teamdeck watch`) owns the state dir, the command talks to that engine over its socket
// instead, so `send` works beside the app and the read commands see its history. When no
// engine answers there, commands that only look (teams, roster, thread, tail) fall back to a
// throwaway state dir and say so, because then they see what the inbox files hold now, not
// Teamdeck's history.
import { mkdir, mkdtemp, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { StateDirBusyError, TeamNotFoundError } from '../engine/errors.js';
import type { TeamServiceApi, TeamServiceOptions } from '../engine/service/service-types.js';
import { findEngineFor } from '../engine/socket/registry.js';
import { resolveStateDir, resolveTeamsRoot, teamDirName } from '../engine/claude/paths.js';
import type { TeamSummary } from '../shared/types.js';
import type { Common } from './args.js';
import type { Io } from './io.js';

export interface OpenedService {
  service: TeamServiceApi;
  teamsRoot: string;
  rootSource: string;
  /** Set when the real state dir was busy and a throwaway one is in use. */
  fallback?: string;
  /** Set when the service is another process's engine, reached over its socket. */
  remote?: { pid: number | undefined };
  /** Aborted when that engine goes away while the command runs. */
  lost?: AbortSignal;
  close(): Promise<void>;
}

export interface OpenOptions {
  watch: boolean;
  /** Read-only commands may use a throwaway state dir when the real one is busy. */
  readOnly: boolean;
  /** The command must own the state dir itself (`watch`): never through another engine. */
  owner?: boolean;
  /** Host lead terminals when this command runs the engine itself (`launch`, `watch`). */
  terminals?: boolean;
  /** A teams root given explicitly may not exist yet (`launch` and `watch`: Claude makes it). */
  rootMayBeMissing?: boolean;
}

/** The terminal host for an engine this process runs: tmux or a pty, `claude` from the settings. */
export async function terminalHostFor(stateDir: string): Promise<TeamServiceOptions['terminalHost']> {
  const [{ createTerminalHost }, { SettingsStore }] = await Promise.all([import('../engine/terminals/host.js'), import('../engine/service/settings.js')]);
  const settings = await SettingsStore.open(stateDir);
  return (o) => createTerminalHost({ stateDir, claudePath: () => settings.get().claudePath, ...o });
}

/**
 * How long a command keeps trying when the state dir is busy and no engine answers on its
 * socket: the owner may be another one-shot command about to finish, or an engine still starting.
 */
const BUSY_RETRY_MS = 1_000;

export async function openService(common: Common, io: Io, opts: OpenOptions): Promise<OpenedService> {
  const { root, source } = resolveTeamsRoot({ teamsDir: common.teamsDir });
  const stateDir = resolveStateDir({ stateDir: common.stateDir });
  if (isExplicit(source) && !opts.rootMayBeMissing) await mustBeFolder(root, source);
  // The engine already serving this teams folder, whatever state dir it was given: a second
  // engine on the same files would keep a history of its own and show another's sends as a stranger's.
  const noted = await findEngineFor(root);
  if (noted && resolve(noted.stateDir) !== stateDir && noted.pid !== process.pid) {
    if (opts.owner) {
      throw new StateDirBusyError(`${root} is already watched by another Teamdeck (pid ${noted.pid}, state dir ${noted.stateDir}); stop it first, or use that engine`);
    }
    const remote = await openRemote(noted.stateDir, root, source, opts);
    if (remote.opened) return remote.opened;
  }
  // Loaded on demand: `--help`, `sim` and `demo` start faster without the engine's dependencies.
  const { TeamService } = await import('../engine/service/team-service.js');
  // The journal holds every message: where Teamdeck makes the folder, only its user may enter.
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  const deadline = Date.now() + BUSY_RETRY_MS;
  const terminalHost = opts.terminals ? await terminalHostFor(stateDir) : undefined;
  let busy: StateDirBusyError;
  for (;;) {
    const service = new TeamService({ teamsRoot: root, stateDir, watch: opts.watch, ...(terminalHost ? { terminalHost } : {}) });
    try {
      await service.start();
      return { service, teamsRoot: root, rootSource: source, close: () => service.stop() };
    } catch (e) {
      if (!(e instanceof StateDirBusyError)) throw e;
      busy = e;
    }
    if (opts.owner) throw busy;
    const remote = await openRemote(stateDir, root, source, opts);
    if (remote.opened) return remote.opened;
    if (remote.final || Date.now() >= deadline) {
      busy = new StateDirBusyError(`${busy.message}; ${remote.reason}`);
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!opts.readOnly) throw busy;
  const scratch = await mkdtemp(join(tmpdir(), 'teamdeck-view-'));
  const view = new TeamService({ teamsRoot: root, stateDir: scratch, watch: opts.watch });
  try {
    await view.start();
  } catch (e2) {
    await rm(scratch, { recursive: true, force: true });
    throw e2;
  }
  io.err(`note: ${busy.message}`);
  io.err('note: showing what the inbox files hold now, without Teamdeck\'s history or delivery states');
  return {
    service: view,
    teamsRoot: root,
    rootSource: source,
    fallback: busy.message,
    close: async () => {
      await view.stop();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

type RemoteAttempt = { opened: OpenedService; reason?: undefined; final?: undefined } | { opened?: undefined; reason: string; final: boolean };

/**
 * The owner's engine over its socket. A teams root given explicitly (--teams-dir,
 * TEAMDECK_TEAMS_DIR) must be the one that engine watches; a default one follows the engine,
 * whose root may come from the app's settings.
 */
async function openRemote(stateDir: string, root: string, source: string, opts: OpenOptions): Promise<RemoteAttempt> {
  const { EngineSocketClient, EngineUnavailableError } = await import('../engine/socket/client.js');
  const client = new EngineSocketClient({ stateDir, events: opts.watch });
  try {
    await client.start();
  } catch (e) {
    if (!(e instanceof EngineUnavailableError)) throw e;
    return { reason: `no engine answered on its socket: ${e.message}`, final: false };
  }
  const explicit = isExplicit(source);
  if (explicit && !(await samePath(client.teamsRoot, root))) {
    await client.stop();
    return { reason: `its engine (pid ${client.ownerPid}) watches ${client.teamsRoot}, not ${root}`, final: true };
  }
  return {
    opened: {
      service: client,
      teamsRoot: client.teamsRoot,
      rootSource: explicit ? source : `as the running engine, pid ${client.ownerPid}`,
      remote: { pid: client.ownerPid },
      lost: client.lost,
      close: () => client.stop(),
    },
  };
}

function isExplicit(source: string): boolean {
  return source === '--teams-dir' || source === 'TEAMDECK_TEAMS_DIR';
}

/** A teams root the user named must be there: otherwise every command would only say "no team". */
async function mustBeFolder(root: string, source: string): Promise<void> {
  const st = await stat(root).catch((e: NodeJS.ErrnoException) => e);
  if (st instanceof Error) {
    const why = st.code === 'ENOENT' ? 'does not exist' : `cannot be read (${st.code ?? st.message})`;
    throw new TeamNotFoundError(`the teams folder ${root} (${source}) ${why}`);
  }
  if (!st.isDirectory()) throw new TeamNotFoundError(`the teams folder ${root} (${source}) is not a folder`);
}

async function samePath(a: string, b: string): Promise<boolean> {
  if (a === b) return true;
  const [ra, rb] = await Promise.all([realpath(a).catch(() => a), realpath(b).catch(() => b)]);
  return ra === rb;
}

/** The team a user typed: its folder name, its config name, or a name Claude would turn into its folder (else exit 2). */
export async function findTeam(service: TeamServiceApi, arg: string): Promise<TeamSummary> {
  const teams = await service.listTeams();
  const hit =
    teams.find((t) => t.id === arg) ?? teams.find((t) => t.name === arg) ?? teams.find((t) => t.id === teamDirName(arg));
  if (!hit) {
    const known = teams.map((t) => t.id).join(', ');
    throw new TeamNotFoundError(`no team ${JSON.stringify(arg)} in ${service.teamsRoot}${known ? ` (teams: ${known})` : ''}`);
  }
  return hit;
}

/** Runs a read-only command's work on the team it names, with the engine open, closing it after. */
export async function withTeam<T>(common: Common, io: Io, teamArg: string, work: (s: OpenedService, team: TeamSummary) => Promise<T>): Promise<T> {
  const s = await openService(common, io, { watch: false, readOnly: true });
  try {
    return await work(s, await findTeam(s.service, teamArg));
  } finally {
    await s.close();
  }
}
