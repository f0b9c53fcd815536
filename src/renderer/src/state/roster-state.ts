// A team's members in the state: the roster the host loaded or pushed, the member a team opens
// on, and presence moved forward by each message between roster events.
import { isShutdownApproval } from '../../../shared/frame-text';
import { isFromUser, USER } from '../../../shared/threads';
import type { RosterEntry, ThreadMessage } from '../../../shared/types';
import { teamCache, withTeam, type DeckState } from './deck-state';

/** Moves a member's last event forward (or marks it terminated) as its messages arrive, between roster events. */
export function bumpPresence(roster: RosterEntry[] | undefined, m: ThreadMessage): RosterEntry[] | undefined {
  if (!roster || isFromUser(m)) return roster;
  const terminated = isShutdownApproval(m.frame);
  const i = roster.findIndex((r) => r.name === m.from);
  if (i < 0) {
    // Someone the roster has not heard of yet: show them now; the next roster event fills in the rest.
    const entry: RosterEntry = {
      name: m.from,
      inboxName: m.from,
      isLead: false,
      inConfig: false,
      state: terminated ? 'terminated' : 'active',
      ...(m.time ? { lastEventAt: m.time } : {}),
    };
    return [...roster, entry];
  }
  const cur = roster[i]!;
  const last = m.time && (cur.lastEventAt === undefined || m.time > cur.lastEventAt) ? m.time : cur.lastEventAt;
  const state = terminated ? 'terminated' : cur.state;
  if (last === cur.lastEventAt && state === cur.state) return roster;
  const copy = roster.slice();
  copy[i] = { ...cur, state, ...(last !== undefined ? { lastEventAt: last } : {}) };
  return copy;
}

/** The lead, else the first member still running, else the first: never the user's own mailbox. */
function defaultMember(roster: readonly RosterEntry[]): string | undefined {
  const visible = roster.filter((r) => r.name !== USER);
  return (visible.find((r) => r.isLead) ?? visible.find((r) => r.state !== 'terminated') ?? visible[0])?.name;
}

export function applyRoster(s: DeckState, team: string, roster: RosterEntry[], gen = s.generation): DeckState {
  const cache = teamCache(s, team);
  const next = withTeam(s, team, { ...cache, roster, rosterError: undefined, rosterLoaded: gen });
  const current = s.memberByTeam[team];
  if (current) return next;
  const chosen = defaultMember(roster);
  return chosen ? { ...next, memberByTeam: { ...next.memberByTeam, [team]: chosen } } : next;
}

export function applyRosterError(s: DeckState, team: string, message: string): DeckState {
  return withTeam(s, team, { ...teamCache(s, team), rosterError: message });
}
