// A team's config.json, read into its runtime: the last good config is kept when a read finds
// it half-written (a problem says so), members' join times become presence, and, once the read
// is announced, what follows from it: the era, whether the lead still runs, which transcripts to
// follow, the roster, and what waits for a member that left. Apart from team-directory.ts, which
// decides when a team is read; this is what one read of its config does.
import { readTeamConfig } from '../claude/config.js';
import { classifyEra } from '../claude/era.js';
import { USER_INBOX } from '../claude/team-reader.js';
import { TranscriptWatch } from '../claude/transcripts.js';
import { teamPaths } from '../claude/paths.js';
import type { TeamDirectory } from './team-directory.js';
import { rememberTeam } from './team-ending.js';
import type { TeamRuntime } from '../team/team-runtime.js';
import { fileSignature } from './root-watcher.js';

export async function loadConfig(dir: TeamDirectory, rt: TeamRuntime, announce: boolean): Promise<void> {
  const path = teamPaths(dir.teamsRoot, rt.id).config;
  // Looked at before the read: a write after it differs, and the safety net reads it again.
  rt.configLooks = await fileSignature(path);
  const r = await readTeamConfig(path);
  rt.problems.delete('config');
  if (r.kind === 'ok') {
    rt.config = r.config;
    if (r.config.skippedMembers.length) {
      rt.problems.set('config', { kind: 'config', file: `${rt.id}/config.json`, message: r.config.skippedMembers.join('; ') });
    }
    for (const m of r.config.members) {
      if (m.joinedAt !== undefined) rt.facts.noteEvent(m.name, m.joinedAt);
    }
  } else if (r.kind === 'invalid') {
    // Keep the last good config: a half-written config must not empty the roster.
    rt.problems.set('config', { kind: 'config', file: `${rt.id}/config.json`, message: r.message });
  }
  if (!announce) return;
  rt.era = classifyEra({ teamId: rt.id, config: rt.config, hasUserInbox: dir.ctx.inboxes.owners(rt).includes(USER_INBOX) });
  dir.checkLiveness(rt, false);
  watchTranscripts(dir, rt);
  dir.refreshMembers(rt);
  // A member that left the config never reads again: what waits for it is judged now.
  dir.ctx.delivery.kickAll(rt);
  await rememberTeam(dir, rt);
}

/** Current era: the lead's session (config, else remembered) names the transcripts to follow. */
export function watchTranscripts(dir: TeamDirectory, rt: TeamRuntime): void {
  const session = rt.config?.leadSessionId ?? rt.meta?.leadSessionId;
  if (rt.era !== 'current' || !session || rt.transcripts?.leadSessionId === session) return;
  rt.transcripts = new TranscriptWatch(dir.ctx.configDir, session, rt.config?.name ?? rt.id);
}
