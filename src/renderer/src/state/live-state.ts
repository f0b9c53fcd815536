// What the members are doing, as the state holds it: activity, the transcripts (timelines) of
// the members whose Activity view was opened, the task board and the needs queue, from loads and
// pushed events. The list-level merging is live-merge.ts.
import type { MemberActivity, NeedItem, TaskBoard, TimelineItem } from '../../../shared/types';
import { teamCache, withTeam, type DeckState, type TimelineCache } from './deck-state';
import { activityByMember, mergeTimeline, needsNewestFirst, timelineAfterLoad } from './live-merge';

/** A team's activity, replaced wholesale (an `activity` event). */
export function applyActivity(s: DeckState, team: string, list: readonly MemberActivity[]): DeckState {
  const cache = teamCache(s, team);
  return withTeam(s, team, { ...cache, activity: activityByMember(cache.activity, list), activityError: undefined });
}

export function applyActivityLoaded(s: DeckState, team: string, list: readonly MemberActivity[], gen = s.generation): DeckState {
  const next = applyActivity(s, team, list);
  return withTeam(next, team, { ...teamCache(next, team), activityLoaded: gen });
}

export function applyActivityError(s: DeckState, team: string, message: string): DeckState {
  return withTeam(s, team, { ...teamCache(s, team), activityError: message });
}

function withTimeline(s: DeckState, team: string, member: string, next: TimelineCache): DeckState {
  const cache = teamCache(s, team);
  return withTeam(s, team, { ...cache, timelines: { ...cache.timelines, [member]: next } });
}

/** From now on this member's `timeline` events are kept, so none is lost while its load is on its way. */
export function requestTimeline(s: DeckState, team: string, member: string, gen = s.generation): DeckState {
  const cur = teamCache(s, team).timelines[member];
  if (cur?.requested === gen) return s;
  return withTimeline(s, team, member, { items: cur?.items ?? [], requested: gen, ...(cur?.loaded !== undefined ? { loaded: cur.loaded } : {}) });
}

/** A `timeline` event: kept only for a member whose transcript was asked for. */
export function applyTimelineItems(s: DeckState, team: string, member: string, items: readonly TimelineItem[]): DeckState {
  const cur = s.byTeam[team]?.timelines[member];
  // Nobody asked for this member's transcript: opening it loads the latest items anyway.
  if (!cur) return s;
  const merged = mergeTimeline(cur.items, items);
  return merged === cur.items ? s : withTimeline(s, team, member, { ...cur, items: merged });
}

export function applyTimelineLoaded(s: DeckState, team: string, member: string, items: readonly TimelineItem[], gen = s.generation): DeckState {
  const cur = teamCache(s, team).timelines[member];
  return withTimeline(s, team, member, { items: timelineAfterLoad(cur?.items ?? [], items), requested: cur?.requested ?? gen, loaded: gen });
}

export function applyTimelineError(s: DeckState, team: string, member: string, message: string): DeckState {
  const cur = teamCache(s, team).timelines[member] ?? { items: [], requested: s.generation };
  return withTimeline(s, team, member, { ...cur, error: message });
}

export function applyTasksLoaded(s: DeckState, team: string, board: TaskBoard, gen = s.generation): DeckState {
  return withTeam(s, team, { ...teamCache(s, team), tasks: board, tasksLoaded: gen, tasksError: undefined });
}

export function applyTasksError(s: DeckState, team: string, message: string): DeckState {
  return withTeam(s, team, { ...teamCache(s, team), tasksError: message });
}

export function applyNeedsLoaded(s: DeckState, needs: readonly NeedItem[], gen = s.generation): DeckState {
  return { ...s, needs: needsNewestFirst(needs), needsLoaded: gen, needsError: undefined };
}

export function applyNeedsError(s: DeckState, message: string): DeckState {
  return { ...s, needsError: message };
}
