// How pushed activity, timeline items and needs combine with what was loaded. Pure list-level
// functions; deck-state.ts wires them into the DeckState.
import type { MemberActivity, NeedItem, TimelineItem } from '../../../shared/types';

/**
 * Most items one member's timeline keeps in memory: the host sends at most 2,000 on a load;
 * a long session that keeps streaming drops its oldest rows instead of growing without end.
 */
export const TIMELINE_CAP = 5_000;

function capped(list: TimelineItem[], cap: number): TimelineItem[] {
  return list.length > cap ? list.slice(list.length - cap) : list;
}

/**
 * Items pushed by a `timeline` event: one already known (same id) is updated where it stands,
 * new ones go to the end in the order sent. The host sends them oldest first.
 */
export function mergeTimeline(list: readonly TimelineItem[], incoming: readonly TimelineItem[], cap = TIMELINE_CAP): TimelineItem[] {
  if (incoming.length === 0) return list as TimelineItem[];
  const at = new Map<string, number>();
  list.forEach((it, i) => at.set(it.id, i));
  let out: TimelineItem[] | undefined;
  for (const inc of incoming) {
    const i = at.get(inc.id);
    if (i !== undefined) {
      const cur = (out ?? list)[i]!;
      if (sameItem(cur, inc)) continue;
      out ??= list.slice();
      out[i] = inc;
    } else {
      out ??= list.slice();
      at.set(inc.id, out.length);
      out.push(inc);
    }
  }
  return out ? capped(out, cap) : (list as TimelineItem[]);
}

/**
 * A loaded timeline replaces what was there, except items pushed while the load was on its way
 * (or since): those not in the load and no older than its last item stay after it, in order.
 */
export function timelineAfterLoad(existing: readonly TimelineItem[], loaded: readonly TimelineItem[], cap = TIMELINE_CAP): TimelineItem[] {
  const ids = new Set<string>();
  for (const it of loaded) ids.add(it.id);
  const lastAt = loaded.length ? loaded[loaded.length - 1]!.at : 0;
  const tail = existing.filter((it) => !ids.has(it.id) && it.at >= lastAt);
  return capped(dedupe(loaded.concat(tail)), cap);
}

function dedupe(list: TimelineItem[]): TimelineItem[] {
  const seen = new Set<string>();
  const out: TimelineItem[] = [];
  for (const it of list) {
    if (seen.has(it.id)) continue;
    seen.add(it.id);
    out.push(it);
  }
  return out;
}

function sameItem(a: TimelineItem, b: TimelineItem): boolean {
  return a.kind === b.kind && a.at === b.at && a.text === b.text && a.tool === b.tool && a.from === b.from && a.isError === b.isError;
}

function sameActivity(a: MemberActivity, b: MemberActivity): boolean {
  return (
    a.kind === b.kind &&
    a.since === b.since &&
    a.waitingFor === b.waitingFor &&
    a.lastText === b.lastText &&
    a.lastTurnEndAt === b.lastTurnEndAt &&
    a.tool?.name === b.tool?.name &&
    a.tool?.summary === b.tool?.summary &&
    a.tool?.since === b.tool?.since &&
    a.sources.join() === b.sources.join()
  );
}

/**
 * A team's activity, replaced wholesale by each event, keyed by member. An entry that did not
 * change keeps its identity, so only the rows of members whose activity changed re-render.
 */
export function activityByMember(prev: Readonly<Record<string, MemberActivity>> | undefined, list: readonly MemberActivity[]): Record<string, MemberActivity> {
  const out: Record<string, MemberActivity> = {};
  for (const a of list) {
    const old = prev?.[a.member];
    out[a.member] = old && sameActivity(old, a) ? old : a;
  }
  return out;
}

/** Needs, newest first (the host's order when it sends them so; kept stable for equal times). */
export function needsNewestFirst(list: readonly NeedItem[]): NeedItem[] {
  const seen = new Set<string>();
  const out: NeedItem[] = [];
  for (const n of list) {
    if (seen.has(n.id)) continue;
    seen.add(n.id);
    out.push(n);
  }
  return out.sort((a, b) => b.since - a.since);
}
