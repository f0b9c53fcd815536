// What a host answers, as plain data for the renderer's tests: a team summary, a snapshot, a
// roster entry, a message. Each builder fills the fields a test does not care about.
import type { Snapshot } from '../../../shared/contract';
import type { RosterEntry, TeamSummary, ThreadMessage } from '../../../shared/types';
import { DEFAULT_SETTINGS } from '../state/deck-state';

/** A running legacy team (sent as `user`); `over` makes it current, ended, hosted... */
export function team(id: string, over: Partial<TeamSummary> = {}): TeamSummary {
  return { id, name: id, memberCount: 1, problems: [], era: 'legacy', state: 'running', sendAs: 'user', leadReadsInbox: true, ...over };
}

/** A current-era session team, written as `teamdeck`. */
export function currentTeam(id: string, over: Partial<TeamSummary> = {}): TeamSummary {
  return team(id, { era: 'current', sendAs: 'teamdeck', ...over });
}

export function snapshot(over: Partial<Snapshot> = {}): Snapshot {
  return {
    teamsRoot: '/home/me/.claude/teams',
    rootSource: 'default',
    alsoLooked: [],
    watching: true,
    teams: [],
    problems: [],
    settings: DEFAULT_SETTINGS,
    queuedCount: 0,
    now: Date.now(),
    canStartDemo: true,
    terminals: [],
    launch: { available: true, backend: 'tmux' },
    ...over,
  };
}

export function member(name: string, over: Partial<RosterEntry> = {}): RosterEntry {
  return { name, inboxName: name, isLead: name === 'team-lead', inConfig: true, state: 'active', ...over };
}

let seq = 0;

/** A message `from` -> `to` at `time` (ms); its id is new unless given. */
export function message(team: string, from: string, to: string, text: string, time: number, over: Partial<ThreadMessage> = {}): ThreadMessage {
  return { id: `m-${++seq}`, team, from, to, text, timestamp: new Date(time).toISOString(), time, read: false, ...over };
}
