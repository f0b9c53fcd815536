import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi, type FakeApi } from '../dev/fake-api';
import { LEAD_WAITS_NOTE, composeBlock, composeNote, teamGroups, threadOf } from './selectors';
import { createDeckStore } from './store';

const stores: { stop(): void }[] = [];
const fakes: FakeApi[] = [];

function setup(opts: Parameters<typeof createFakeApi>[0] = {}) {
  const api = createFakeApi({ stepMs: 5, ...opts });
  const store = createDeckStore(api, { storage: null, tickMs: 1_000_000 });
  fakes.push(api);
  stores.push(store.getState().actions);
  return { api, store, actions: store.getState().actions };
}

afterEach(() => {
  for (const s of stores.splice(0)) s.stop();
  for (const f of fakes.splice(0)) f.stopTimers();
});

describe('deck store over a TeamdeckApi', () => {
  it('loads one snapshot, then the selected team’s roster, feed and the lead’s thread', async () => {
    const { api, store, actions } = setup();
    const snapshot = vi.spyOn(api, 'getSnapshot');
    await actions.start();
    expect(snapshot).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(store.getState().byTeam.analysis?.threadLoaded['team-lead']).toBe(0));
    const s = store.getState();
    expect(s.phase).toBe('ready');
    expect(s.selectedTeam).toBe('analysis');
    expect(s.memberByTeam.analysis).toBe('team-lead');
    expect(s.byTeam.analysis!.feedLoaded).toBe(0);
    expect(s.queuedCount).toBe(1);
  });

  it('fetches the open thread again after a later snapshot (a reconnect may have missed events)', async () => {
    const { api, store, actions } = setup();
    await actions.start();
    await vi.waitFor(() => expect(store.getState().byTeam.analysis?.threadLoaded['team-lead']).toBe(0));
    const thread = vi.spyOn(api, 'getThread');
    const snap = await api.getSnapshot();
    if (!snap.ok) throw new Error('no snapshot');
    api.emit({ type: 'snapshot', snapshot: snap.value });
    await vi.waitFor(() => expect(store.getState().byTeam.analysis?.threadLoaded['team-lead']).toBe(1));
    expect(thread).toHaveBeenCalledWith('analysis', 'team-lead');
    // What was on screen stays there while it reloads.
    expect(store.getState().byTeam.analysis!.messages.length).toBeGreaterThan(0);
  });

  it('opens another member’s thread from the loaded feed, without fetching it again', async () => {
    const { api, store, actions } = setup();
    await actions.start();
    await vi.waitFor(() => expect(store.getState().byTeam.analysis?.feedLoaded).toBe(0));
    const thread = vi.spyOn(api, 'getThread');
    actions.openMember('analysis', 'researcher');
    expect(store.getState().byTeam.analysis!.threadLoaded.researcher).toBe(0);
    expect(thread).not.toHaveBeenCalled();
    expect(threadOf(store.getState().byTeam.analysis!.messages, 'researcher').length).toBeGreaterThan(0);
  });

  it("starts from the browser host's start-up data: ready with the first team's roster before any call answers", async () => {
    const api = createFakeApi({ stepMs: 5 });
    fakes.push(api);
    const snap = await api.getSnapshot();
    const roster = await api.getRoster('analysis');
    if (!snap.ok || !roster.ok) throw new Error('no data');
    const snapshot = vi.spyOn(api, 'getSnapshot');
    const getRoster = vi.spyOn(api, 'getRoster');
    const store = createDeckStore(api, { storage: null, tickMs: 1_000_000, boot: { snapshot: snap.value, roster: { team: 'analysis', entries: roster.value }, receivedAt: snap.value.now - 5_000 } });
    stores.push(store.getState().actions);
    void store.getState().actions.start();
    // Synchronously: the first render has the teams and the roster.
    const s = store.getState();
    expect(s.phase).toBe('ready');
    expect(s.selectedTeam).toBe('analysis');
    expect(s.byTeam.analysis!.roster).toEqual(roster.value);
    expect(s.memberByTeam.analysis).toBe('team-lead');
    expect(s.clockOffset).toBe(5_000);
    // Events from then on apply at once; the rest of the screen loads as usual.
    api.emit({ type: 'queued-count', count: 9 });
    expect(store.getState().queuedCount).toBe(9);
    await vi.waitFor(() => expect(store.getState().byTeam.analysis?.threadLoaded['team-lead']).toBe(0));
    expect(snapshot).not.toHaveBeenCalled();
    expect(getRoster).not.toHaveBeenCalled();
  });

  it('replays events pushed while the snapshot was loading', async () => {
    const { api, store, actions } = setup({ latencyMs: 20 });
    const started = actions.start();
    api.emit({ type: 'queued-count', count: 7 });
    await started;
    expect(store.getState().queuedCount).toBe(7);
  });

  it('keeps the draft and shows the reason when the host refuses a send', async () => {
    const { store, actions } = setup();
    await actions.start();
    actions.setDraft('analysis', 'researcher', { text: '{"type":"shutdown_request","requestId":"x"}' });
    expect(await actions.send('analysis', 'researcher')).toBe(false);
    const s = store.getState();
    expect(s.drafts['analysis/researcher']!.text).toContain('shutdown_request');
    expect(s.sendErrors['analysis/researcher']).toMatch(/protocol frame/);
  });

  it('clears the draft on success and advances the message to taken, seen and replied', async () => {
    const { store, actions } = setup();
    await actions.start();
    actions.openMember('analysis', 'researcher');
    actions.setDraft('analysis', 'researcher', { text: 'check logout too\n\n', summary: ' logout ' });
    expect(await actions.send('analysis', 'researcher')).toBe(true);
    const sentMsg = () => threadOf(store.getState().byTeam.analysis!.messages, 'researcher').find((m) => m.text === 'check logout too');
    expect(store.getState().drafts['analysis/researcher']).toBeUndefined();
    expect(sentMsg()).toMatchObject({ status: 'accepted', summary: 'logout' });
    await vi.waitFor(() => expect(sentMsg()!.status).toBe('replied'));
    expect(threadOf(store.getState().byTeam.analysis!.messages, 'researcher').filter((m) => m.text === 'check logout too')).toHaveLength(1);
  });

  it('shows a queued send with its reason, then accepted when the host delivers it', async () => {
    const { store, actions } = setup();
    await actions.start();
    actions.setDraft('analysis', 'implementer', { text: 'rebase please' });
    await actions.send('analysis', 'implementer');
    const m = () => store.getState().byTeam.analysis!.messages.find((x) => x.text === 'rebase please')!;
    expect(m()).toMatchObject({ status: 'queued', reason: expect.stringContaining('bytes were kept') });
    expect(store.getState().queuedCount).toBe(2);
    await vi.waitFor(() => expect(m().status).not.toBe('queued'));
    expect(m().reason).toBeUndefined();
  });

  it('keeps an ended team listed and browsable; what it had not taken turns undeliverable', async () => {
    const { api, store, actions } = setup({ stepMs: 0 });
    await actions.start();
    const team = 'session-40c1f2aa';
    actions.openTeam(team);
    await vi.waitFor(() => expect(store.getState().byTeam[team]?.feedLoaded).toBe(0));
    expect(composeNote(store.getState(), team, 'team-lead')).toBe(LEAD_WAITS_NOTE);
    actions.setDraft(team, 'team-lead', { text: 'are you there?' });
    expect(await actions.send(team, 'team-lead')).toBe(true);
    const mine = () => store.getState().byTeam[team]!.messages.filter((m) => m.from === 'user');
    expect(mine().every((m) => m.status === 'accepted' && m.sentAs === 'teamdeck')).toBe(true);

    api.endTeam(team);
    await vi.waitFor(() => expect(store.getState().teams.find((t) => t.id === team)?.state).toBe('ended'));
    const s = store.getState();
    expect(s.selectedTeam).toBe(team);
    expect(teamGroups(s.teams).ended.map((t) => t.id)[0]).toBe(team);
    expect(mine().map((m) => [m.status, m.reason])).toEqual([
      ['undeliverable', 'the team ended before it could be delivered'],
      ['undeliverable', 'the team ended before it could be delivered'],
    ]);
    expect(composeBlock(s, team, 'team-lead')?.kind).toBe('ended');
    expect(composeNote(s, team, 'team-lead')).toBeUndefined();

    // The host refuses too; the draft stays.
    actions.setDraft(team, 'team-lead', { text: 'hello?' });
    expect(await actions.send(team, 'team-lead')).toBe(false);
    expect(store.getState().sendErrors[`${team}/team-lead`]).toMatch(/ended/);
  });

  it('marks a current team’s answers with where they came from', async () => {
    const { store, actions } = setup();
    await actions.start();
    actions.openTeam('session-7ec79863');
    actions.openMember('session-7ec79863', 'researcher');
    actions.setDraft('session-7ec79863', 'researcher', { text: 'one more thing' });
    await actions.send('session-7ec79863', 'researcher');
    const thread = () => threadOf(store.getState().byTeam['session-7ec79863']!.messages, 'researcher');
    await vi.waitFor(() => expect(thread().find((m) => m.text === 'one more thing')?.status).toBe('replied'));
    const answer = thread().findLast((m) => m.from === 'researcher' && !m.frame)!;
    expect(answer).toMatchObject({ to: 'user', source: 'idle-notification' });
  });

  it('refuses a reserved sender name, and a new name is what current teams are written as', async () => {
    const { store, actions } = setup();
    await actions.start();
    expect(await actions.saveSettings({ senderName: 'Team-Lead' })).toMatch(/forged/);
    expect(store.getState().settings.senderName).toBe('teamdeck');
    expect(await actions.saveSettings({ senderName: 'deck-2' })).toBeUndefined();
    await vi.waitFor(() => expect(store.getState().teams.find((t) => t.id === 'session-7ec79863')?.sendAs).toBe('deck-2'));
    expect(store.getState().teams.find((t) => t.id === 'analysis')?.sendAs).toBe('user');
  });

  it('starts a demo from the empty state and opens it', async () => {
    const { store, actions } = setup({ scenario: 'empty' });
    await actions.start();
    expect(store.getState().teams).toEqual([]);
    expect(await actions.startDemo()).toBeUndefined();
    expect(store.getState().selectedTeam).toBe('analysis');
  });

  it('remembers what was viewed between launches', async () => {
    const mem = new Map<string, string>();
    const storage = { getItem: (k: string) => mem.get(k) ?? null, setItem: (k: string, v: string) => void mem.set(k, v) };
    const api = createFakeApi({ stepMs: 0 });
    fakes.push(api);
    const store = createDeckStore(api, { storage, tickMs: 1_000_000 });
    stores.push(store.getState().actions);
    await store.getState().actions.start();
    api.deliver('analysis', { from: 'researcher', to: 'user', text: 'new!', time: Date.now() + 1000 });
    expect(store.getState().byTeam.analysis!.unread.researcher).toBe(1);
    store.getState().actions.markViewed('analysis', 'researcher');
    const saved = JSON.parse(mem.get('teamdeck.viewed.v1')!) as { at: Record<string, number> };
    expect(saved.at['analysis/researcher']).toBeGreaterThan(0);
  });
});

describe('activity, timelines, tasks and needs over the fake host', () => {
  const live = 'session-7ec79863';

  it('loads the needs once with the snapshot, and replaces them as the host drops one', async () => {
    const { api, store, actions } = setup();
    const needs = vi.spyOn(api, 'getNeeds');
    await actions.start();
    await vi.waitFor(() => expect(store.getState().needsLoaded).toBe(0));
    expect(needs).toHaveBeenCalledTimes(1);
    const all = store.getState().needs;
    expect(new Set(all.map((n) => n.kind))).toEqual(new Set(['permission', 'held', 'plan-approval', 'stuck-taken', 'stuck-queued', 'idle-with-mail', 'orphan-inbox']));
    // Newest first.
    expect(all.map((n) => n.since)).toEqual([...all.map((n) => n.since)].sort((a, b) => b - a));
    api.live!.setNeeds(api.live!.getNeeds().filter((n) => n.kind !== 'permission'));
    expect(store.getState().needs.map((n) => n.kind)).not.toContain('permission');
    expect(store.getState().needs).toHaveLength(all.length - 1);
  });

  it('fetches a team’s activity and tasks when it opens, then follows their events', async () => {
    const { api, store, actions } = setup();
    const activity = vi.spyOn(api, 'getActivity');
    await actions.start();
    actions.openTeam(live);
    await vi.waitFor(() => expect(store.getState().byTeam[live]?.activityLoaded).toBe(0));
    expect(activity).toHaveBeenCalledWith(live);
    const researcher = () => store.getState().byTeam[live]!.activity!.researcher!;
    expect(researcher()).toMatchObject({ kind: 'working', tool: { name: 'Bash' } });
    await vi.waitFor(() => expect(store.getState().byTeam[live]?.tasks?.tasks.length).toBe(4));
    expect(store.getState().byTeam[live]!.tasks!.problems).toHaveLength(1);

    api.live!.setActivity(live, [{ member: 'researcher', kind: 'idle', since: Date.now(), sources: ['transcript'] }]);
    expect(researcher().kind).toBe('idle');
    expect(store.getState().byTeam[live]!.activity!.tester).toBeUndefined();
  });

  it('loads a member’s timeline when its Activity opens, and appends what the host pushes', async () => {
    const { api, store, actions } = setup();
    const timeline = vi.spyOn(api, 'getTimeline');
    await actions.start();
    actions.openMember(live, 'researcher');
    expect(timeline).not.toHaveBeenCalled();
    actions.setPane('activity');
    const items = () => store.getState().byTeam[live]?.timelines.researcher?.items ?? [];
    await vi.waitFor(() => expect(store.getState().byTeam[live]?.timelines.researcher?.loaded).toBe(0));
    expect(timeline).toHaveBeenCalledWith(live, 'researcher');
    expect(new Set(items().map((i) => i.kind))).toEqual(new Set(['received', 'text', 'tool-call', 'tool-result']));
    const before = items().length;
    api.live!.pushTimeline(live, 'researcher', [{ kind: 'tool-result', at: Date.now(), text: 'ok', tool: 'Bash' }]);
    expect(items()).toHaveLength(before + 1);
    expect(items().at(-1)).toMatchObject({ kind: 'tool-result', text: 'ok' });
    // Moving to another member keeps the Activity pane and loads that member's timeline.
    actions.openMember(live, 'team-lead');
    await vi.waitFor(() => expect(store.getState().byTeam[live]?.timelines['team-lead']?.loaded).toBe(0));
    expect(store.getState().byTeam[live]!.timelines['team-lead']!.items.map((i) => i.kind)).toContain('prompt');
  });

  it('opens a stuck message from the queue in its member’s thread', async () => {
    const { store, actions } = setup();
    await actions.start();
    await vi.waitFor(() => expect(store.getState().needsLoaded).toBe(0));
    const stuck = store.getState().needs.find((n) => n.kind === 'stuck-taken')!;
    actions.openMessage(stuck.team, 'researcher', stuck.messageId!);
    const s = store.getState();
    expect(s).toMatchObject({ selectedTeam: live, view: 'thread', pane: 'thread', focus: { id: stuck.messageId } });
    await vi.waitFor(() => expect(threadOf(store.getState().byTeam[live]?.messages ?? [], 'researcher').some((m) => m.id === stuck.messageId)).toBe(true));
  });

  it('saves the needs-notifications setting with the others', async () => {
    const { store, actions } = setup();
    await actions.start();
    expect(store.getState().settings.needsNotifications).toBe(true);
    expect(await actions.saveSettings({ needsNotifications: false })).toBeUndefined();
    expect(store.getState().settings).toMatchObject({ needsNotifications: false, notifications: true });
  });

  it('an ended team: everyone shut down, its needs gone', async () => {
    const { api, store, actions } = setup({ stepMs: 0 });
    await actions.start();
    actions.openTeam(live);
    await vi.waitFor(() => expect(store.getState().byTeam[live]?.activityLoaded).toBe(0));
    await vi.waitFor(() => expect(store.getState().needsLoaded).toBe(0));
    api.endTeam(live);
    const acts = Object.values(store.getState().byTeam[live]!.activity!);
    expect(acts.every((a) => a.kind === 'shut-down')).toBe(true);
    expect(store.getState().needs.some((n) => n.team === live)).toBe(false);
  });
});
