// The store with hosted terminals, over a scripted host: a launch and the team that follows,
// closing, and which channel a send asks for. The terminals themselves (what reaches the program,
// which channel the engine prefers) are tested against the real core in e2e/terminal.spec.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChannelOption, TerminalInfo } from '../../../shared/types';
import { currentTeam, member, snapshot } from '../testing/host-data';
import { fails, ok, scriptedApi, type Scripts } from '../testing/scripted-api';
import { channelInputs } from '../lib/channels';
import { threadOf } from './selectors';
import { createDeckStore } from './store';
import { shownPane } from './terminal-state';

const stores: { stop(): void }[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.stop();
});

function setup(scripts: Scripts) {
  const api = scriptedApi(scripts);
  const store = createDeckStore(api, { storage: null, tickMs: 1_000_000 });
  stores.push(store.getState().actions);
  return { api, store, actions: store.getState().actions };
}

const T0 = Date.now();
const live = 'session-7ec79863';

function terminal(id: string, over: Partial<TerminalInfo> = {}): TerminalInfo {
  return { id, backend: 'tmux', state: 'running', cwd: '/home/me/proj', startedAt: T0 - 60_000, title: 'proj', ...over };
}

const leadTerminal = terminal('t-000000000001', { team: live, pid: 4242 });

function host(over: Scripts = {}): Scripts {
  return {
    getSnapshot: ok(snapshot({ teams: [currentTeam(live, { terminal: leadTerminal.id })], terminals: [leadTerminal] })),
    getRoster: ok([member('team-lead'), member('researcher')]),
    getFeed: ok([]),
    getThread: ok([]),
    getActivity: ok([]),
    getTasks: ok({ team: live, list: live, exists: false, tasks: [], problems: [] }),
    getNeeds: ok([]),
    ...over,
  };
}

describe('hosted terminals through the store', () => {
  it('launches a team: its terminal shows at once, then the team it made opens on the lead’s Terminal tab', async () => {
    const started = terminal('t-00000000abcd', { state: 'starting', cwd: '/home/me/new-proj', permissionMode: 'plan', startedAt: T0 });
    const { api, store, actions } = setup(host({ launchTeam: ok({ terminal: started }) }));
    await actions.start();
    expect(store.getState().launch.available).toBe(true);
    expect(await actions.launchTeam({ cwd: '/home/me/new-proj', permissionMode: 'plan' })).toBeUndefined();
    expect(api.argsOf('launchTeam')).toEqual([[{ cwd: '/home/me/new-proj', permissionMode: 'plan' }]]);
    const id = store.getState().openTerminal!;
    expect(id).toBe(started.id);
    expect(store.getState()).toMatchObject({ view: 'terminal', pendingLaunch: id });

    api.push({ type: 'terminals', terminals: [leadTerminal, { ...started, state: 'running', pid: 5151 }] });
    expect(store.getState().terminals.find((t) => t.id === id)?.state).toBe('running');
    // Claude made the lead's session team: the host lists it with its terminal.
    const made = 'session-0000abcd';
    api.push({ type: 'teams', teams: [currentTeam(live, { terminal: leadTerminal.id }), currentTeam(made, { terminal: id })] });
    const s = store.getState();
    expect(s.view).toBe('thread');
    expect(s.selectedTeam).toBe(made);
    expect(s.teams.find((t) => t.id === made)?.terminal).toBe(id);
    await vi.waitFor(() => expect(store.getState().memberByTeam[made]).toBe('team-lead'));
    expect(shownPane(store.getState(), made, 'team-lead')).toBe('terminal');
  });

  it('says in the host’s words why a launch was refused, and a host that cannot launch says why up front', async () => {
    const { store, actions } = setup(host({ launchTeam: fails('The project folder must be an absolute path.') }));
    await actions.start();
    expect(await actions.launchTeam({ cwd: 'relative/dir' })).toBe('The project folder must be an absolute path.');
    expect(store.getState().view).not.toBe('terminal');
    const other = setup(host({ getSnapshot: ok(snapshot({ launch: { available: false, reason: 'tmux is not installed and no pty is available' } })) }));
    await other.actions.start();
    expect(other.store.getState().launch).toEqual({ available: false, reason: 'tmux is not installed and no pty is available' });
  });

  it('closes an exited terminal, and keeps one whose close the host refused', async () => {
    const { api, store, actions } = setup(host({ closeTerminal: fails('The lead is still running in this terminal; end it there first.') }));
    await actions.start();
    const id = store.getState().terminals[0]!.id;
    expect(await actions.closeTerminal(id)).toMatch(/still running/);
    expect(store.getState().terminals.some((t) => t.id === id)).toBe(true);
    api.push({ type: 'terminals', terminals: [{ ...leadTerminal, state: 'exited', exitedAt: T0, exitCode: 0 }] });
    expect(store.getState().terminals.find((t) => t.id === id)).toMatchObject({ state: 'exited', exitCode: 0 });
    api.script('closeTerminal', ok(null));
    expect(await actions.closeTerminal(id)).toBeUndefined();
    expect(api.argsOf('closeTerminal')).toEqual([[id], [id]]);
    expect(store.getState().terminals.some((t) => t.id === id)).toBe(false);
  });

  it('lists the lead’s channels, and a send without a choice asks for the preferred one; a chosen one after that', async () => {
    const options: ChannelOption[] = [
      { kind: 'terminal', label: "as you, typed into the lead's terminal", available: true, preferred: true },
      { kind: 'inbox', label: 'as teamdeck, a teammate message', available: true },
      { kind: 'socket', label: 'as another Claude session', available: false, reason: 'the lead has no socket' },
    ];
    const { api, store, actions } = setup(host({ getChannels: ok(options), send: ok({ id: 's-1', status: 'accepted' }) }));
    await actions.start();
    actions.openTeam(live);
    await vi.waitFor(() => expect(store.getState().byTeam[live]?.roster).toBeDefined());
    const inputs = channelInputs({ teamState: 'running', roster: store.getState().byTeam[live]!.roster });
    actions.loadChannels(live, 'team-lead', inputs);
    await vi.waitFor(() => expect(store.getState().channels[`${live}/team-lead`]?.options).toBeDefined());
    expect(api.argsOf('getChannels')).toEqual([[live, 'team-lead']]);
    expect(store.getState().channels[`${live}/team-lead`]!.options!.map((o) => o.kind)).toEqual(['terminal', 'inbox', 'socket']);

    actions.setDraft(live, 'team-lead', { text: 'plan the logout fix' });
    expect(await actions.send(live, 'team-lead')).toBe(true);
    expect(api.argsOf('send').at(-1)![0]).toMatchObject({ channel: 'terminal' });
    const sent = threadOf(store.getState().byTeam[live]!.messages, 'team-lead').at(-1)!;
    expect(sent).toMatchObject({ text: 'plan the logout fix', channel: 'terminal' });

    // The user picks the inbox instead: the next send goes there.
    actions.setChannel(live, 'team-lead', 'inbox');
    actions.setDraft(live, 'team-lead', { text: 'and as a teammate' });
    api.script('send', ok({ id: 's-2', status: 'accepted' }));
    expect(await actions.send(live, 'team-lead')).toBe(true);
    expect(api.argsOf('send').at(-1)![0]).toMatchObject({ channel: 'inbox' });

    // A choice that cannot be used now gives way to the preferred one.
    actions.setChannel(live, 'team-lead', 'socket');
    actions.setDraft(live, 'team-lead', { text: 'whichever works' });
    api.script('send', ok({ id: 's-3', status: 'accepted' }));
    expect(await actions.send(live, 'team-lead')).toBe(true);
    expect(api.argsOf('send').at(-1)![0]).toMatchObject({ channel: 'terminal' });
  });

  it('asks for a member’s channels once per set of inputs', async () => {
    const { api, actions } = setup(host({ getChannels: ok([]) }));
    await actions.start();
    actions.loadChannels(live, 'researcher', 'a');
    actions.loadChannels(live, 'researcher', 'a');
    await vi.waitFor(() => expect(api.argsOf('getChannels')).toHaveLength(1));
    actions.loadChannels(live, 'researcher', 'a');
    actions.loadChannels(live, 'researcher', 'b');
    await vi.waitFor(() => expect(api.argsOf('getChannels')).toHaveLength(2));
  });
});
