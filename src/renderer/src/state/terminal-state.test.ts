import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../../shared/contract';
import type { TeamSummary, TerminalInfo } from '../../../shared/types';
import { applySent } from './compose-state';
import { DEFAULT_SETTINGS, initialState } from './deck-state';
import { applyEvent, applySnapshot } from './host-events';
import { applyRoster } from './roster-state';
import { selectMember, selectTeam, setPane } from './view-state';
import { needActionLabel, needTarget } from './selectors';
import * as T from './terminal-state';

const T0 = 1_700_000_000_000;

function team(id: string, over: Partial<TeamSummary> = {}): TeamSummary {
  return { id, name: id, memberCount: 1, problems: [], era: 'current', state: 'running', sendAs: 'teamdeck', leadReadsInbox: true, ...over };
}

function term(id: string, over: Partial<TerminalInfo> = {}): TerminalInfo {
  return { id, backend: 'tmux', state: 'running', cwd: '/p', startedAt: T0, title: 'p', ...over };
}

function snap(over: Partial<Snapshot> = {}): Snapshot {
  return {
    teamsRoot: '/r',
    rootSource: 'default',
    alsoLooked: [],
    watching: true,
    teams: [team('a')],
    problems: [],
    settings: DEFAULT_SETTINGS,
    queuedCount: 0,
    now: T0,
    canStartDemo: true,
    terminals: [],
    launch: { available: true, backend: 'tmux' },
    ...over,
  };
}

const ready = (over: Partial<Snapshot> = {}) => applySnapshot(initialState({ viewedBaseline: T0, now: T0 }), snap(over), T0);

describe('mergeTerminals', () => {
  it('keeps the old list when the host sent the same terminals again', () => {
    const prev = [term('t-1'), term('t-2')];
    expect(T.mergeTerminals(prev, [term('t-1'), term('t-2')])).toBe(prev);
  });

  it('keeps unchanged entries as they were and takes the changed ones', () => {
    const prev = [term('t-1'), term('t-2')];
    const next = T.mergeTerminals(prev, [term('t-1'), term('t-2', { state: 'exited', exitCode: 0, exitedAt: T0 + 5 })]);
    expect(next).not.toBe(prev);
    expect(next[0]).toBe(prev[0]);
    expect(next[1]).toMatchObject({ state: 'exited', exitCode: 0 });
  });

  it('follows the host on additions, removals and order', () => {
    const prev = [term('t-1'), term('t-2')];
    expect(T.mergeTerminals(prev, [term('t-2')]).map((t) => t.id)).toEqual(['t-2']);
    expect(T.mergeTerminals(prev, [term('t-2'), term('t-1')]).map((t) => t.id)).toEqual(['t-2', 't-1']);
    expect(T.mergeTerminals(prev, [...prev.map((t) => ({ ...t })), term('t-3')]).map((t) => t.id)).toEqual(['t-1', 't-2', 't-3']);
  });
});

describe('sortTerminals', () => {
  it('lists running and starting terminals first, newest first, then exited ones by when they exited', () => {
    const list = [
      term('old-exit', { state: 'exited', startedAt: T0, exitedAt: T0 + 10 }),
      term('old', { startedAt: T0 }),
      term('recent-exit', { state: 'exited', startedAt: T0, exitedAt: T0 + 50 }),
      term('new', { state: 'starting', startedAt: T0 + 100 }),
    ];
    expect(T.sortTerminals(list).map((t) => t.id)).toEqual(['new', 'old', 'recent-exit', 'old-exit']);
  });
});

describe('terminals in the deck state', () => {
  it('takes the snapshot’s terminals and launch availability, and replaces them with each terminals event', () => {
    let s = ready({ terminals: [term('t-1')], launch: { available: false, reason: 'tmux is not installed' } });
    expect(s.terminals.map((t) => t.id)).toEqual(['t-1']);
    expect(s.launch).toEqual({ available: false, reason: 'tmux is not installed' });
    s = applyEvent(s, { type: 'terminals', terminals: [term('t-1', { state: 'exited', exitCode: 1 })] }, T0);
    expect(s.terminals[0]).toMatchObject({ state: 'exited', exitCode: 1 });
  });

  it('finds a team’s terminal from the team’s summary or from the terminal’s record', () => {
    const s = ready({ teams: [team('a', { terminal: 't-1' }), team('b')], terminals: [term('t-1'), term('t-2', { team: 'b' })] });
    expect(T.terminalOfTeam(s, 'a')?.id).toBe('t-1');
    expect(T.terminalOfTeam(s, 'b')?.id).toBe('t-2');
    expect(T.terminalOfTeam(s, 'c')).toBeUndefined();
  });

  it('offers the Terminal tab on the lead only, and shows it once chosen, per team', () => {
    let s = ready({ teams: [team('a', { terminal: 't-1' }), team('b')], terminals: [term('t-1')] });
    s = applyRoster(s, 'a', [
      { name: 'team-lead', inboxName: 'team-lead', isLead: true, inConfig: true, state: 'active' },
      { name: 'researcher', inboxName: 'researcher', isLead: false, inConfig: true, state: 'active' },
    ]);
    expect(T.hasTerminalTab(s, 'a', 'team-lead')).toBe(true);
    expect(T.hasTerminalTab(s, 'a', 'researcher')).toBe(false);
    expect(T.hasTerminalTab(s, 'b', 'team-lead')).toBe(false);
    s = T.setLeadTerminal(s, 'a', true);
    expect(T.shownPane(s, 'a', 'team-lead')).toBe('terminal');
    expect(T.shownPane(s, 'a', 'researcher')).toBe('thread');
    // Thread (or Activity) on the lead leaves the Terminal tab for that team.
    s = setPane(selectMember(s, 'a', 'team-lead'), 'activity');
    expect(T.shownPane(s, 'a', 'team-lead')).toBe('activity');
    expect(s.leadTerminal.a).toBe(false);
  });

  it('shows a launched terminal at once, then opens its team on the Terminal tab when Claude makes it', () => {
    let s = ready();
    s = T.applyLaunched(s, term('t-9', { state: 'starting' }));
    expect(s.view).toBe('terminal');
    expect(s.openTerminal).toBe('t-9');
    expect(s.pendingLaunch).toBe('t-9');
    s = applyEvent(s, { type: 'terminals', terminals: [term('t-9')] }, T0);
    expect(s.view).toBe('terminal');
    // The team appears (the summary names its terminal before the terminal's record names the team).
    s = applyEvent(s, { type: 'teams', teams: [team('a'), team('session-1', { terminal: 't-9' })] }, T0);
    expect(s.selectedTeam).toBe('session-1');
    expect(s.view).toBe('thread');
    expect(s.leadTerminal['session-1']).toBe(true);
    expect(s.pendingLaunch).toBeUndefined();
  });

  it('does not pull the user away when they left the launched terminal before its team appeared', () => {
    let s = T.applyLaunched(ready(), term('t-9', { state: 'starting' }));
    s = selectTeam(s, 'a');
    s = applyEvent(s, { type: 'terminals', terminals: [term('t-9', { team: 'session-1' })] }, T0);
    s = applyEvent(s, { type: 'teams', teams: [team('a'), team('session-1')] }, T0);
    expect(s.selectedTeam).toBe('a');
    expect(s.view).toBe('thread');
    // Opening that team later lands on its terminal.
    expect(s.leadTerminal['session-1']).toBe(true);
  });

  it('opens a team’s terminal from the needs queue on its lead, and a closed terminal gives the main area back', () => {
    let s = ready({ teams: [team('a', { terminal: 't-1' })], terminals: [term('t-1', { state: 'exited' })] });
    s = T.openTeamTerminal(s, 'a');
    expect(s.memberByTeam.a).toBe('team-lead');
    expect(T.shownPane(s, 'a', 'team-lead')).toBe('terminal');
    s = T.showTerminal(s, 't-1');
    s = T.removeTerminal(s, 't-1');
    expect(s.view).toBe('thread');
    expect(s.terminals).toEqual([]);
  });

  it('selecting the same team from the switcher leaves a terminal shown on its own', () => {
    let s = T.showTerminal(ready(), 't-1');
    expect(s.selectedTeam).toBe('a');
    s = selectTeam(s, 'a');
    expect(s.view).toBe('thread');
  });
});

describe('channel choice in the deck state', () => {
  it('keeps what the host said per member, the last good list when a refresh fails, and the user’s pick', () => {
    let s = ready();
    const opts = [{ kind: 'inbox' as const, label: 'as teamdeck, a teammate message', available: true, preferred: true }];
    s = T.applyChannels(s, 'a/team-lead', 'x', { options: opts });
    s = T.applyChannels(s, 'a/team-lead', 'y', { error: 'host gone' });
    expect(s.channels['a/team-lead']).toEqual({ options: opts, error: 'host gone', inputs: 'y' });
    s = T.setChannelChoice(s, 'a/team-lead', 'socket');
    expect(s.channelChoice['a/team-lead']).toBe('socket');
    s = T.setChannelChoice(s, 'a/team-lead', undefined);
    expect(s.channelChoice).toEqual({});
  });

  it('marks an optimistic sent message with the channel it was sent over', () => {
    const s = applySent(ready(), { team: 'a', to: 'team-lead', text: 'hi', channel: 'terminal' }, { id: 'm1', status: 'accepted' }, T0);
    expect(s.byTeam.a!.messages[0]).toMatchObject({ id: 'm1', channel: 'terminal' });
  });
});

describe('needs that wait in a hosted terminal', () => {
  it('open that terminal, for a permission prompt and a message Claude holds; elsewhere the lead’s thread', () => {
    const s = ready();
    const need = { id: 'n', team: 'a', member: 'team-lead', title: 't', since: T0 };
    const perm = needTarget(s, { ...need, kind: 'permission', terminal: 't-1' });
    expect(perm).toEqual({ kind: 'terminal', team: 'a', terminal: 't-1' });
    expect(needActionLabel(perm)).toBe('Open terminal');
    expect(needTarget(s, { ...need, kind: 'held', terminal: 't-1' }).kind).toBe('terminal');
    expect(needTarget(s, { ...need, kind: 'permission' })).toEqual({ kind: 'thread', team: 'a', member: 'team-lead' });
  });
});
