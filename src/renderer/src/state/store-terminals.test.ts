// The store over the fake host's terminals: launching, the team that follows, channels and the
// terminal channel's sends. (The fake echoes what is typed; see dev/fake-terminals.ts.)
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi, type FakeApi } from '../dev/fake-api';
import { channelInputs } from '../lib/channels';
import { threadOf } from './selectors';
import { createDeckStore } from './store';
import { shownPane } from './terminal-state';

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

const live = 'session-7ec79863';

describe('hosted terminals through the store', () => {
  it('launches a team: its terminal shows at once, then the team it made opens on the lead’s Terminal tab', async () => {
    const { store, actions } = setup();
    await actions.start();
    expect(store.getState().launch.available).toBe(true);
    expect(await actions.launchTeam({ cwd: '/home/me/new-proj', permissionMode: 'plan' })).toBeUndefined();
    const id = store.getState().openTerminal!;
    expect(store.getState()).toMatchObject({ view: 'terminal', pendingLaunch: id });
    await vi.waitFor(() => expect(store.getState().terminals.find((t) => t.id === id)?.state).toBe('running'));
    await vi.waitFor(() => expect(store.getState().view).toBe('thread'));
    const s = store.getState();
    const team = s.selectedTeam!;
    expect(s.teams.find((t) => t.id === team)?.terminal).toBe(id);
    await vi.waitFor(() => expect(store.getState().memberByTeam[team]).toBe('team-lead'));
    expect(shownPane(store.getState(), team, 'team-lead')).toBe('terminal');
  });

  it('says in words why a launch was refused, and a host that cannot launch says why up front', async () => {
    const { actions } = setup();
    await actions.start();
    expect(await actions.launchTeam({ cwd: 'relative/dir' })).toMatch(/absolute path/);
    const other = setup({ launchUnavailable: 'tmux is not installed and no pty is available' });
    await other.actions.start();
    expect(other.store.getState().launch).toEqual({ available: false, reason: 'tmux is not installed and no pty is available' });
  });

  it('closes an exited terminal, and refuses to close a running one', async () => {
    const { api, store, actions } = setup();
    await actions.start();
    const id = store.getState().terminals[0]!.id;
    expect(await actions.closeTerminal(id)).toMatch(/still running/);
    api.terminals.exit(id, 0);
    expect(store.getState().terminals.find((t) => t.id === id)).toMatchObject({ state: 'exited', exitCode: 0 });
    expect(await actions.closeTerminal(id)).toBeUndefined();
    expect(store.getState().terminals.some((t) => t.id === id)).toBe(false);
  });

  it('lists the lead’s channels, and a send without a choice goes over the preferred one: typed into its terminal', async () => {
    const { api, store, actions } = setup();
    await actions.start();
    actions.openTeam(live);
    await vi.waitFor(() => expect(store.getState().byTeam[live]?.roster).toBeDefined());
    const inputs = channelInputs({ teamState: 'running', roster: store.getState().byTeam[live]!.roster });
    actions.loadChannels(live, 'team-lead', inputs);
    await vi.waitFor(() => expect(store.getState().channels[`${live}/team-lead`]?.options).toBeDefined());
    const options = store.getState().channels[`${live}/team-lead`]!.options!;
    expect(options.map((o) => o.kind)).toEqual(['terminal', 'inbox', 'socket']);
    expect(options.find((o) => o.preferred)?.kind).toBe('terminal');

    actions.setDraft(live, 'team-lead', { text: 'plan the logout fix' });
    expect(await actions.send(live, 'team-lead')).toBe(true);
    expect(api.sent.at(-1)).toMatchObject({ channel: 'terminal' });
    const sent = threadOf(store.getState().byTeam[live]!.messages, 'team-lead').at(-1)!;
    expect(sent).toMatchObject({ text: 'plan the logout fix', channel: 'terminal' });

    // The user picks the inbox instead: the next send goes there.
    actions.setChannel(live, 'team-lead', 'inbox');
    actions.setDraft(live, 'team-lead', { text: 'and as a teammate' });
    expect(await actions.send(live, 'team-lead')).toBe(true);
    expect(api.sent.at(-1)).toMatchObject({ channel: 'inbox' });
  });

  it('asks for a member’s channels once per set of inputs', async () => {
    const { api, actions } = setup();
    await actions.start();
    const spy = vi.spyOn(api, 'getChannels');
    actions.loadChannels(live, 'researcher', 'a');
    actions.loadChannels(live, 'researcher', 'a');
    await vi.waitFor(() => expect(spy).toHaveBeenCalledTimes(1));
    actions.loadChannels(live, 'researcher', 'a');
    actions.loadChannels(live, 'researcher', 'b');
    await vi.waitFor(() => expect(spy).toHaveBeenCalledTimes(2));
  });
});
