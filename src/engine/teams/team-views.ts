// What the window's team list and roster say of an open team, worked out from the team as it is
// now: each member's state (ACTIVE / IDLE / TERMINATED) and the team's line in the list.
import type { RosterEntry, TeamSummary } from '../../shared/types.js';
import { leadReadsInbox, senderFor } from '../claude/era.js';
import type { Team } from '../team/team.js';
import { memberState } from './presence.js';

export function rosterOf(team: Team, now: number, idleMs: number): RosterEntry[] {
  return team.members.map((m) => {
    const lastEventAt = team.facts.lastEventOf(m.name);
    // A team that ended ended every member with it.
    const terminated = !!team.ended || team.goneReason(m.name) !== undefined;
    const e: RosterEntry = { ...m, state: memberState({ lastEventAt, terminated }, now, idleMs) };
    if (lastEventAt !== undefined) e.lastEventAt = lastEventAt;
    return e;
  });
}

/** The team's line in the list; `senderName`: the name Teamdeck writes on current-era teams. */
export function summaryOf(team: Team, senderName: string): TeamSummary {
  const s: TeamSummary = {
    id: team.id,
    name: team.name,
    memberCount: team.members.length,
    problems: [...team.problems.values()],
    era: team.era,
    state: team.ended ? 'ended' : 'running',
    sendAs: senderFor(team.era, senderName),
    leadReadsInbox: leadReadsInbox(team.era, team.config, team.lead?.name),
  };
  if (team.config?.description !== undefined) s.description = team.config.description;
  if (team.createdAt !== undefined) s.createdAt = team.createdAt;
  if (team.ended) {
    s.endedAt = team.ended.at;
    s.endedReason = team.ended.reason;
  }
  return s;
}
