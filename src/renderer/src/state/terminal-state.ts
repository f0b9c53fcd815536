// The hosted lead terminals in the renderer's state, and the channel choice of the compose box,
// as pure functions over DeckState (host-events.ts applies the host's lists through them). A
// terminal shows as the lead's Terminal tab once its team exists, or on its own (view
// `terminal`) while the team has not appeared yet or after it ended.
import type { ChannelKind, ChannelOption, TeamSummary, TerminalInfo } from '../../../shared/types';
import type { ChannelCache, DeckState } from './deck-state';

function sameTerminal(a: TerminalInfo, b: TerminalInfo): boolean {
  const ka = Object.keys(a) as (keyof TerminalInfo)[];
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => a[k] === b[k]);
}

/**
 * The host's new list, keeping the old objects for terminals that did not change (so their rows
 * do not re-render) and the old array when nothing changed at all.
 */
export function mergeTerminals(prev: readonly TerminalInfo[], next: readonly TerminalInfo[]): TerminalInfo[] {
  const byId = new Map(prev.map((t) => [t.id, t]));
  let changed = prev.length !== next.length;
  const out = next.map((t, i) => {
    const old = byId.get(t.id);
    if (old && sameTerminal(old, t)) {
      if (prev[i] !== old) changed = true;
      return old;
    }
    changed = true;
    return t;
  });
  return changed ? out : (prev as TerminalInfo[]);
}

/** For lists: running and starting ones first (newest first), then exited ones (the latest exit first). */
export function sortTerminals(list: readonly TerminalInfo[]): TerminalInfo[] {
  const live = list.filter((t) => t.state !== 'exited').sort((a, b) => b.startedAt - a.startedAt);
  const gone = list.filter((t) => t.state === 'exited').sort((a, b) => (b.exitedAt ?? b.startedAt) - (a.exitedAt ?? a.startedAt));
  return [...live, ...gone];
}

/** The team a terminal's lead made, from either side: the terminal's record or the team's summary. */
export function teamOfTerminal(s: Pick<DeckState, 'teams'>, t: TerminalInfo): TeamSummary | undefined {
  return s.teams.find((x) => x.id === t.team) ?? s.teams.find((x) => x.terminal === t.id);
}

/** The hosted terminal a team's lead runs in, when Teamdeck launched it. */
export function terminalOfTeam(s: Pick<DeckState, 'teams' | 'terminals'>, team: string | undefined): TerminalInfo | undefined {
  if (!team) return undefined;
  const id = s.teams.find((t) => t.id === team)?.terminal;
  return (id ? s.terminals.find((t) => t.id === id) : undefined) ?? s.terminals.find((t) => t.team === team);
}

/** Whether `member` of `team` is its lead (before the roster has loaded, the current era's lead name says so). */
export function isLeadOf(s: Pick<DeckState, 'byTeam'>, team: string, member: string): boolean {
  const roster = s.byTeam[team]?.roster;
  const entry = roster?.find((r) => r.name === member);
  return entry ? entry.isLead : !roster?.some((r) => r.isLead) && member === 'team-lead';
}

/** The lead's name in `team`, as far as the roster says (current teams' lead is always "team-lead"; a roster not loaded yet says no more than that). */
export function leadName(s: Pick<DeckState, 'byTeam'>, team: string): string {
  return s.byTeam[team]?.roster?.find((r) => r.isLead)?.name ?? 'team-lead';
}

/** Thread, Activity, or (the lead of a team with a hosted terminal, when chosen) Terminal. */
export type ShownPane = 'thread' | 'activity' | 'terminal';

export function hasTerminalTab(s: Pick<DeckState, 'teams' | 'terminals' | 'byTeam'>, team: string, member: string): boolean {
  return terminalOfTeam(s, team) !== undefined && isLeadOf(s, team, member);
}

export function shownPane(s: Pick<DeckState, 'teams' | 'terminals' | 'byTeam' | 'pane' | 'leadTerminal'>, team: string, member: string): ShownPane {
  return s.leadTerminal[team] && hasTerminalTab(s, team, member) ? 'terminal' : s.pane;
}

/**
 * A launched terminal whose team now exists: from then on the team opens on its Terminal tab,
 * and if the user is still looking at the terminal on its own, the team opens in its place.
 */
export function resolvePendingLaunch(s: DeckState): DeckState {
  const id = s.pendingLaunch;
  if (!id) return s;
  const t = s.terminals.find((x) => x.id === id);
  const team = t ? teamOfTerminal(s, t) : s.teams.find((x) => x.terminal === id);
  if (!team) return s;
  const next: DeckState = { ...s, pendingLaunch: undefined, leadTerminal: { ...s.leadTerminal, [team.id]: true } };
  if (s.view !== 'terminal' || s.openTerminal !== id) return next;
  return { ...next, selectedTeam: team.id, view: 'thread', openTerminal: undefined, focus: undefined };
}

export function applyTerminals(s: DeckState, list: readonly TerminalInfo[]): DeckState {
  const terminals = mergeTerminals(s.terminals, list);
  return resolvePendingLaunch(terminals === s.terminals ? s : { ...s, terminals });
}

/** A launch the host started: the terminal is listed and shown at once; its team follows. */
export function applyLaunched(s: DeckState, t: TerminalInfo): DeckState {
  const known = s.terminals.some((x) => x.id === t.id);
  const terminals = known ? s.terminals : [...s.terminals, t];
  return resolvePendingLaunch({ ...s, terminals, pendingLaunch: t.id, view: 'terminal', openTerminal: t.id });
}

/** Shows a terminal on its own (one without a team yet, or whose team ended). */
export function showTerminal(s: DeckState, id: string): DeckState {
  if (s.view === 'terminal' && s.openTerminal === id) return s;
  return { ...s, view: 'terminal', openTerminal: id, focus: undefined };
}

/** The lead's Terminal tab chosen (or left) for this team; remembered per team. */
export function setLeadTerminal(s: DeckState, team: string, on: boolean): DeckState {
  if (!!s.leadTerminal[team] === on && s.view === 'thread') return s;
  return { ...s, view: 'thread', leadTerminal: { ...s.leadTerminal, [team]: on } };
}

/** Opens a team's lead on its Terminal tab (the needs queue's "Open terminal"). */
export function openTeamTerminal(s: DeckState, team: string): DeckState {
  const lead = leadName(s, team);
  return {
    ...s,
    selectedTeam: team,
    view: 'thread',
    focus: undefined,
    memberByTeam: { ...s.memberByTeam, [team]: lead },
    leadTerminal: { ...s.leadTerminal, [team]: true },
  };
}

/** A closed terminal leaves the list; if it was shown on its own, the team view comes back. */
export function removeTerminal(s: DeckState, id: string): DeckState {
  const terminals = s.terminals.filter((t) => t.id !== id);
  const shown = s.view === 'terminal' && s.openTerminal === id;
  return {
    ...s,
    terminals,
    ...(shown ? { view: 'thread' as const, openTerminal: undefined } : {}),
    ...(s.pendingLaunch === id ? { pendingLaunch: undefined } : {}),
  };
}

// ---------- channels ----------

export function applyChannels(s: DeckState, key: string, inputs: string, r: { options: ChannelOption[] } | { error: string }): DeckState {
  const entry: ChannelCache = 'options' in r ? { options: r.options, inputs } : { ...(s.channels[key]?.options ? { options: s.channels[key].options } : {}), error: r.error, inputs };
  return { ...s, channels: { ...s.channels, [key]: entry } };
}

export function setChannelChoice(s: DeckState, key: string, kind: ChannelKind | undefined): DeckState {
  const { [key]: _old, ...rest } = s.channelChoice;
  return { ...s, channelChoice: kind ? { ...rest, [key]: kind } : rest };
}
