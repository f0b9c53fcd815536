import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../../shared/contract';
import type { RosterEntry, ThreadMessage } from '../../../shared/types';
import * as D from './deck-state';
import { threadOf } from './selectors';

const T0 = Date.UTC(2026, 1, 17, 15, 0, 0);

function snap(over: Partial<Snapshot> = {}): Snapshot {
  return {
    teamsRoot: '/r',
    rootSource: 'default',
    alsoLooked: [],
    watching: true,
    teams: [
      { id: 'a', name: 'a', memberCount: 2, problems: [] },
      { id: 'b', name: 'b', memberCount: 1, problems: [] },
    ],
    problems: [],
    settings: { teamsDir: '', idleMinutes: 5, notifications: true },
    queuedCount: 0,
    now: T0,
    canStartDemo: true,
    ...over,
  };
}

let n = 0;
function msg(from: string, to: string, time: number, extra: Partial<ThreadMessage> = {}): ThreadMessage {
  return { id: `id-${++n}`, team: 'a', from, to, text: `t${n}`, timestamp: new Date(time).toISOString(), time, read: false, ...extra };
}

const idleFrame = { type: 'idle_notification' as const, fields: { type: 'idle_notification', idleReason: 'available' } };

function roster(): RosterEntry[] {
  return [
    { name: 'researcher', inboxName: 'researcher', isLead: false, inConfig: true, state: 'active', lastEventAt: T0 - 1000 },
    { name: 'team-lead', inboxName: 'team-lead', isLead: true, inConfig: true, state: 'idle' },
  ];
}

function ready(): D.DeckState {
  return D.applySnapshot(D.initialState({ viewedBaseline: T0 - 60_000, now: 0 }), snap(), T0 - 5000);
}

describe('snapshot', () => {
  it('loads the first state, picks the first team and aligns the clock to the host', () => {
    const s = ready();
    expect(s.phase).toBe('ready');
    expect(s.selectedTeam).toBe('a');
    expect(s.clockOffset).toBe(5000);
    expect(D.tick(s, T0).now).toBe(T0 + 5000);
  });

  it('keeps caches on a snapshot of the same root and drops them when the root changes', () => {
    let s = D.applyRoster(ready(), 'a', roster());
    s = D.applySnapshot(s, snap(), T0);
    expect(s.byTeam.a?.roster).toHaveLength(2);
    s = D.applyEvent(s, { type: 'snapshot', snapshot: snap({ teamsRoot: '/elsewhere', teams: [] }) }, T0);
    expect(s.byTeam).toEqual({});
    expect(s.selectedTeam).toBeUndefined();
  });
});

describe('roster', () => {
  it('selects the lead by default and keeps an explicit choice', () => {
    let s = D.applyRoster(ready(), 'a', roster());
    expect(s.memberByTeam.a).toBe('team-lead');
    s = D.selectMember(s, 'a', 'researcher');
    s = D.applyEvent(s, { type: 'roster', team: 'a', roster: roster() }, T0);
    expect(s.memberByTeam.a).toBe('researcher');
  });

  it('ages presence from messages and marks TERMINATED only on a shutdown approval', () => {
    let s = D.applyRoster(ready(), 'a', roster());
    s = D.applyEvent(s, { type: 'message', team: 'a', message: msg('team-lead', 'user', T0 + 10) }, T0);
    expect(s.byTeam.a!.roster!.find((r) => r.name === 'team-lead')!.lastEventAt).toBe(T0 + 10);
    const approval = { type: 'shutdown_approved' as const, fields: { type: 'shutdown_approved', requestId: 'x' } };
    s = D.applyEvent(s, { type: 'message', team: 'a', message: msg('researcher', 'team-lead', T0 + 20, { frame: approval }) }, T0);
    expect(s.byTeam.a!.roster!.find((r) => r.name === 'researcher')!.state).toBe('terminated');
  });

  it('lists a sender it has not heard of as a member outside the config', () => {
    let s = D.applyRoster(ready(), 'a', roster());
    s = D.applyEvent(s, { type: 'message', team: 'a', message: msg('ghost', 'user', T0) }, T0);
    const ghost = s.byTeam.a!.roster!.find((r) => r.name === 'ghost');
    expect(ghost).toMatchObject({ inConfig: false, state: 'active', lastEventAt: T0 });
  });
});

describe('messages', () => {
  it('keeps time order and ignores a repeated id', () => {
    let s = ready();
    const late = msg('researcher', 'user', T0 + 2000);
    const early = msg('user', 'researcher', T0 + 1000);
    s = D.applyEvent(s, { type: 'message', team: 'a', message: late }, T0);
    s = D.applyEvent(s, { type: 'message', team: 'a', message: early }, T0);
    s = D.applyEvent(s, { type: 'message', team: 'a', message: { ...late } }, T0);
    expect(s.byTeam.a!.messages.map((m) => m.id)).toEqual([early.id, late.id]);
  });

  it('counts unread only for new words from a member to the user, after the last view', () => {
    let s = ready();
    const apply = (m: ThreadMessage) => (s = D.applyEvent(s, { type: 'message', team: 'a', message: m }, T0));
    apply(msg('researcher', 'user', T0));
    apply(msg('researcher', 'user', T0 + 1));
    apply(msg('researcher', 'team-lead', T0 + 2)); // team traffic: feed only
    apply(msg('researcher', 'team-lead', T0 + 3, { frame: idleFrame })); // protocol event
    apply(msg('user', 'researcher', T0 + 4));
    apply(msg('researcher', 'user', T0 - 120_000)); // older than the first-launch baseline
    expect(s.byTeam.a!.unread).toEqual({ researcher: 2 });

    s = D.markViewed(s, 'a', 'researcher');
    expect(s.byTeam.a!.unread.researcher).toBeUndefined();
    expect(s.viewedAt['a/researcher']).toBe(T0 + 1);
    apply(msg('researcher', 'user', T0 + 5));
    expect(s.byTeam.a!.unread.researcher).toBe(1);
  });

  it('recounts unread when a loaded feed brings in older messages', () => {
    let s = ready();
    s = D.applyFeedLoaded(s, 'a', [msg('team-lead', 'user', T0), msg('team-lead', 'user', T0 + 1), msg('team-lead', 'user', T0 - 600_000)]);
    expect(s.byTeam.a!.unread).toEqual({ 'team-lead': 2 });
    expect(s.byTeam.a!.feedLoaded).toBe(0);
  });

  it('merges a loaded thread with messages pushed while it was loading', () => {
    let s = ready();
    const pushed = msg('researcher', 'user', T0 + 5000);
    s = D.applyEvent(s, { type: 'message', team: 'a', message: pushed }, T0);
    const history = [msg('user', 'researcher', T0), msg('researcher', 'user', T0 + 1000), { ...pushed }];
    s = D.applyThreadLoaded(s, 'a', 'researcher', history);
    const thread = threadOf(s.byTeam.a!.messages, 'researcher');
    expect(thread.map((m) => m.id)).toEqual([history[0]!.id, history[1]!.id, pushed.id]);
    expect(s.byTeam.a!.threadLoaded.researcher).toBe(0);
  });
});

describe('thread membership', () => {
  it('holds user<->member words and the member’s own protocol events, not team traffic', () => {
    expect(D.inThread({ from: 'user', to: 'r' }, 'r')).toBe(true);
    expect(D.inThread({ from: 'r', to: 'user' }, 'r')).toBe(true);
    expect(D.inThread({ from: 'r', to: 'team-lead', frame: idleFrame }, 'r')).toBe(true);
    expect(D.inThread({ from: 'r', to: 'team-lead' }, 'r')).toBe(false);
    expect(D.inThread({ from: 'team-lead', to: 'r' }, 'r')).toBe(false);
    expect(D.inThread({ from: 'user', to: 'x' }, 'r')).toBe(false);
  });
});

describe('sending and delivery', () => {
  const req = { team: 'a', to: 'researcher', text: 'hello' };

  it('shows a sent message at once, clears the draft, then advances by delivery events', () => {
    let s = D.setDraft(ready(), 'a', 'researcher', { text: 'hello' });
    s = D.setSending(s, 'a', 'researcher', true);
    s = D.applySent(s, req, { id: 'x1', status: 'queued', reason: 'inbox locked' }, T0);
    expect(s.drafts['a/researcher']).toBeUndefined();
    expect(s.sending['a/researcher']).toBeUndefined();
    let m = s.byTeam.a!.messages.find((x) => x.id === 'x1')!;
    expect(m).toMatchObject({ from: 'user', to: 'researcher', status: 'queued', queuedReason: 'inbox locked' });

    s = D.applyEvent(s, { type: 'delivery', team: 'a', id: 'x1', to: 'researcher', status: 'accepted' }, T0);
    m = s.byTeam.a!.messages.find((x) => x.id === 'x1')!;
    expect(m.status).toBe('accepted');
    expect(m.queuedReason).toBeUndefined();

    s = D.applyEvent(s, { type: 'delivery', team: 'a', id: 'x1', to: 'researcher', status: 'replied' }, T0);
    s = D.applyEvent(s, { type: 'delivery', team: 'a', id: 'x1', to: 'researcher', status: 'read' }, T0); // late, must not regress
    expect(s.byTeam.a!.messages.find((x) => x.id === 'x1')!.status).toBe('replied');

    // The host echoing the message afterwards neither duplicates it nor takes its status back.
    s = D.applyEvent(s, { type: 'message', team: 'a', message: msg('user', 'researcher', T0 + 3, { id: 'x1', text: 'hello', status: 'accepted' }) }, T0);
    const all = s.byTeam.a!.messages.filter((x) => x.id === 'x1');
    expect(all).toHaveLength(1);
    expect(all[0]!.status).toBe('replied');
    expect(all[0]!.time).toBe(T0 + 3);
  });

  it('applies a delivery that arrived before its message', () => {
    let s = ready();
    s = D.applyEvent(s, { type: 'delivery', team: 'a', id: 'x2', to: 'researcher', status: 'read' }, T0);
    s = D.applySent(s, req, { id: 'x2', status: 'accepted' }, T0);
    expect(s.byTeam.a!.messages.find((x) => x.id === 'x2')!.status).toBe('read');
  });

  it('keeps the text and shows the refusal when a send is refused', () => {
    let s = D.setDraft(ready(), 'a', 'researcher', { text: '{"type":"shutdown_request"}' });
    s = D.setSending(s, 'a', 'researcher', true);
    s = D.setSendError(s, 'a', 'researcher', 'looks like a protocol frame');
    expect(s.drafts['a/researcher']!.text).toBe('{"type":"shutdown_request"}');
    expect(s.sendErrors['a/researcher']).toBe('looks like a protocol frame');
    expect(s.sending['a/researcher']).toBeUndefined();
    // Trying again clears the old error.
    expect(D.setSending(s, 'a', 'researcher', true).sendErrors['a/researcher']).toBeUndefined();
  });

  it('keeps a draft per member while switching', () => {
    let s = D.setDraft(ready(), 'a', 'researcher', { text: 'one' });
    s = D.selectMember(s, 'a', 'team-lead');
    s = D.setDraft(s, 'a', 'team-lead', { text: 'two', summary: 's' });
    s = D.selectMember(s, 'a', 'researcher');
    expect(s.drafts['a/researcher']).toEqual({ text: 'one', summary: '' });
    expect(s.drafts['a/team-lead']).toEqual({ text: 'two', summary: 's' });
  });
});

describe('teams, problems and counts', () => {
  it('moves the selection when the selected team disappears', () => {
    let s = D.selectTeam(ready(), 'b');
    s = D.applyEvent(s, { type: 'teams', teams: [{ id: 'a', name: 'a', memberCount: 1, problems: [] }] }, T0);
    expect(s.selectedTeam).toBe('a');
  });

  it('replaces a problem about the same file instead of piling up', () => {
    let s = ready();
    const p = { kind: 'inbox' as const, file: 'a/inboxes/r.json', message: 'bad', preservedAt: 'x' };
    s = D.applyEvent(s, { type: 'problem', problem: p }, T0);
    s = D.applyEvent(s, { type: 'problem', problem: { ...p, message: 'still bad' } }, T0);
    expect(s.problems).toEqual([{ ...p, message: 'still bad' }]);
  });

  it('tracks the queued count', () => {
    expect(D.applyEvent(ready(), { type: 'queued-count', count: 3 }, T0).queuedCount).toBe(3);
  });
});
