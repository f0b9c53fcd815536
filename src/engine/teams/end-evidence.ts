// When a team that ended while no Teamdeck watched it really ended (docs/architecture.md#ended-teams).
// Such an end is only noticed at Teamdeck's first look (its folder gone, or its lead's process),
// maybe hours later, so the time of that look says nothing. What the team's own files say does:
// the latest row of its lead's transcript (Claude writes the lead's last rows as it exits), and
// the latest thing a member was seen doing (a message's own timestamp, a join). The end is the
// latest of these, never later than now; with none of them, the look is all there is.
import { rowTime } from '../claude/transcript-rows.js';
import { readLastRows } from '../claude/transcript-timeline.js';
import { TranscriptWatch } from '../claude/transcripts.js';
import type { Team } from '../team/team.js';

/** How much of the end of the lead's transcript is read for its latest row. */
const LEAD_TAIL_BYTES = 1024 * 1024;

/** The latest row time (ms) in the last bytes of the lead's transcript, or undefined. */
async function leadsLastRowAt(team: Team, configDir: string): Promise<number | undefined> {
  const session = team.config?.leadSessionId ?? team.meta?.leadSessionId;
  if (!session) return undefined;
  const watch = team.transcripts?.leadSessionId === session ? team.transcripts : new TranscriptWatch(configDir, session, team.name);
  const path = await watch.leadTranscript();
  if (!path) return undefined;
  let latest = 0;
  for (const row of (await readLastRows(path, LEAD_TAIL_BYTES)).rows) latest = Math.max(latest, rowTime(row));
  return latest > 0 ? latest : undefined;
}

/** The team's last sign of life (ms) in its own files and history, or undefined when there is none. */
export async function lastSignOfLife(team: Team, configDir: string): Promise<number | undefined> {
  let latest = team.createdAt ?? 0;
  for (const m of team.members) latest = Math.max(latest, team.facts.lastEventOf(m.name) ?? 0);
  // Claude's own timestamps only: when Teamdeck read a message says nothing of the team.
  for (const o of team.history.observed.values()) latest = Math.max(latest, Date.parse(o.timestamp) || 0);
  latest = Math.max(latest, (await leadsLastRowAt(team, configDir).catch(() => undefined)) ?? 0);
  return latest > 0 ? latest : undefined;
}

/** When a team whose end was noticed only now (no Teamdeck watched it end) ended: its last sign of life, never later than `now`. */
export async function unwatchedEndAt(team: Team, configDir: string, now: number): Promise<number> {
  const seen = await lastSignOfLife(team, configDir);
  return seen === undefined ? now : Math.min(seen, now);
}
