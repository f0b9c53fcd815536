// Activity, timelines, tasks and needs: how pushed events and loads combine in the deck state.
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../../shared/contract';
import type { MemberActivity, NeedItem, TaskBoard, TaskItem, TeamSummary, ThreadMessage, TimelineItem } from '../../../shared/types';
import { type DeckState, initialState } from './deck-state';
import { applyEvent, applySnapshot } from './host-events';
import { applyActivityError, applyActivityLoaded, applyNeedsLoaded, applyTasksLoaded, applyTimelineError, applyTimelineLoaded, requestTimeline } from './live-state';
import { applyFeedLoaded } from './messages-state';
import { applyRoster } from './roster-state';
import { clearFocus, FEED_FOCUS, focusFeedMessage, focusMessage, selectMember, setFeedFilter, setPane, showTasks } from './view-state';
import { mergeTimeline, timelineAfterLoad, TIMELINE_CAP } from './live-merge';
import { needActionLabel, needTarget, openBlockers, openTaskCount, taskColumns } from './selectors';

const T0 = Date.UTC(2026, 1, 17, 15, 0, 0);

function team(id: string, over: Partial<TeamSummary> = {}): TeamSummary {
  return { id, name: id, memberCount: 1, problems: [], era: 'current', state: 'running', sendAs: 'teamdeck', leadReadsInbox: true, ...over };
}

function snap(over: Partial<Snapshot> = {}): Snapshot {
  return {
    teamsRoot: '/r',
    rootSource: 'default',
    alsoLooked: [],
    watching: true,
    teams: [team('a'), team('b')],
    problems: [],
    settings: { teamsDir: '', idleMinutes: 5, notifications: true, senderName: 'teamdeck', needsNotifications: true, claudePath: '', answerFromTeamdeck: true },
    queuedCount: 0,
    now: T0,
    canStartDemo: true,
    terminals: [],
    launch: { available: true, backend: 'tmux' },
    ...over,
  };
}

function ready(): DeckState {
  return applySnapshot(initialState({ viewedBaseline: T0, now: 0 }), snap(), T0);
}

const it_ = (id: string, at: number, text = id, kind: TimelineItem['kind'] = 'text'): TimelineItem => ({ id, kind, at, text });
const ids = (list: readonly TimelineItem[] | undefined) => (list ?? []).map((x) => x.id);
const ev = (s: DeckState, e: Parameters<typeof applyEvent>[1]) => applyEvent(s, e, T0);

describe('activity', () => {
  const working: MemberActivity = { member: 'researcher', kind: 'working', tool: { name: 'Bash', summary: 'npm test', since: T0 - 42_000 }, sources: ['transcript'] };
  const idle: MemberActivity = { member: 'tester', kind: 'idle', since: T0 - 60_000, sources: ['transcript'] };

  it('a team’s activity is replaced by each event: a member left out is gone', () => {
    let s = applyActivityLoaded(ready(), 'a', [working, idle]);
    expect(Object.keys(s.byTeam.a!.activity!)).toEqual(['researcher', 'tester']);
    expect(s.byTeam.a!.activityLoaded).toBe(0);
    s = ev(s, { type: 'activity', team: 'a', activity: [{ ...idle, kind: 'working', since: T0 }] });
    expect(Object.keys(s.byTeam.a!.activity!)).toEqual(['tester']);
    expect(s.byTeam.a!.activity!.tester!.kind).toBe('working');
    // Other teams are untouched.
    expect(s.byTeam.b).toBeUndefined();
  });

  it('an unchanged member keeps its object, so only changed rows re-render', () => {
    let s = applyActivityLoaded(ready(), 'a', [working, idle]);
    const before = s.byTeam.a!.activity!;
    s = ev(s, { type: 'activity', team: 'a', activity: [{ ...working, tool: { ...working.tool! } }, { ...idle, since: T0 }] });
    expect(s.byTeam.a!.activity!.researcher).toBe(before.researcher);
    expect(s.byTeam.a!.activity!.tester).not.toBe(before.tester);
  });

  it('a failed load is remembered until an event or a load brings activity', () => {
    let s = applyActivityError(ready(), 'a', 'no transcript folder');
    expect(s.byTeam.a!.activityError).toBe('no transcript folder');
    s = ev(s, { type: 'activity', team: 'a', activity: [idle] });
    expect(s.byTeam.a!.activityError).toBeUndefined();
  });
});

describe('timeline', () => {
  it('merges pushed items: de-duplicated by id, an update in place, new ones in the order sent', () => {
    const list = [it_('r1:0', 1), it_('r2:0', 2)];
    const out = mergeTimeline(list, [it_('r2:0', 2, 'edited'), it_('r3:0', 3), it_('r3:0', 3), it_('r4:0', 4)]);
    expect(ids(out)).toEqual(['r1:0', 'r2:0', 'r3:0', 'r4:0']);
    expect(out[1]!.text).toBe('edited');
    // Nothing new: the same array, so nothing re-renders.
    expect(mergeTimeline(out, [it_('r1:0', 1)])).toBe(out);
  });

  it('keeps at most TIMELINE_CAP items, dropping the oldest', () => {
    const many = Array.from({ length: TIMELINE_CAP }, (_, i) => it_(`r${i}`, i));
    const out = mergeTimeline(many, [it_('new', TIMELINE_CAP)]);
    expect(out).toHaveLength(TIMELINE_CAP);
    expect(out[0]!.id).toBe('r1');
    expect(out.at(-1)!.id).toBe('new');
  });

  it('a load replaces what was there but keeps items pushed while it was on its way', () => {
    const pushed = [it_('r3', 30), it_('r4', 40)];
    const out = timelineAfterLoad(pushed, [it_('r1', 10), it_('r2', 20), it_('r3', 30)]);
    expect(ids(out)).toEqual(['r1', 'r2', 'r3', 'r4']);
    // Items older than the load's newest that it no longer has (beyond its limit) do not come back at the end.
    expect(ids(timelineAfterLoad([it_('old', 5)], [it_('r1', 10)]))).toEqual(['r1']);
  });

  it('keeps events only for members whose timeline was asked for', () => {
    let s = ready();
    s = ev(s, { type: 'timeline', team: 'a', member: 'researcher', items: [it_('x', 1)] });
    expect(s.byTeam.a?.timelines.researcher).toBeUndefined();

    s = requestTimeline(s, 'a', 'researcher');
    // An event before the load answers is kept, and the load does not lose it.
    s = ev(s, { type: 'timeline', team: 'a', member: 'researcher', items: [it_('r3', 30)] });
    s = applyTimelineLoaded(s, 'a', 'researcher', [it_('r1', 10), it_('r2', 20)]);
    expect(ids(s.byTeam.a!.timelines.researcher!.items)).toEqual(['r1', 'r2', 'r3']);
    expect(s.byTeam.a!.timelines.researcher!.loaded).toBe(0);

    s = ev(s, { type: 'timeline', team: 'a', member: 'researcher', items: [it_('r3', 30), it_('r4', 40, 'r4', 'tool-call')] });
    expect(ids(s.byTeam.a!.timelines.researcher!.items)).toEqual(['r1', 'r2', 'r3', 'r4']);
    // Another member's timeline is not touched.
    expect(s.byTeam.a!.timelines.tester).toBeUndefined();
  });

  it('a failed load shows its error and keeps what was there', () => {
    let s = requestTimeline(ready(), 'a', 'researcher');
    s = applyTimelineError(s, 'a', 'researcher', 'transcript unreadable');
    expect(s.byTeam.a!.timelines.researcher).toMatchObject({ items: [], error: 'transcript unreadable' });
  });
});

describe('tasks', () => {
  const task = (id: string, status: TaskItem['status'], extra: Partial<TaskItem> = {}): TaskItem => ({ id, subject: `task ${id}`, status, blocks: [], blockedBy: [], ...extra });
  const board = (tasks: TaskItem[]): TaskBoard => ({ team: 'a', list: 'a', exists: true, tasks, problems: [] });

  it('a board event replaces the team’s board', () => {
    let s = applyTasksLoaded(ready(), 'a', board([task('1', 'pending')]));
    s = ev(s, { type: 'tasks', team: 'a', board: board([task('1', 'completed'), task('2', 'pending')]) });
    expect(s.byTeam.a!.tasks!.tasks.map((t) => `${t.id}:${t.status}`)).toEqual(['1:completed', '2:pending']);
    expect(openTaskCount(s.byTeam.a!.tasks)).toBe(1);
  });

  it('sorts each column by task id as a number, and counts only open blockers', () => {
    const b = board([task('10', 'pending', { blockedBy: ['2', '3'] }), task('2', 'completed'), task('3', 'in_progress'), task('9', 'pending')]);
    const cols = taskColumns(b);
    expect(cols.pending.map((t) => t.id)).toEqual(['9', '10']);
    expect(cols.in_progress.map((t) => t.id)).toEqual(['3']);
    expect(cols.completed.map((t) => t.id)).toEqual(['2']);
    expect(openBlockers(b.tasks[0]!, b)).toEqual(['3']);
    expect(taskColumns(b)).toBe(cols);
  });
});

describe('needs', () => {
  const need = (id: string, since: number, extra: Partial<NeedItem> = {}): NeedItem => ({ id, kind: 'permission', team: 'a', title: id, since, ...extra });

  it('are replaced wholesale by each event, newest first: a dropped need is gone', () => {
    let s = applyNeedsLoaded(ready(), [need('old', T0 - 60_000), need('new', T0 - 1000)]);
    expect(s.needs.map((n) => n.id)).toEqual(['new', 'old']);
    s = ev(s, { type: 'needs', needs: [need('old', T0 - 60_000)] });
    expect(s.needs.map((n) => n.id)).toEqual(['old']);
    s = ev(s, { type: 'needs', needs: [] });
    expect(s.needs).toEqual([]);
  });

  it('a clicked notification asks for its item; asking again for the same one is a new ask', () => {
    let s = applyNeedsLoaded(ready(), [need('p1', T0)]);
    s = ev(s, { type: 'open-need', need: 'p1' });
    const first = s.openNeed;
    expect(first?.id).toBe('p1');
    s = ev(s, { type: 'open-need', need: 'p1' });
    expect(s.openNeed?.id).toBe('p1');
    expect(s.openNeed).not.toBe(first);
    expect(s.needs.map((n) => n.id)).toEqual(['p1']);
  });

  it('a new root forgets the old root’s needs until they load again', () => {
    let s = applyNeedsLoaded(ready(), [need('x', T0)]);
    s = applySnapshot(s, snap({ teamsRoot: '/elsewhere' }), T0);
    expect(s.needs).toEqual([]);
    expect(s.needsLoaded).toBeUndefined();
  });

  it('each need opens where the human acts', () => {
    let s = applyRoster(ready(), 'a', [{ name: 'boss', inboxName: 'boss', isLead: true, inConfig: true, state: 'active' }]);
    const msg: ThreadMessage = { id: 'm1', team: 'a', from: 'user', to: 'researcher', text: 'hi', timestamp: '', time: T0, read: false };
    s = applyFeedLoaded(s, 'a', [msg]);
    expect(needTarget(s, need('p', T0, { member: 'researcher' }))).toEqual({ kind: 'thread', team: 'a', member: 'boss' });
    expect(needTarget(s, need('q', T0, { kind: 'plan-approval', member: 'researcher' }))).toEqual({ kind: 'thread', team: 'a', member: 'researcher' });
    expect(needTarget(s, need('t', T0, { kind: 'stuck-taken', messageId: 'm1' }))).toEqual({ kind: 'message', team: 'a', member: 'researcher', id: 'm1' });
    expect(needTarget(s, need('i', T0, { kind: 'idle-with-mail', member: 'tester' }))).toEqual({ kind: 'thread', team: 'a', member: 'tester' });
    expect(needTarget(s, need('j', T0, { kind: 'idle-with-mail', member: 'tester', messageId: 'm9' }))).toEqual({ kind: 'message', team: 'a', member: 'tester', id: 'm9' });
    const orphan = needTarget(s, need('o', T0, { kind: 'orphan-inbox', orphan: { inbox: 'ghost', messages: 2 } }));
    expect(orphan).toEqual({ kind: 'pick', team: 'a' });
    expect(needActionLabel(orphan)).toBe('Send to…');
    // A team whose roster is not loaded: current leads are always team-lead.
    expect(needTarget(s, need('p2', T0, { team: 'b' }))).toEqual({ kind: 'thread', team: 'b', member: 'team-lead' });
  });
});

describe('panes and focus', () => {
  it('the Thread | Activity choice is kept while moving between members; tasks is a view of its own', () => {
    let s = selectMember(ready(), 'a', 'researcher');
    s = setPane(s, 'activity');
    s = selectMember(s, 'a', 'tester');
    expect(s.pane).toBe('activity');
    s = showTasks(s);
    expect(s.view).toBe('tasks');
    s = showTasks(s, false);
    expect(s.view).toBe('thread');
  });

  it('opening a message from the queue shows that member’s thread with the message marked', () => {
    let s = setPane(ready(), 'activity');
    s = focusMessage(s, 'b', 'researcher', 'm1');
    expect(s).toMatchObject({ selectedTeam: 'b', view: 'thread', pane: 'thread', focus: { team: 'b', member: 'researcher', id: 'm1' } });
    expect(s.memberByTeam.b).toBe('researcher');
    expect(selectMember(s, 'b', 'tester').focus).toBeUndefined();
    expect(clearFocus(s).focus).toBeUndefined();
  });

  it("opening teammates' traffic from search shows the team's whole feed with the message marked", () => {
    let s = setFeedFilter(ready(), 'b', 'tester');
    s = focusFeedMessage(s, 'b', 'm7');
    expect(s).toMatchObject({ selectedTeam: 'b', view: 'feed', focus: { team: 'b', member: FEED_FOCUS, id: 'm7' } });
    // Unfiltered: a filter on one member could hide the message.
    expect(s.feedFilter.b).toBeUndefined();
    expect(clearFocus(s).focus).toBeUndefined();
  });
});
