// Opens the engine for one CLI command. Commands that only look (teams, roster, thread, tail)
// still work while the app owns the state dir: they fall back to a throwaway state dir and
// say so, because then they see what the inbox files hold now, not Teamdeck's history.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StateDirBusyError, type TeamServiceApi } from '../main/core/service-types.js';
import { resolveStateDir, resolveTeamsRoot, teamDirName } from '../main/core/claude/paths.js';
import type { TeamSummary } from '../shared/types.js';
import type { Common } from './args.js';
import type { Io } from './io.js';

export interface OpenedService {
  service: TeamServiceApi;
  teamsRoot: string;
  rootSource: string;
  /** Set when the real state dir was busy and a throwaway one is in use. */
  fallback?: string;
  close(): Promise<void>;
}

export interface OpenOptions {
  watch: boolean;
  /** Read-only commands may use a throwaway state dir when the real one is busy. */
  readOnly: boolean;
}

export async function openService(common: Common, io: Io, opts: OpenOptions): Promise<OpenedService> {
  const { root, source } = resolveTeamsRoot({ teamsDir: common.teamsDir });
  const stateDir = resolveStateDir({ stateDir: common.stateDir });
  // Loaded on demand: `--help`, `sim` and `demo` start faster without the engine's dependencies.
  const { TeamService } = await import('../main/core/team-service.js');
  const service = new TeamService({ teamsRoot: root, stateDir, watch: opts.watch });
  try {
    await service.start();
    return { service, teamsRoot: root, rootSource: source, close: () => service.stop() };
  } catch (e) {
    if (!(e instanceof StateDirBusyError) || !opts.readOnly) throw e;
    const scratch = await mkdtemp(join(tmpdir(), 'teamdeck-view-'));
    const view = new TeamService({ teamsRoot: root, stateDir: scratch, watch: opts.watch });
    try {
      await view.start();
    } catch (e2) {
      await rm(scratch, { recursive: true, force: true });
      throw e2;
    }
    io.err(`note: ${e.message}`);
    io.err('note: showing what the inbox files hold now, without Teamdeck\'s history or delivery states');
    return {
      service: view,
      teamsRoot: root,
      rootSource: source,
      fallback: e.message,
      close: async () => {
        await view.stop();
        await rm(scratch, { recursive: true, force: true });
      },
    };
  }
}

/** A team that is not there: exit 2 with this message. */
export class NotFoundError extends Error {
  readonly code = 'not_found';
  constructor(message: string) {
    super(message);
    this.name = 'NotFoundError';
  }
}

/** The team a user typed: its folder name, its config name, or a name Claude would turn into its folder. */
export async function findTeam(service: TeamServiceApi, arg: string): Promise<TeamSummary> {
  const teams = await service.listTeams();
  const hit =
    teams.find((t) => t.id === arg) ?? teams.find((t) => t.name === arg) ?? teams.find((t) => t.id === teamDirName(arg));
  if (!hit) {
    const known = teams.map((t) => t.id).join(', ');
    throw new NotFoundError(`no team ${JSON.stringify(arg)} in ${service.teamsRoot}${known ? ` (teams: ${known})` : ''}`);
  }
  return hit;
}
