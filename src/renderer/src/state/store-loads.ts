// What the screen needs, loaded once per generation: the open team's roster, feed, activity and
// tasks, the open member's thread or timeline, and the needs of every team. A later snapshot (a
// reconnect, a new root) starts a new generation, so each is fetched again when next shown.
import { applyActivityError, applyActivityLoaded, applyNeedsError, applyNeedsLoaded, applyTasksError, applyTasksLoaded, applyTimelineError, applyTimelineLoaded, requestTimeline } from './live-state';
import { applyFeedError, applyFeedLoaded, applyThreadError, applyThreadLoaded } from './messages-state';
import { applyRoster, applyRosterError } from './roster-state';
import { call, type StoreKit } from './store-kit';
import { applyUsageError, applyUsageLoaded } from './usage-state';

export interface StoreLoads {
  thread(team: string, member: string): void;
  feed(team: string): void;
  roster(team: string): void;
  activity(team: string): void;
  timeline(team: string, member: string): void;
  tasks(team: string): void;
  needs(): void;
  /** Every team's usage (the team's figures, the days across teams), once per generation unless `again`. */
  usage(again?: boolean): void;
  /** Loads whatever the current selection needs and is not loaded yet. */
  openSelection(): void;
}

export function createStoreLoads({ api, get, update, once }: StoreKit): StoreLoads {
  const thread = (team: string, member: string) => {
    const s = get();
    const gen = s.generation;
    if (s.byTeam[team]?.threadLoaded[member] === gen) return;
    // The feed loaded in this generation holds every message of the team, and events keep it
    // current: the thread is already here, and fetching thousands of messages again would only
    // hold up its first paint.
    if (s.byTeam[team]?.feedLoaded === gen) {
      update((x) => applyThreadLoaded(x, team, member, [], gen));
      return;
    }
    const seq = s.byTeam[team]?.recordSeq ?? 0;
    void once(`thread:${gen}:${team}/${member}`, async () => {
      const r = await call(() => api.getThread(team, member));
      update((x) => (r.ok ? applyThreadLoaded(x, team, member, r.value, gen, seq) : applyThreadError(x, team, member, r.error.message)));
    }).then(() => againIfStale(team, seq));
  };

  const feed = (team: string) => {
    const s = get();
    const gen = s.generation;
    if (s.byTeam[team]?.feedLoaded === gen) return;
    const seq = s.byTeam[team]?.recordSeq ?? 0;
    void once(`feed:${gen}:${team}`, async () => {
      const r = await call(() => api.getFeed(team));
      update((x) => (r.ok ? applyFeedLoaded(x, team, r.value, gen, seq) : applyFeedError(x, team, r.error.message)));
    }).then(() => againIfStale(team, seq));
  };

  /**
   * One load of a feed or thread at a time: when the host read more of the team's history while
   * it ran (a `record` event), the answer was merged but not counted whole, and what the screen
   * shows is loaded once more after it, not once per event.
   */
  const againIfStale = (team: string, seq: number) => {
    if ((get().byTeam[team]?.recordSeq ?? 0) !== seq) openSelection();
  };

  const roster = (team: string) => {
    const s = get();
    const gen = s.generation;
    if (s.byTeam[team]?.rosterLoaded === gen) return;
    void once(`roster:${gen}:${team}`, async () => {
      const r = await call(() => api.getRoster(team));
      update((x) => (r.ok ? applyRoster(x, team, r.value, gen) : applyRosterError(x, team, r.error.message)));
      openSelection();
    });
  };

  const activity = (team: string) => {
    const s = get();
    const gen = s.generation;
    if (s.byTeam[team]?.activityLoaded === gen) return;
    void once(`activity:${gen}:${team}`, async () => {
      const r = await call(() => api.getActivity(team));
      update((x) => (r.ok ? applyActivityLoaded(x, team, r.value, gen) : applyActivityError(x, team, r.error.message)));
    });
  };

  const timeline = (team: string, member: string) => {
    const s = get();
    const gen = s.generation;
    if (s.byTeam[team]?.timelines[member]?.loaded === gen) return;
    // Keep this member's timeline events from now on, so none is lost while the load runs.
    update((x) => requestTimeline(x, team, member, gen));
    void once(`timeline:${gen}:${team}/${member}`, async () => {
      const r = await call(() => api.getTimeline(team, member));
      update((x) => (r.ok ? applyTimelineLoaded(x, team, member, r.value, gen) : applyTimelineError(x, team, member, r.error.message)));
    });
  };

  const tasks = (team: string) => {
    const s = get();
    const gen = s.generation;
    if (s.byTeam[team]?.tasksLoaded === gen) return;
    void once(`tasks:${gen}:${team}`, async () => {
      const r = await call(() => api.getTasks(team));
      update((x) => (r.ok ? applyTasksLoaded(x, team, r.value, gen) : applyTasksError(x, team, r.error.message)));
    });
  };

  const needs = () => {
    const s = get();
    const gen = s.generation;
    if (s.phase !== 'ready' || s.needsLoaded === gen) return;
    void once(`needs:${gen}`, async () => {
      const r = await call(() => api.getNeeds());
      update((x) => (r.ok ? applyNeedsLoaded(x, r.value, gen) : applyNeedsError(x, r.error.message)));
    });
  };

  const usage = (again = false) => {
    const s = get();
    const gen = s.generation;
    if (s.phase !== 'ready' || (!again && s.usage.loaded === gen)) return;
    void once(`usage:${gen}:${again}`, async () => {
      const r = await call(() => api.getUsage({}));
      update((x) => (r.ok ? applyUsageLoaded(x, r.value, gen) : applyUsageError(x, r.error.message)));
    });
  };

  const openSelection = () => {
    // Needs span every team: loaded once per generation, then kept current by events.
    needs();
    const s = get();
    const team = s.selectedTeam;
    if (!team) return;
    roster(team);
    // The feed also gives unread counts for members whose threads are not open yet.
    feed(team);
    activity(team);
    // Small, and its open count shows on the Tasks button.
    tasks(team);
    // Each member's spend shows in the roster.
    usage();
    const member = s.memberByTeam[team];
    if (member && s.view === 'thread') {
      if (s.pane === 'activity') timeline(team, member);
      else thread(team, member);
    }
  };

  return { thread, feed, roster, activity, timeline, tasks, needs, usage, openSelection };
}
