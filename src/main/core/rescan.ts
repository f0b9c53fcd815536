// The periodic safety net and the explicit refresh: which inbox files to read again. A rescan
// re-reads only inboxes whose size or mtime changed since they were read; a refresh all of them.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { teamPaths } from './claude/paths.js';
import { listInboxOwners } from './claude/team-reader.js';
import type { TeamDirectory } from './team-directory.js';

/** Schedules a re-read of every running team's inboxes that changed (all of them with `all`). */
export async function scheduleInboxReads(dir: TeamDirectory, schedule: (key: string) => void, all: boolean): Promise<void> {
  for (const rt of dir.teams.values()) {
    if (rt.ended) continue;
    if (all) await dir.loadConfig(rt, true);
    else dir.checkLiveness(rt);
    const inboxes = teamPaths(dir.teamsRoot, rt.id).inboxes;
    for (const owner of await listInboxOwners(inboxes)) {
      if (all) {
        schedule(`i\u0000${rt.id}\u0000${owner}`);
        continue;
      }
      const seen = rt.seen.get(owner);
      try {
        const st = await stat(join(inboxes, `${owner}.json`));
        if (!seen || seen.size !== st.size || seen.mtimeMs !== st.mtimeMs) schedule(`i\u0000${rt.id}\u0000${owner}`);
      } catch {
        // gone between listing and stat
      }
    }
  }
}
