// Derived data, memoized on the identity of the arrays they come from, so components can select
// them directly and re-render only when their inputs really changed.
import type { RosterEntry, TeamProblem, TeamSummary, ThreadMessage } from '../../../shared/types';
import { rosterOrder } from '../lib/presence';
import { type DeckState, type TeamCache, inThread, memberKey } from './deck-state';

export const EMPTY_MESSAGES: readonly ThreadMessage[] = Object.freeze([]) as readonly ThreadMessage[];
export const EMPTY_ROSTER: readonly RosterEntry[] = Object.freeze([]) as readonly RosterEntry[];

const threadMemo = new WeakMap<readonly ThreadMessage[], Map<string, ThreadMessage[]>>();

/** The user's thread with `member`, oldest first. */
export function threadOf(messages: readonly ThreadMessage[], member: string): readonly ThreadMessage[] {
  let perMember = threadMemo.get(messages);
  if (!perMember) threadMemo.set(messages, (perMember = new Map()));
  let out = perMember.get(member);
  if (!out) perMember.set(member, (out = messages.filter((m) => inThread(m, member))));
  return out;
}

const feedMemo = new WeakMap<readonly ThreadMessage[], Map<string, readonly ThreadMessage[]>>();

/** The team feed, optionally narrowed to messages from or to one member. */
export function feedOf(messages: readonly ThreadMessage[], filter: string): readonly ThreadMessage[] {
  if (!filter) return messages;
  let perFilter = feedMemo.get(messages);
  if (!perFilter) feedMemo.set(messages, (perFilter = new Map()));
  let out = perFilter.get(filter);
  if (!out) perFilter.set(filter, (out = messages.filter((m) => m.from === filter || m.to === filter)));
  return out;
}

const orderMemo = new WeakMap<readonly RosterEntry[], RosterEntry[]>();

export function orderedRoster(roster: readonly RosterEntry[]): readonly RosterEntry[] {
  let out = orderMemo.get(roster);
  if (!out) orderMemo.set(roster, (out = rosterOrder(roster)));
  return out;
}

export function currentTeam(s: DeckState): TeamCache | undefined {
  return s.selectedTeam ? s.byTeam[s.selectedTeam] : undefined;
}

export function currentMember(s: DeckState): string | undefined {
  return s.selectedTeam ? s.memberByTeam[s.selectedTeam] : undefined;
}

export function currentEntry(s: DeckState): RosterEntry | undefined {
  const member = currentMember(s);
  return member ? currentTeam(s)?.roster?.find((r) => r.name === member) : undefined;
}

export function draftOf(s: DeckState, team: string, member: string) {
  return s.drafts[memberKey(team, member)];
}

let problemsMemo: { problems: readonly TeamProblem[]; teams: readonly TeamSummary[]; out: TeamProblem[] } | undefined;

/** Host-wide problems and per-team problems, once each. */
export function allProblems(s: Pick<DeckState, 'problems' | 'teams'>): TeamProblem[] {
  if (problemsMemo && problemsMemo.problems === s.problems && problemsMemo.teams === s.teams) return problemsMemo.out;
  const seen = new Set<string>();
  const out: TeamProblem[] = [];
  for (const p of [...s.problems, ...s.teams.flatMap((t) => t.problems ?? [])]) {
    const k = `${p.kind}:${p.file}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(p);
  }
  problemsMemo = { problems: s.problems, teams: s.teams, out };
  return out;
}

/** Total unread across a team, for the team switcher. */
export function teamUnread(cache: TeamCache | undefined): number {
  if (!cache) return 0;
  let n = 0;
  for (const v of Object.values(cache.unread)) n += v;
  return n;
}
