// The periodic work and the explicit refresh. The engine ticks every `rescanMs` (2 s): each tick
// does only what no file can tell (is each lead's process still there: a signal probe per team)
// and what the clock changes (the needs-you queue), and looks again for folders to watch that
// were not there. Every 15th tick (30 s), or at once when a watcher reports trouble, the safety net
// runs: it re-reads what the watchers may have missed, only inboxes whose size or mtime changed
// since they were read (a refresh reads all of them), and a config.json that changed since it was read.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { teamPaths } from '../claude/paths.js';
import { listInboxOwners } from '../claude/team-reader.js';
import { forEachConcurrently } from '../files/concurrently.js';
import type { InboxIngest } from '../ingest/inbox-ingest.js';
import type { TeamDirectory } from '../teams/team-directory.js';
import { fileSignature } from '../files/file-signature.js';

/** Ticks between two safety-net passes while the watchers report no trouble. */
export const SAFETY_NET_TICKS = 15;

/** Counts ticks and says when the safety net is due: every `every` ticks, or at once after trouble. */
export class SafetyNetClock {
  private ticks = 0;

  constructor(private readonly every: number = SAFETY_NET_TICKS) {}

  /** Called once per tick; `troubled`: a watcher may have missed something since the last tick. */
  due(troubled: boolean): boolean {
    this.ticks += 1;
    if (!troubled && this.ticks < this.every) return false;
    this.ticks = 0;
    return true;
  }
}

/**
 * A current-era team whose lead's process is gone ended: looked at on every tick, since no file
 * says so (a signal probe per lead); whether a live pid is still the lead's or was reused by
 * another program (its start time in /proc), on the safety net's passes (`startToo`).
 */
export function checkLeads(dir: TeamDirectory, startToo: boolean): void {
  for (const rt of dir.teams.values()) dir.checkLiveness(rt, true, startToo);
}

/** Schedules a re-read of every running team's inboxes that changed (all of them with `all`), and of a config changed since read. */
export async function scheduleInboxReads(teamsRoot: string, dir: TeamDirectory, inboxes: InboxIngest, schedule: (key: string) => void, all: boolean): Promise<void> {
  const running = [...dir.teams.values()].filter((rt) => !rt.ended);
  if (all) {
    for (const rt of running) {
      await dir.readConfig(rt, true);
      for (const owner of await listInboxOwners(teamPaths(teamsRoot, rt.id).inboxes)) schedule(`i\u0000${rt.id}\u0000${owner}`);
    }
    return;
  }
  // Stats only: a few teams at a time, each team's inboxes together.
  await forEachConcurrently(running, async (rt) => {
    // A config.json rewrite the watch missed (the lead's claim adds `leadProcess`) would stay
    // unread until the engine restarts, and a killed lead's team would then never end.
    if ((await fileSignature(teamPaths(teamsRoot, rt.id).config)) !== rt.configLooks) schedule(`c\u0000${rt.id}`);
    const folder = teamPaths(teamsRoot, rt.id).inboxes;
    await Promise.all(
      (await listInboxOwners(folder)).map(async (owner) => {
        const seen = inboxes.seenOf(rt, owner);
        try {
          const st = await stat(join(folder, `${owner}.json`));
          if (!seen || seen.size !== st.size || seen.mtimeMs !== st.mtimeMs) schedule(`i\u0000${rt.id}\u0000${owner}`);
        } catch {
          // gone between listing and stat
        }
      }),
    );
  });
}
