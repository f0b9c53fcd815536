// The host's word applied to the state: a snapshot (the first, a reconnect's or a new root's), the
// browser host's start-up data, and every pushed event, each routed to the module of its concern.
import type { AppEvent, Snapshot } from '../../../shared/contract';
import { firstTeam, type HostBoot } from '../../../shared/host-boot';
import type { TeamProblem, TeamSummary } from '../../../shared/types';
import { teamCache, withTeam, type DeckState, type View } from './deck-state';
import { applyActivity, applyTimelineItems } from './live-state';
import { needsNewestFirst } from './live-merge';
import { applyDelivery, applyIncomingMessage, applyRecordGrew } from './messages-state';
import { applyRoster } from './roster-state';
import { applyTeamUsage } from './usage-state';
import { applyTerminals, resolvePendingLaunch } from './terminal-state';

/** Keeps the selection while its team is listed (ended ones too); else the first running team, else the newest ended. */
function pickTeam(teams: readonly TeamSummary[], current: string | undefined): string | undefined {
  if (current && teams.some((t) => t.id === current)) return current;
  // The browser host reads this same team's roster into the page it serves (host-boot.ts).
  return firstTeam(teams);
}

export function applySnapshot(s: DeckState, snap: Snapshot, localNow: number): DeckState {
  const rootChanged = s.phase === 'ready' && s.teamsRoot !== snap.teamsRoot;
  const base = rootChanged
    ? { ...s, byTeam: {}, memberByTeam: {}, feedFilter: {}, selectedTeam: undefined, view: 'thread' as View, focus: undefined, needs: [], needsLoaded: undefined, channels: {} }
    : s;
  const next: DeckState = {
    ...base,
    phase: 'ready',
    loadError: undefined,
    generation: s.phase === 'ready' ? s.generation + 1 : s.generation,
    teamsRoot: snap.teamsRoot,
    rootSource: snap.rootSource,
    alsoLooked: snap.alsoLooked,
    watching: snap.watching,
    canStartDemo: snap.canStartDemo,
    settings: snap.settings,
    teams: snap.teams,
    problems: snap.problems,
    queuedCount: snap.queuedCount,
    clockOffset: snap.now - localNow,
    now: snap.now,
    selectedTeam: pickTeam(snap.teams, base.selectedTeam),
    // An older host sends neither: no terminals, and no launching.
    launch: snap.launch ?? { available: false, reason: 'this Teamdeck host cannot launch teams' },
  };
  // The terminals live outside the teams root: a new root keeps them.
  return applyTerminals(next, snap.terminals ?? []);
}

/**
 * The browser host's start-up data (src/shared/host-boot.ts) applied: its snapshot, then the
 * roster it carries. The store's first start does this; so does the host's first screen
 * (first-screen.tsx), which must show what the window's first render will.
 */
export function applyBoot(s: DeckState, boot: Pick<HostBoot, 'snapshot' | 'roster'>, localNow: number): DeckState {
  const x = applySnapshot(s, boot.snapshot, localNow);
  return boot.roster ? applyRoster(x, boot.roster.team, boot.roster.entries, x.generation) : x;
}

function upsertProblem(list: readonly TeamProblem[], p: TeamProblem): TeamProblem[] {
  const i = list.findIndex((x) => x.kind === p.kind && x.file === p.file);
  if (i < 0) return [...list, p];
  const copy = list.slice();
  copy[i] = p;
  return copy;
}

/** Applies one event pushed by the host. */
export function applyEvent(s: DeckState, ev: AppEvent, localNow: number): DeckState {
  switch (ev.type) {
    case 'snapshot':
      return applySnapshot(s, ev.snapshot, localNow);
    case 'teams':
      return resolvePendingLaunch({ ...s, teams: ev.teams, selectedTeam: pickTeam(ev.teams, s.selectedTeam) });
    case 'terminals':
      return applyTerminals(s, ev.terminals);
    case 'message':
      return applyIncomingMessage(s, ev.team, ev.message);
    case 'delivery':
      return applyDelivery(s, ev.team, ev.id, ev.status, ev.reason);
    case 'roster':
      return applyRoster(s, ev.team, ev.roster);
    case 'problem':
      return { ...s, problems: upsertProblem(s.problems, ev.problem) };
    case 'queued-count':
      return { ...s, queuedCount: ev.count };
    case 'activity':
      return applyActivity(s, ev.team, ev.activity);
    case 'timeline':
      return applyTimelineItems(s, ev.team, ev.member, ev.items);
    case 'tasks':
      return withTeam(s, ev.team, { ...teamCache(s, ev.team), tasks: ev.board, tasksError: undefined });
    case 'needs':
      return { ...s, needs: needsNewestFirst(ev.needs) };
    case 'open-need':
      return { ...s, openNeed: { id: ev.need, seq: (s.openNeed?.seq ?? 0) + 1 } };
    case 'usage':
      return applyTeamUsage(s, ev.team, ev.usage);
    case 'record':
      return applyRecordGrew(s, ev.team);
    default:
      return s;
  }
}
