import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi, type FakeApi } from '../dev/fake-api';
import { threadOf } from './selectors';
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

  it('clears the draft on success and advances the message to read and replied', async () => {
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
    expect(m()).toMatchObject({ status: 'queued', queuedReason: expect.stringContaining('bytes were kept') });
    expect(store.getState().queuedCount).toBe(2);
    await vi.waitFor(() => expect(m().status).not.toBe('queued'));
    expect(m().queuedReason).toBeUndefined();
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
