// Builds real team folders in a temp dir, the way Claude Code lays them out.
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempTeams {
  base: string;
  root: string;
  stateDir: string;
  cleanup(): Promise<void>;
}

export async function tempTeams(prefix = 'teamdeck-'): Promise<TempTeams> {
  const base = await mkdtemp(join(tmpdir(), prefix));
  const root = join(base, 'teams');
  const stateDir = join(base, 'state');
  await mkdir(root, { recursive: true });
  return { base, root, stateDir, cleanup: () => rm(base, { recursive: true, force: true }) };
}

export async function writeTeam(
  root: string,
  team: string,
  members: string[],
  opts: { joinedAt?: number; inboxes?: Record<string, unknown[]> } = {},
): Promise<string> {
  const dir = join(root, team);
  await mkdir(join(dir, 'inboxes'), { recursive: true });
  const joinedAt = opts.joinedAt ?? 1_767_000_000_000;
  const config = {
    name: team,
    createdAt: joinedAt,
    leadAgentId: `team-lead@${team}`,
    members: ['team-lead', ...members].map((name, i) => ({
      agentId: `${name}@${team}`,
      name,
      agentType: name === 'team-lead' ? 'team-lead' : 'general-purpose',
      joinedAt: joinedAt + i,
      tmuxPaneId: 'in-process',
      cwd: '/tmp',
      subscriptions: [],
    })),
  };
  await writeFile(join(dir, 'config.json'), JSON.stringify(config, null, 2));
  for (const [owner, entries] of Object.entries(opts.inboxes ?? {})) {
    await writeFile(join(dir, 'inboxes', `${owner}.json`), JSON.stringify(entries, null, 2));
  }
  return dir;
}
