// The deck store over a scripted TeamdeckApi: what it asks the host, when, and what it makes of
// the answers and of pushed events. The host's own behaviour (its refusals, delivery progress,
// the eras) is tested against the engine: test/store-over-engine.test.ts and e2e/.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Result, Snapshot } from '../../../shared/contract';
import type { NeedItem, TaskBoard, ThreadMessage } from '../../../shared/types';
import { currentTeam, member, message, snapshot, team } from '../testing/host-data';
import { fails, held, ok, scriptedApi, type Scripts } from '../testing/scripted-api';
import { DEFAULT_SETTINGS } from './deck-state';
import { LEAD_WAITS_NOTE, composeBlock, composeNote, teamGroups, threadOf } from './selectors';
import { createDeckStore, type DeckStoreOptions } from './store';

const MIN = 60_000;
const T0 = Date.now();

const stores: { stop(): void }[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.stop();
});

function setup(scripts: Scripts, opts: DeckStoreOptions = {}) {
  const api = scriptedApi(scripts);
  const store = createDeckStore(api, { storage: null, tickMs: 1_000_000, ...opts });
  stores.push(store.getState().actions);
  return { api, store, actions: store.getState().actions };
}

const board = (id: string, over: Partial<TaskBoard> = {}): TaskBoard => ({ team: id, list: id, exists: true, tasks: [], problems: [], ...over });

// A legacy team as a host answers for it: its members and what they said.
const analysis = team('analysis', { description: 'Auth review' });
const analysisRoster = [member('team-lead'), member('researcher'), member('implementer'), member('tester', { inConfig: false, state: 'terminated' })];
const analysisFeed: ThreadMessage[] = [
  message('analysis', 'user', 'team-lead', 'Please split the auth review.', T0 - 60 * MIN, { status: 'replied', sentAs: 'user' }),
  message('analysis', 'team-lead', 'user', 'Done: researcher reads, implementer fixes.', T0 - 58 * MIN, { source: 'user-inbox' }),
  message('analysis', 'researcher', 'user', 'Found the bug in auth.ts.', T0 - 40 * MIN, { source: 'user-inbox' }),
  message('analysis', 'researcher', 'implementer', 'Can you take the fix?', T0 - 38 * MIN),
];

function analysisHost(over: Scripts = {}): Scripts {
  return {
    getSnapshot: ok(snapshot({ teams: [analysis], queuedCount: 1 })),
    getRoster: ok(analysisRoster),
    getFeed: ok(analysisFeed),
    getThread: ok(analysisFeed.slice(0, 2)),
    getActivity: ok([]),
    getTasks: ok(board('analysis')),
    getNeeds: ok([]),
    ...over,
  };
}

describe('deck store over a TeamdeckApi', () => {
  it('loads one snapshot, then the selected team’s roster, feed and the lead’s thread', async () => {
    const { api, store, actions } = setup(analysisHost());
    await actions.start();
    expect(api.argsOf('getSnapshot')).toHaveLength(1);
    await vi.waitFor(() => expect(store.getState().byTeam.analysis?.threadLoaded['team-lead']).toBe(0));
    const s = store.getState();
    expect(s.phase).toBe('ready');
    expect(s.selectedTeam).toBe('analysis');
    expect(s.memberByTeam.analysis).toBe('team-lead');
    expect(s.byTeam.analysis!.feedLoaded).toBe(0);
    expect(s.queuedCount).toBe(1);
    expect(api.argsOf('getRoster')).toEqual([['analysis']]);
    expect(api.argsOf('getFeed')).toEqual([['analysis']]);
  });

  it('fetches the open thread again after a later snapshot (a reconnect may have missed events)', async () => {
    const { api, store, actions } = setup(analysisHost());
    await actions.start();
    await vi.waitFor(() => expect(store.getState().byTeam.analysis?.threadLoaded['team-lead']).toBe(0));
    const before = api.argsOf('getThread').length;
    api.push({ type: 'snapshot', snapshot: snapshot({ teams: [analysis] }) });
    await vi.waitFor(() => expect(store.getState().byTeam.analysis?.threadLoaded['team-lead']).toBe(1));
    expect(api.argsOf('getThread').slice(before)).toContainEqual(['analysis', 'team-lead']);
    // What was on screen stays there while it reloads.
    expect(store.getState().byTeam.analysis!.messages.length).toBeGreaterThan(0);
  });

  it('fetches the open feed again when the host read more of the team’s history, once after the load that was on its way', async () => {
    const first = held<Result<ThreadMessage[]>>();
    let feeds = 0;
    const { api, store, actions } = setup(analysisHost({ getFeed: () => (++feeds === 1 ? first.promise : Promise.resolve(ok(analysisFeed))) }));
    await actions.start();
    await vi.waitFor(() => expect(api.argsOf('getFeed')).toHaveLength(1));
    // The history read late: the load in flight began before it, so it cannot count as the whole
    // feed; one more load follows it (not one beside it per event).
    api.push({ type: 'record', team: 'analysis' });
    api.push({ type: 'record', team: 'analysis' });
    expect(api.argsOf('getFeed')).toHaveLength(1);
    first.settle(ok(analysisFeed.slice(0, 1)));
    await vi.waitFor(() => expect(api.argsOf('getFeed')).toHaveLength(2));
    await vi.waitFor(() => expect(store.getState().byTeam.analysis?.feedLoaded).toBe(0));
    expect(store.getState().byTeam.analysis!.messages).toHaveLength(analysisFeed.length);
    // Another team's history is not this team's business.
    api.push({ type: 'record', team: 'elsewhere' });
    expect(api.argsOf('getFeed')).toHaveLength(2);
  });

  it('opens another member’s thread from the loaded feed, without fetching it again', async () => {
    const { api, store, actions } = setup(analysisHost());
    await actions.start();
    await vi.waitFor(() => expect(store.getState().byTeam.analysis?.feedLoaded).toBe(0));
    const before = api.argsOf('getThread').length;
    actions.openMember('analysis', 'researcher');
    expect(store.getState().byTeam.analysis!.threadLoaded.researcher).toBe(0);
    expect(api.argsOf('getThread')).toHaveLength(before);
    expect(threadOf(store.getState().byTeam.analysis!.messages, 'researcher').length).toBeGreaterThan(0);
  });

  it("starts from the browser host's start-up data: ready with the first team's roster before any call answers", async () => {
    const snap = snapshot({ teams: [analysis] });
    const { api, store, actions } = setup(analysisHost(), { boot: { snapshot: snap, roster: { team: 'analysis', entries: analysisRoster }, receivedAt: snap.now - 5_000 } });
    void actions.start();
    // Synchronously: the first render has the teams and the roster.
    const s = store.getState();
    expect(s.phase).toBe('ready');
    expect(s.selectedTeam).toBe('analysis');
    expect(s.byTeam.analysis!.roster).toEqual(analysisRoster);
    expect(s.memberByTeam.analysis).toBe('team-lead');
    expect(s.clockOffset).toBe(5_000);
    // Events from then on apply at once; the rest of the screen loads as usual.
    api.push({ type: 'queued-count', count: 9 });
    expect(store.getState().queuedCount).toBe(9);
    await vi.waitFor(() => expect(store.getState().byTeam.analysis?.threadLoaded['team-lead']).toBe(0));
    expect(api.argsOf('getSnapshot')).toEqual([]);
    expect(api.argsOf('getRoster')).toEqual([]);
  });

  it('replays events pushed while the snapshot was loading', async () => {
    const answer = held<Result<Snapshot>>();
    const { api, store, actions } = setup(analysisHost({ getSnapshot: () => answer.promise }));
    const started = actions.start();
    api.push({ type: 'queued-count', count: 7 });
    answer.settle(ok(snapshot({ teams: [analysis], queuedCount: 0 })));
    await started;
    expect(store.getState().queuedCount).toBe(7);
  });

  it('keeps the draft and shows the host’s words when it refuses a send', async () => {
    const words = 'This text looks like a protocol frame (a JSON object with a "type"); teammates would read it as a command, so it was not sent.';
    const { api, store, actions } = setup(analysisHost({ send: fails(words) }));
    await actions.start();
    actions.setDraft('analysis', 'researcher', { text: '{"type":"shutdown_request","requestId":"x"}' });
    expect(await actions.send('analysis', 'researcher')).toBe(false);
    const s = store.getState();
    expect(api.argsOf('send')).toEqual([[{ team: 'analysis', to: 'researcher', text: '{"type":"shutdown_request","requestId":"x"}' }]]);
    expect(s.drafts['analysis/researcher']!.text).toContain('shutdown_request');
    expect(s.sendErrors['analysis/researcher']).toBe(words);
    expect(s.sending['analysis/researcher']).toBeUndefined();
    expect(s.byTeam.analysis!.messages.some((m) => m.text.includes('shutdown_request'))).toBe(false);
  });

  it('clears the draft on success, then moves the message on as the host reports taken, seen and replied', async () => {
    const { api, store, actions } = setup(analysisHost({ send: ok({ id: 's-1', status: 'accepted' }) }));
    await actions.start();
    actions.openMember('analysis', 'researcher');
    actions.setDraft('analysis', 'researcher', { text: 'check logout too\n\n', summary: ' logout ' });
    expect(await actions.send('analysis', 'researcher')).toBe(true);
    // Trailing blank lines and the summary's spaces never reach the host.
    expect(api.argsOf('send')).toEqual([[{ team: 'analysis', to: 'researcher', text: 'check logout too', summary: 'logout' }]]);
    const sentMsg = () => threadOf(store.getState().byTeam.analysis!.messages, 'researcher').find((m) => m.text === 'check logout too');
    expect(store.getState().drafts['analysis/researcher']).toBeUndefined();
    expect(sentMsg()).toMatchObject({ id: 's-1', status: 'accepted', summary: 'logout', sentAs: 'user' });

    api.push({ type: 'delivery', team: 'analysis', id: 's-1', to: 'researcher', status: 'taken' });
    expect(sentMsg()!.status).toBe('taken');
    // The host's own copy of the message, seen in the inbox: merged, never a second row.
    api.push({ type: 'message', team: 'analysis', message: message('analysis', 'user', 'researcher', 'check logout too', T0, { id: 's-1', status: 'taken', sentAs: 'user' }) });
    api.push({ type: 'delivery', team: 'analysis', id: 's-1', to: 'researcher', status: 'seen' });
    api.push({ type: 'message', team: 'analysis', message: message('analysis', 'researcher', 'user', 'On it.', T0 + 1, { source: 'user-inbox' }) });
    api.push({ type: 'delivery', team: 'analysis', id: 's-1', to: 'researcher', status: 'replied' });
    expect(sentMsg()!.status).toBe('replied');
    expect(threadOf(store.getState().byTeam.analysis!.messages, 'researcher').filter((m) => m.text === 'check logout too')).toHaveLength(1);
  });

  it('shows a queued send with its reason, then accepted when the host delivers it', async () => {
    const { api, store, actions } = setup(analysisHost({ send: ok({ id: 's-2', status: 'queued', reason: 'inbox unreadable; its bytes were kept' }) }));
    await actions.start();
    actions.setDraft('analysis', 'implementer', { text: 'rebase please' });
    await actions.send('analysis', 'implementer');
    const m = () => store.getState().byTeam.analysis!.messages.find((x) => x.text === 'rebase please')!;
    expect(m()).toMatchObject({ status: 'queued', reason: expect.stringContaining('bytes were kept') });
    api.push({ type: 'queued-count', count: 2 });
    expect(store.getState().queuedCount).toBe(2);
    api.push({ type: 'delivery', team: 'analysis', id: 's-2', to: 'implementer', status: 'accepted' });
    expect(m().status).toBe('accepted');
    expect(m().reason).toBeUndefined();
  });

  it('keeps an ended team listed and browsable; what was still queued shows undeliverable, with the reason', async () => {
    const id = 'session-40c1f2aa';
    const running = currentTeam(id, { leadReadsInbox: false });
    const earlier = message(id, 'user', 'team-lead', 'plan the fix', T0 - 5 * MIN, { id: 'u-1', status: 'queued', reason: 'the inbox is locked', sentAs: 'teamdeck' });
    const { api, store, actions } = setup({
      getSnapshot: ok(snapshot({ teams: [analysis, running] })),
      getRoster: ok([member('team-lead')]),
      getFeed: ok([earlier]),
      getThread: ok([earlier]),
      getActivity: ok([]),
      getTasks: ok(board(id)),
      getNeeds: ok([]),
      send: ok({ id: 'u-2', status: 'accepted' }),
    });
    await actions.start();
    actions.openTeam(id);
    await vi.waitFor(() => expect(store.getState().byTeam[id]?.feedLoaded).toBe(0));
    expect(composeNote(store.getState(), id, 'team-lead')).toBe(LEAD_WAITS_NOTE);
    actions.setDraft(id, 'team-lead', { text: 'are you there?' });
    expect(await actions.send(id, 'team-lead')).toBe(true);
    const mine = () => store.getState().byTeam[id]!.messages.filter((m) => m.from === 'user');
    expect(mine().map((m) => [m.status, m.sentAs])).toEqual([
      ['queued', 'teamdeck'],
      ['accepted', 'teamdeck'],
    ]);

    // The lead exits: the host says what could not be delivered, then lists the team as ended.
    const reason = `team ${id} ended before it could be delivered (the lead exited)`;
    api.push({ type: 'delivery', team: id, id: 'u-1', to: 'team-lead', status: 'undeliverable', reason });
    api.push({ type: 'teams', teams: [analysis, { ...running, state: 'ended', endedAt: T0, endedReason: 'the lead exited' }] });
    const s = store.getState();
    expect(s.selectedTeam).toBe(id);
    expect(teamGroups(s.teams).ended.map((t) => t.id)[0]).toBe(id);
    expect(mine().map((m) => [m.status, m.reason])).toEqual([
      ['undeliverable', reason],
      ['accepted', undefined],
    ]);
    expect(composeBlock(s, id, 'team-lead')?.kind).toBe('ended');
    expect(composeNote(s, id, 'team-lead')).toBeUndefined();

    // The host refuses too; the draft stays.
    api.script('send', fails(`${id} has ended; nothing can be sent to it.`));
    actions.setDraft(id, 'team-lead', { text: 'hello?' });
    expect(await actions.send(id, 'team-lead')).toBe(false);
    expect(store.getState().sendErrors[`${id}/team-lead`]).toMatch(/ended/);
    expect(store.getState().drafts[`${id}/team-lead`]!.text).toBe('hello?');
  });

  it('shows a current team’s answer in its member’s thread with where it was found', async () => {
    const id = 'session-7ec79863';
    const { api, store, actions } = setup({ ...analysisHost(), getSnapshot: ok(snapshot({ teams: [analysis, currentTeam(id)] })), getRoster: ok([member('team-lead'), member('researcher')]) });
    await actions.start();
    actions.openMember(id, 'researcher');
    const idle = { type: 'idle_notification' as const, fields: { type: 'idle_notification', from: 'researcher', idleReason: 'available' } };
    api.push({ type: 'message', team: id, message: message(id, 'researcher', 'team-lead', '{"type":"idle_notification"}', T0, { frame: idle }) });
    api.push({ type: 'message', team: id, message: message(id, 'researcher', 'user', 'Done: logout cancels the refresh timer.', T0, { source: 'idle-notification' }) });
    const thread = threadOf(store.getState().byTeam[id]!.messages, 'researcher');
    const answer = thread.findLast((m) => m.from === 'researcher' && !m.frame)!;
    expect(answer).toMatchObject({ to: 'user', source: 'idle-notification' });
    // Its idle notification shows beside it, as context.
    expect(thread.some((m) => m.frame?.type === 'idle_notification')).toBe(true);
  });

  it('shows the host’s refusal of a sender name, and takes the name it accepts', async () => {
    const forged = 'Team-Lead is reserved: Claude rates messages from reserved names as forged.';
    const { api, store, actions } = setup(analysisHost({ setSettings: fails(forged) }));
    await actions.start();
    expect(await actions.saveSettings({ senderName: 'Team-Lead' })).toBe(forged);
    expect(store.getState().settings.senderName).toBe('teamdeck');
    api.script('setSettings', ok({ ...DEFAULT_SETTINGS, senderName: 'deck-2' }));
    expect(await actions.saveSettings({ senderName: 'deck-2' })).toBeUndefined();
    expect(api.argsOf('setSettings').at(-1)).toEqual([{ senderName: 'deck-2' }]);
    expect(store.getState().settings.senderName).toBe('deck-2');
    // The host says which teams now write under it.
    api.push({ type: 'teams', teams: [analysis, currentTeam('session-7ec79863', { sendAs: 'deck-2' })] });
    expect(store.getState().teams.find((t) => t.id === 'session-7ec79863')?.sendAs).toBe('deck-2');
    expect(store.getState().teams.find((t) => t.id === 'analysis')?.sendAs).toBe('user');
  });

  it('starts a demo from the empty state, takes a fresh snapshot and opens the demo team', async () => {
    const demo = 'session-d3m0d3m0';
    const { api, store, actions } = setup({ ...analysisHost(), getSnapshot: ok(snapshot({ teams: [] })), startDemo: ok({ teamsRoot: '/tmp/demo/teams', team: demo }) });
    await actions.start();
    expect(store.getState().teams).toEqual([]);
    api.script('getSnapshot', ok(snapshot({ teamsRoot: '/tmp/demo/teams', teams: [currentTeam(demo)] })));
    expect(await actions.startDemo()).toBeUndefined();
    expect(api.argsOf('getSnapshot')).toHaveLength(2);
    expect(store.getState().selectedTeam).toBe(demo);
  });

  it('says why a demo could not start', async () => {
    const { store, actions } = setup({ ...analysisHost(), startDemo: fails('this host cannot start a demo team') });
    await actions.start();
    expect(await actions.startDemo()).toBe('this host cannot start a demo team');
    expect(store.getState().selectedTeam).toBe('analysis');
  });

  it('remembers what was viewed between launches', async () => {
    const mem = new Map<string, string>();
    const storage = { getItem: (k: string) => mem.get(k) ?? null, setItem: (k: string, v: string) => void mem.set(k, v) };
    const { api, store, actions } = setup(analysisHost(), { storage });
    await actions.start();
    api.push({ type: 'message', team: 'analysis', message: message('analysis', 'researcher', 'user', 'new!', Date.now() + 1000, { source: 'user-inbox' }) });
    expect(store.getState().byTeam.analysis!.unread.researcher).toBe(1);
    actions.markViewed('analysis', 'researcher');
    const saved = JSON.parse(mem.get('teamdeck.viewed.v1')!) as { at: Record<string, number> };
    expect(saved.at['analysis/researcher']).toBeGreaterThan(0);
  });
});

describe('activity, timelines, tasks and needs over a scripted host', () => {
  const live = 'session-7ec79863';
  const liveRoster = [member('team-lead'), member('researcher'), member('tester')];
  const needs: NeedItem[] = [
    { id: 'n1', kind: 'idle-with-mail', team: live, member: 'tester', title: 'tester is idle with mail', since: T0 - 9 * MIN },
    { id: 'n2', kind: 'permission', team: live, member: 'researcher', title: 'researcher waits for a permission answer', since: T0 - MIN, terminal: 't-1' },
    { id: 'n3', kind: 'stuck-taken', team: live, member: 'researcher', title: 'taken but not answered', since: T0 - 3 * MIN, messageId: 'm-stuck' },
    { id: 'n4', kind: 'orphan-inbox', team: 'analysis', title: 'nobody reads inboxes/reviewer.json', since: T0 - 20 * MIN, orphan: { inbox: 'reviewer', messages: 2 } },
  ];
  const stuck = message(live, 'user', 'researcher', 'and the remember-me cookie?', T0 - 3 * MIN, { id: 'm-stuck', status: 'taken', sentAs: 'teamdeck' });

  function liveHost(over: Scripts = {}): Scripts {
    return analysisHost({
      getSnapshot: ok(snapshot({ teams: [analysis, currentTeam(live)] })),
      getRoster: (t) => ok(t === live ? liveRoster : analysisRoster),
      getFeed: (t) => ok(t === live ? [stuck] : analysisFeed),
      getNeeds: ok(needs),
      ...over,
    });
  }

  it('loads the needs once with the snapshot, newest first, and replaces them as the host drops one', async () => {
    const { api, store, actions } = setup(liveHost());
    await actions.start();
    await vi.waitFor(() => expect(store.getState().needsLoaded).toBe(0));
    actions.openTeam(live);
    expect(api.argsOf('getNeeds')).toHaveLength(1);
    const all = store.getState().needs;
    expect(all.map((n) => n.id)).toEqual(['n2', 'n3', 'n1', 'n4']);
    api.push({ type: 'needs', needs: needs.filter((n) => n.kind !== 'permission') });
    expect(store.getState().needs.map((n) => n.kind)).not.toContain('permission');
    expect(store.getState().needs).toHaveLength(all.length - 1);
  });

  it('fetches a team’s activity and tasks when it opens, then follows their events', async () => {
    const task = { id: '1', subject: 'Fix logout', status: 'in_progress' as const, blocks: [], blockedBy: [] };
    const { api, store, actions } = setup(
      liveHost({
        getActivity: ok([
          { member: 'researcher', kind: 'working', since: T0, tool: { name: 'Bash', summary: 'npm test', since: T0 }, sources: ['transcript'] },
          { member: 'tester', kind: 'idle', since: T0, sources: ['transcript'] },
        ]),
        getTasks: ok(board(live, { tasks: [task], problems: [{ kind: 'config', file: '9.json', message: 'not JSON' }] })),
      }),
    );
    await actions.start();
    actions.openTeam(live);
    await vi.waitFor(() => expect(store.getState().byTeam[live]?.activityLoaded).toBe(0));
    expect(api.argsOf('getActivity')).toContainEqual([live]);
    const researcher = () => store.getState().byTeam[live]!.activity!.researcher!;
    expect(researcher()).toMatchObject({ kind: 'working', tool: { name: 'Bash' } });
    await vi.waitFor(() => expect(store.getState().byTeam[live]?.tasks?.tasks.length).toBe(1));
    expect(store.getState().byTeam[live]!.tasks!.problems).toHaveLength(1);

    api.push({ type: 'activity', team: live, activity: [{ member: 'researcher', kind: 'idle', since: Date.now(), sources: ['transcript'] }] });
    expect(researcher().kind).toBe('idle');
    expect(store.getState().byTeam[live]!.activity!.tester).toBeUndefined();
    api.push({ type: 'tasks', team: live, board: board(live, { tasks: [{ ...task, status: 'completed' }] }) });
    expect(store.getState().byTeam[live]!.tasks!.tasks[0]!.status).toBe('completed');
  });

  it('loads a member’s timeline when its Activity opens, and appends what the host pushes', async () => {
    const { api, store, actions } = setup(
      liveHost({
        getTimeline: (_t, who) =>
          ok(
            who === 'researcher'
              ? [
                  { id: 'r1', kind: 'received', at: T0 - 5_000, text: 'Look at logout', from: 'team-lead' },
                  { id: 'r2', kind: 'tool-call', at: T0 - 4_000, text: 'npm test', tool: 'Bash' },
                ]
              : [{ id: 'l1', kind: 'prompt', at: T0 - 9_000, text: 'Have researcher look at logout' }],
          ),
      }),
    );
    await actions.start();
    actions.openMember(live, 'researcher');
    expect(api.argsOf('getTimeline')).toEqual([]);
    actions.setPane('activity');
    const items = () => store.getState().byTeam[live]?.timelines.researcher?.items ?? [];
    await vi.waitFor(() => expect(store.getState().byTeam[live]?.timelines.researcher?.loaded).toBe(0));
    expect(api.argsOf('getTimeline')).toEqual([[live, 'researcher']]);
    expect(items().map((i) => i.kind)).toEqual(['received', 'tool-call']);
    const before = items().length;
    api.push({ type: 'timeline', team: live, member: 'researcher', items: [{ id: 'r3', kind: 'tool-result', at: Date.now(), text: 'ok', tool: 'Bash' }] });
    expect(items()).toHaveLength(before + 1);
    expect(items().at(-1)).toMatchObject({ kind: 'tool-result', text: 'ok' });
    // Moving to another member keeps the Activity pane and loads that member's timeline.
    actions.openMember(live, 'team-lead');
    await vi.waitFor(() => expect(store.getState().byTeam[live]?.timelines['team-lead']?.loaded).toBe(0));
    expect(store.getState().byTeam[live]!.timelines['team-lead']!.items.map((i) => i.kind)).toContain('prompt');
  });

  it('opens a stuck message from the queue in its member’s thread', async () => {
    const { store, actions } = setup(liveHost());
    await actions.start();
    await vi.waitFor(() => expect(store.getState().needsLoaded).toBe(0));
    const need = store.getState().needs.find((n) => n.kind === 'stuck-taken')!;
    actions.openMessage(need.team, 'researcher', need.messageId!);
    const s = store.getState();
    expect(s).toMatchObject({ selectedTeam: live, view: 'thread', pane: 'thread', focus: { id: need.messageId } });
    await vi.waitFor(() => expect(threadOf(store.getState().byTeam[live]?.messages ?? [], 'researcher').some((m) => m.id === need.messageId)).toBe(true));
  });

  it('saves the needs-notifications setting with the others', async () => {
    const { api, store, actions } = setup(liveHost({ setSettings: ok({ ...DEFAULT_SETTINGS, needsNotifications: false }) }));
    await actions.start();
    expect(store.getState().settings.needsNotifications).toBe(true);
    expect(await actions.saveSettings({ needsNotifications: false })).toBeUndefined();
    expect(api.argsOf('setSettings')).toEqual([[{ needsNotifications: false }]]);
    expect(store.getState().settings).toMatchObject({ needsNotifications: false, notifications: true });
  });

  it('an ended team: its members’ activity and its needs are replaced by what the host pushes', async () => {
    const { api, store, actions } = setup(liveHost({ getActivity: ok([{ member: 'researcher', kind: 'working', since: T0, sources: ['transcript'] }]) }));
    await actions.start();
    actions.openTeam(live);
    await vi.waitFor(() => expect(store.getState().byTeam[live]?.activityLoaded).toBe(0));
    await vi.waitFor(() => expect(store.getState().needsLoaded).toBe(0));
    api.push({ type: 'activity', team: live, activity: liveRoster.map((r) => ({ member: r.name, kind: 'shut-down' as const, since: Date.now(), sources: ['config' as const] })) });
    api.push({ type: 'needs', needs: needs.filter((n) => n.team !== live) });
    const acts = Object.values(store.getState().byTeam[live]!.activity!);
    expect(acts).toHaveLength(3);
    expect(acts.every((a) => a.kind === 'shut-down')).toBe(true);
    expect(store.getState().needs.some((n) => n.team === live)).toBe(false);
  });
});
