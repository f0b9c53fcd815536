// A team found under the root and not read yet (openInBackground) is listed from its config
// alone, so the window's first list is the whole list before any history is folded; it leaves
// that list once it is read. Apart from team-directory.ts because only a host that reads in the
// background lists teams this way, and nothing here touches a journal.
import type { TeamSummary } from '../../shared/types.js';
import { readTeamConfig } from '../claude/config.js';
import { classifyEra, leadReadsInbox, senderFor } from '../claude/era.js';
import { teamPaths } from '../claude/paths.js';

/** What a team's line in the list shows before its history is read: what its config says. */
export async function unopenedSummary(teamsRoot: string, id: string, senderName: () => string): Promise<TeamSummary> {
  const r = await readTeamConfig(teamPaths(teamsRoot, id).config);
  const config = r.kind === 'ok' ? r.config : undefined;
  const era = classifyEra({ teamId: id, config });
  const s: TeamSummary = {
    id,
    name: config?.name ?? id,
    memberCount: config?.members.length ?? 0,
    problems: [],
    era,
    state: 'running',
    sendAs: senderFor(era, senderName()),
    leadReadsInbox: leadReadsInbox(era, config, undefined),
  };
  if (config?.description !== undefined) s.description = config.description;
  if (config?.createdAt !== undefined) s.createdAt = config.createdAt;
  return s;
}
