// Derived data, memoized on the identity of the arrays they come from, so components can select
// them directly and re-render only when their inputs really changed.
import { endedNewestFirst } from '../../../shared/host-boot';
import { inThread, isFromUser, isToUser, USER } from '../../../shared/threads';
import type { MemberState, NeedItem, RosterEntry, TaskBoard, TaskItem, TeamProblem, TeamSummary, ThreadMessage } from '../../../shared/types';
import { displayState, rosterOrder } from '../lib/presence';
import { arrivalHint, arrivalLabel } from '../lib/provenance';
import { pointInTime } from '../lib/time';
import { memberKey, type DeckState, type TeamCache } from './deck-state';
import { leadName } from './terminal-state';

export const EMPTY_MESSAGES: readonly ThreadMessage[] = Object.freeze([]) as readonly ThreadMessage[];
export const EMPTY_ROSTER: readonly RosterEntry[] = Object.freeze([]) as readonly RosterEntry[];

const threadMemo = new WeakMap<readonly ThreadMessage[], Map<string, ThreadMessage[]>>();

/** The user's thread with `member`, oldest first; the member's protocol events show in it as context. */
export function threadOf(messages: readonly ThreadMessage[], member: string): readonly ThreadMessage[] {
  let perMember = threadMemo.get(messages);
  if (!perMember) threadMemo.set(messages, (perMember = new Map()));
  let out = perMember.get(member);
  if (!out) perMember.set(member, (out = messages.filter((m) => inThread(m, member, { context: true }))));
  return out;
}

const feedMemo = new WeakMap<readonly ThreadMessage[], Map<string, readonly ThreadMessage[]>>();

/** The team feed, optionally narrowed to messages from or to one member. */
export function feedOf(messages: readonly ThreadMessage[], filter: string): readonly ThreadMessage[] {
  if (!filter) return messages;
  let perFilter = feedMemo.get(messages);
  if (!perFilter) feedMemo.set(messages, (perFilter = new Map()));
  let out = perFilter.get(filter);
  const match = filter === USER ? (m: ThreadMessage) => isFromUser(m) || isToUser(m) : (m: ThreadMessage) => m.from === filter || m.to === filter;
  if (!out) perFilter.set(filter, (out = messages.filter(match)));
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

// ---------- running and ended teams ----------

export interface TeamGroups {
  /** In the host's order. */
  running: TeamSummary[];
  /** The most recently ended first. */
  ended: TeamSummary[];
}

const groupsMemo = new WeakMap<readonly TeamSummary[], TeamGroups>();

/** Teams for the switcher: running ones, then ended ones (which stay browsable) below them. */
export function teamGroups(teams: readonly TeamSummary[]): TeamGroups {
  let out = groupsMemo.get(teams);
  if (!out) groupsMemo.set(teams, (out = { running: teams.filter((t) => t.state !== 'ended'), ended: endedNewestFirst(teams) }));
  return out;
}

export function teamOf(s: Pick<DeckState, 'teams'>, team: string | undefined): TeamSummary | undefined {
  return team === undefined ? undefined : s.teams.find((t) => t.id === team);
}

export function isTeamEnded(s: Pick<DeckState, 'teams'>, team: string | undefined): boolean {
  return teamOf(s, team)?.state === 'ended';
}

/** "ended 14:31", "ended yesterday 18:20", or just "ended" when the host did not see when. */
export function endedWhen(team: Pick<TeamSummary, 'endedAt'>, now: number): string {
  const at = team.endedAt ? pointInTime(team.endedAt, now) : '';
  return at ? `ended ${at}` : 'ended';
}

/**
 * The state a member's dot shows. Once its team has ended nobody is left to read anything, so
 * every member shows as gone, whatever its last event says.
 */
export function memberState(
  s: Pick<DeckState, 'teams' | 'now' | 'settings'> & Partial<Pick<DeckState, 'byTeam'>>,
  team: string | undefined,
  entry: (Pick<RosterEntry, 'state' | 'lastEventAt'> & { name?: string }) | undefined,
): MemberState {
  if (isTeamEnded(s, team)) return 'terminated';
  const activity = team && entry?.name !== undefined ? s.byTeam?.[team]?.activity?.[entry.name] : undefined;
  return entry ? displayState(entry, s.now, s.settings.idleMinutes, activity) : 'idle';
}

// ---------- compose ----------

export interface ComposeBlock {
  /** `ended`: the whole team is gone; `terminated`: this member shut down. */
  kind: 'ended' | 'terminated';
  /** Why nothing can be sent, in a sentence or two. */
  text: string;
}

type ComposeInputs = Pick<DeckState, 'teams' | 'byTeam' | 'now' | 'settings'>;

function rosterEntry(s: ComposeInputs, team: string, member: string): RosterEntry | undefined {
  return s.byTeam[team]?.roster?.find((r) => r.name === member);
}

/** Why the compose box to `member` is disabled, or undefined when a message can be sent. */
export function composeBlock(s: ComposeInputs, team: string, member: string): ComposeBlock | undefined {
  const t = teamOf(s, team);
  if (t?.state === 'ended') {
    const at = t.endedAt ? pointInTime(t.endedAt, s.now) : '';
    const reason = t.endedReason?.trim().replace(/[.\s]+$/, '');
    const head = `This team ended${at ? ` ${at}` : ''}${reason ? `: ${reason}` : ''}.`;
    return { kind: 'ended', text: `${head} Its history stays here; nothing can be sent.` };
  }
  if (memberState(s, team, rosterEntry(s, team, member)) === 'terminated') {
    return { kind: 'terminated', text: `${member} approved its shutdown, so nothing reads its inbox any more. The history stays here.` };
  }
  return undefined;
}

export const LEAD_WAITS_NOTE =
  'The lead reads its inbox only while it has teammates of its own; this message will wait until it spawns one.';

/** A caveat to show above a message that can be sent but will not be read soon. */
export function composeNote(s: ComposeInputs, team: string, member: string): string | undefined {
  const t = teamOf(s, team);
  if (!t || t.state === 'ended' || t.era !== 'current' || t.leadReadsInbox) return undefined;
  return rosterEntry(s, team, member)?.isLead ? LEAD_WAITS_NOTE : undefined;
}

export interface Arrival {
  /** "as teamdeck, a teammate message" (current) or "as user" (legacy). */
  label: string;
  /** Which inbox, under which name, and how Claude shows it to the model. */
  hint: string;
}

/** How a message typed to `member` now would arrive; undefined until the team is known. */
export function composeArrival(s: ComposeInputs, team: string, member: string): Arrival | undefined {
  const t = teamOf(s, team);
  if (!t) return undefined;
  const isLead = rosterEntry(s, team, member)?.isLead ?? false;
  return { label: arrivalLabel(t.era, t.sendAs), hint: arrivalHint({ member, sentAs: t.sendAs, isLead, era: t.era }) };
}

// ---------- tasks ----------

export interface TaskColumns {
  pending: TaskItem[];
  in_progress: TaskItem[];
  completed: TaskItem[];
  /** Tasks with a status this build does not know (a newer Claude), shown with pending. */
  other: TaskItem[];
}

const columnsMemo = new WeakMap<TaskBoard, TaskColumns>();

/** The board's columns, each in task-id order (numeric ids as numbers: 2 before 10). */
export function taskColumns(board: TaskBoard): TaskColumns {
  let out = columnsMemo.get(board);
  if (out) return out;
  out = { pending: [], in_progress: [], completed: [], other: [] };
  const sorted = [...board.tasks].sort((a, b) => a.id.localeCompare(b.id, undefined, { numeric: true }));
  for (const t of sorted) {
    const known = t.status === 'pending' || t.status === 'in_progress' || t.status === 'completed';
    (known ? out[t.status] : out.other).push(t);
  }
  columnsMemo.set(board, out);
  return out;
}

/** Tasks not completed yet, for the count on the Tasks button. */
export function openTaskCount(board: TaskBoard | undefined): number {
  return board ? board.tasks.filter((t) => t.status !== 'completed').length : 0;
}

/** The ids a task still waits on: its blockers that are not completed (unknown ids count as open). */
export function openBlockers(task: TaskItem, board: TaskBoard): string[] {
  return task.blockedBy.filter((id) => board.tasks.find((t) => t.id === id)?.status !== 'completed');
}

// ---------- needs ----------

/** Where a need is answered: a member's thread, one message in it, a member still to pick, or the lead's hosted terminal. */
export type NeedTarget =
  | { kind: 'terminal'; team: string; terminal: string }
  | { kind: 'thread'; team: string; member: string }
  | { kind: 'message'; team: string; member: string; id: string }
  | { kind: 'pick'; team: string }
  | { kind: 'usage'; team: string };

export function needTarget(s: Pick<DeckState, 'byTeam'>, n: NeedItem): NeedTarget {
  switch (n.kind) {
    case 'permission':
    case 'held':
      // The prompt waits in the lead's terminal, whoever asked: open it when Teamdeck hosts it.
      if (n.terminal) return { kind: 'terminal', team: n.team, terminal: n.terminal };
      return { kind: 'thread', team: n.team, member: leadName(s, n.team) };
    case 'stuck-queued':
    case 'stuck-taken': {
      const to = n.member ?? s.byTeam[n.team]?.messages.find((m) => m.id === n.messageId)?.to;
      if (n.messageId && to) return { kind: 'message', team: n.team, member: to, id: n.messageId };
      return { kind: 'thread', team: n.team, member: to ?? leadName(s, n.team) };
    }
    case 'orphan-inbox':
      return { kind: 'pick', team: n.team };
    case 'budget':
      return { kind: 'usage', team: n.team };
    default:
      // Idle with mail, plan approvals: the member's thread, at the message concerned when there is one.
      if (n.messageId && n.member) return { kind: 'message', team: n.team, member: n.member, id: n.messageId };
      return { kind: 'thread', team: n.team, member: n.member ?? leadName(s, n.team) };
  }
}

/** The words on a need's button. */
export function needActionLabel(target: NeedTarget): string {
  switch (target.kind) {
    case 'message':
      return 'Show message';
    case 'pick':
      return 'Send to…';
    case 'terminal':
      return 'Open terminal';
    case 'usage':
      return 'Open usage';
    default:
      return `Open ${target.member}`;
  }
}
