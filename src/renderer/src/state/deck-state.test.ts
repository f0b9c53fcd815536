import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../../shared/contract';
import type { RosterEntry, TeamSummary, ThreadMessage } from '../../../shared/types';
import { applySent, setDraft, setSendError, setSending } from './compose-state';
import { type DeckState, initialState, tick } from './deck-state';
import { applyEvent, applySnapshot } from './host-events';
import { applyFeedLoaded, applyThreadLoaded, markViewed } from './messages-state';
import { applyRoster } from './roster-state';
import { selectMember, selectTeam } from './view-state';
import { LEAD_WAITS_NOTE, composeArrival, composeBlock, composeNote, feedOf, memberState, teamGroups, threadOf } from './selectors';

const T0 = Date.UTC(2026, 1, 17, 15, 0, 0);

function team(id: string, over: Partial<TeamSummary> = {}): TeamSummary {
  return { id, name: id, memberCount: 1, problems: [], era: 'legacy', state: 'running', sendAs: 'user', leadReadsInbox: true, ...over };
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

function ready(): DeckState {
  return applySnapshot(initialState({ viewedBaseline: T0 - 60_000, now: 0 }), snap(), T0 - 5000);
}

describe('snapshot', () => {
  it('loads the first state, picks the first team and aligns the clock to the host', () => {
    const s = ready();
    expect(s.phase).toBe('ready');
    expect(s.selectedTeam).toBe('a');
    expect(s.clockOffset).toBe(5000);
    expect(tick(s, T0).now).toBe(T0 + 5000);
  });

  it('keeps caches on a snapshot of the same root and drops them when the root changes', () => {
    let s = applyRoster(ready(), 'a', roster());
    s = applySnapshot(s, snap(), T0);
    expect(s.byTeam.a?.roster).toHaveLength(2);
    s = applyEvent(s, { type: 'snapshot', snapshot: snap({ teamsRoot: '/elsewhere', teams: [] }) }, T0);
    expect(s.byTeam).toEqual({});
    expect(s.selectedTeam).toBeUndefined();
  });
});

describe('roster', () => {
  it('selects the lead by default and keeps an explicit choice', () => {
    let s = applyRoster(ready(), 'a', roster());
    expect(s.memberByTeam.a).toBe('team-lead');
    s = selectMember(s, 'a', 'researcher');
    s = applyEvent(s, { type: 'roster', team: 'a', roster: roster() }, T0);
    expect(s.memberByTeam.a).toBe('researcher');
  });

  it('ages presence from messages and marks TERMINATED only on a shutdown approval', () => {
    let s = applyRoster(ready(), 'a', roster());
    s = applyEvent(s, { type: 'message', team: 'a', message: msg('team-lead', 'user', T0 + 10) }, T0);
    expect(s.byTeam.a!.roster!.find((r) => r.name === 'team-lead')!.lastEventAt).toBe(T0 + 10);
    const approval = { type: 'shutdown_approved' as const, fields: { type: 'shutdown_approved', requestId: 'x' } };
    s = applyEvent(s, { type: 'message', team: 'a', message: msg('researcher', 'team-lead', T0 + 20, { frame: approval }) }, T0);
    expect(s.byTeam.a!.roster!.find((r) => r.name === 'researcher')!.state).toBe('terminated');
  });

  it('lists a sender it has not heard of as a member outside the config', () => {
    let s = applyRoster(ready(), 'a', roster());
    s = applyEvent(s, { type: 'message', team: 'a', message: msg('ghost', 'user', T0) }, T0);
    const ghost = s.byTeam.a!.roster!.find((r) => r.name === 'ghost');
    expect(ghost).toMatchObject({ inConfig: false, state: 'active', lastEventAt: T0 });
  });
});

describe('messages', () => {
  it('keeps time order and ignores a repeated id', () => {
    let s = ready();
    const late = msg('researcher', 'user', T0 + 2000);
    const early = msg('user', 'researcher', T0 + 1000);
    s = applyEvent(s, { type: 'message', team: 'a', message: late }, T0);
    s = applyEvent(s, { type: 'message', team: 'a', message: early }, T0);
    s = applyEvent(s, { type: 'message', team: 'a', message: { ...late } }, T0);
    expect(s.byTeam.a!.messages.map((m) => m.id)).toEqual([early.id, late.id]);
  });

  it('counts unread only for new words from a member to the user, after the last view', () => {
    let s = ready();
    const apply = (m: ThreadMessage) => (s = applyEvent(s, { type: 'message', team: 'a', message: m }, T0));
    apply(msg('researcher', 'user', T0));
    apply(msg('researcher', 'user', T0 + 1));
    apply(msg('researcher', 'team-lead', T0 + 2)); // team traffic: feed only
    apply(msg('researcher', 'team-lead', T0 + 3, { frame: idleFrame })); // protocol event
    apply(msg('user', 'researcher', T0 + 4));
    apply(msg('researcher', 'user', T0 - 120_000)); // older than the first-launch baseline
    expect(s.byTeam.a!.unread).toEqual({ researcher: 2 });

    s = markViewed(s, 'a', 'researcher');
    expect(s.byTeam.a!.unread.researcher).toBeUndefined();
    expect(s.viewedAt['a/researcher']).toBe(T0 + 1);
    apply(msg('researcher', 'user', T0 + 5));
    expect(s.byTeam.a!.unread.researcher).toBe(1);
  });

  it('recounts unread when a loaded feed brings in older messages', () => {
    let s = ready();
    s = applyFeedLoaded(s, 'a', [msg('team-lead', 'user', T0), msg('team-lead', 'user', T0 + 1), msg('team-lead', 'user', T0 - 600_000)]);
    expect(s.byTeam.a!.unread).toEqual({ 'team-lead': 2 });
    expect(s.byTeam.a!.feedLoaded).toBe(0);
  });

  it('merges a loaded thread with messages pushed while it was loading', () => {
    let s = ready();
    const pushed = msg('researcher', 'user', T0 + 5000);
    s = applyEvent(s, { type: 'message', team: 'a', message: pushed }, T0);
    const history = [msg('user', 'researcher', T0), msg('researcher', 'user', T0 + 1000), { ...pushed }];
    s = applyThreadLoaded(s, 'a', 'researcher', history);
    const thread = threadOf(s.byTeam.a!.messages, 'researcher');
    expect(thread.map((m) => m.id)).toEqual([history[0]!.id, history[1]!.id, pushed.id]);
    expect(s.byTeam.a!.threadLoaded.researcher).toBe(0);
  });
});

describe('thread membership', () => {
  /** Whether the window's thread with `member` shows the message (src/shared/threads.ts, with context). */
  const shows = (m: Partial<ThreadMessage>, member: string) => threadOf([m as ThreadMessage], member).length === 1;

  it('holds user<->member words and the member’s own protocol events, not team traffic', () => {
    expect(shows({ from: 'user', to: 'r' }, 'r')).toBe(true);
    expect(shows({ from: 'r', to: 'user' }, 'r')).toBe(true);
    expect(shows({ from: 'r', to: 'team-lead', frame: idleFrame }, 'r')).toBe(true);
    expect(shows({ from: 'r', to: 'team-lead' }, 'r')).toBe(false);
    expect(shows({ from: 'team-lead', to: 'r' }, 'r')).toBe(false);
    expect(shows({ from: 'user', to: 'x' }, 'r')).toBe(false);
  });
});

describe('sending and delivery', () => {
  const req = { team: 'a', to: 'researcher', text: 'hello' };

  it('shows a sent message at once, clears the draft, then advances by delivery events', () => {
    let s = setDraft(ready(), 'a', 'researcher', { text: 'hello' });
    s = setSending(s, 'a', 'researcher', true);
    s = applySent(s, req, { id: 'x1', status: 'queued', reason: 'inbox locked' }, T0);
    expect(s.drafts['a/researcher']).toBeUndefined();
    expect(s.sending['a/researcher']).toBeUndefined();
    let m = s.byTeam.a!.messages.find((x) => x.id === 'x1')!;
    expect(m).toMatchObject({ from: 'user', to: 'researcher', status: 'queued', reason: 'inbox locked', sentAs: 'user' });

    s = applyEvent(s, { type: 'delivery', team: 'a', id: 'x1', to: 'researcher', status: 'accepted' }, T0);
    m = s.byTeam.a!.messages.find((x) => x.id === 'x1')!;
    expect(m.status).toBe('accepted');
    expect(m.reason).toBeUndefined();

    s = applyEvent(s, { type: 'delivery', team: 'a', id: 'x1', to: 'researcher', status: 'replied' }, T0);
    s = applyEvent(s, { type: 'delivery', team: 'a', id: 'x1', to: 'researcher', status: 'seen' }, T0); // late, must not regress
    expect(s.byTeam.a!.messages.find((x) => x.id === 'x1')!.status).toBe('replied');

    // The host echoing the message afterwards neither duplicates it nor takes its status back.
    s = applyEvent(s, { type: 'message', team: 'a', message: msg('user', 'researcher', T0 + 3, { id: 'x1', text: 'hello', status: 'accepted' }) }, T0);
    const all = s.byTeam.a!.messages.filter((x) => x.id === 'x1');
    expect(all).toHaveLength(1);
    expect(all[0]!.status).toBe('replied');
    expect(all[0]!.time).toBe(T0 + 3);
  });

  it('applies a delivery that arrived before its message', () => {
    let s = ready();
    s = applyEvent(s, { type: 'delivery', team: 'a', id: 'x2', to: 'researcher', status: 'taken' }, T0);
    s = applySent(s, req, { id: 'x2', status: 'accepted' }, T0);
    expect(s.byTeam.a!.messages.find((x) => x.id === 'x2')!.status).toBe('taken');
  });

  it('keeps the text and shows the refusal when a send is refused', () => {
    let s = setDraft(ready(), 'a', 'researcher', { text: '{"type":"shutdown_request"}' });
    s = setSending(s, 'a', 'researcher', true);
    s = setSendError(s, 'a', 'researcher', 'looks like a protocol frame');
    expect(s.drafts['a/researcher']!.text).toBe('{"type":"shutdown_request"}');
    expect(s.sendErrors['a/researcher']).toBe('looks like a protocol frame');
    expect(s.sending['a/researcher']).toBeUndefined();
    // Trying again clears the old error.
    expect(setSending(s, 'a', 'researcher', true).sendErrors['a/researcher']).toBeUndefined();
  });

  it('keeps a draft per member while switching', () => {
    let s = setDraft(ready(), 'a', 'researcher', { text: 'one' });
    s = selectMember(s, 'a', 'team-lead');
    s = setDraft(s, 'a', 'team-lead', { text: 'two', summary: 's' });
    s = selectMember(s, 'a', 'researcher');
    expect(s.drafts['a/researcher']).toEqual({ text: 'one', summary: '' });
    expect(s.drafts['a/team-lead']).toEqual({ text: 'two', summary: 's' });
  });
});

describe('teams, problems and counts', () => {
  it('moves the selection when the selected team disappears', () => {
    let s = selectTeam(ready(), 'b');
    s = applyEvent(s, { type: 'teams', teams: [team('a')] }, T0);
    expect(s.selectedTeam).toBe('a');
  });

  it('replaces a problem about the same file instead of piling up', () => {
    let s = ready();
    const p = { kind: 'inbox' as const, file: 'a/inboxes/r.json', message: 'bad', preservedAt: 'x' };
    s = applyEvent(s, { type: 'problem', problem: p }, T0);
    s = applyEvent(s, { type: 'problem', problem: { ...p, message: 'still bad' } }, T0);
    expect(s.problems).toEqual([{ ...p, message: 'still bad' }]);
  });

  it('tracks the queued count', () => {
    expect(applyEvent(ready(), { type: 'queued-count', count: 3 }, T0).queuedCount).toBe(3);
  });
});

describe('delivery states', () => {
  const req = { team: 'a', to: 'researcher', text: 'hello' };
  const deliver = (s: DeckState, id: string, status: ThreadMessage['status'] & string, reason?: string) =>
    applyEvent(s, { type: 'delivery', team: 'a', id, to: 'researcher', status, ...(reason ? { reason } : {}) }, T0);
  const statusOf = (s: DeckState, id: string) => s.byTeam.a!.messages.find((x) => x.id === id);

  it('moves queued → accepted → taken → seen → replied, and never back, in whatever order events come', () => {
    let s = applySent(ready(), req, { id: 'd1', status: 'queued', reason: 'inbox locked' }, T0);
    const seen: string[] = [];
    for (const st of ['accepted', 'taken', 'seen', 'replied'] as const) {
      s = deliver(s, 'd1', st);
      seen.push(statusOf(s, 'd1')!.status!);
    }
    expect(seen).toEqual(['accepted', 'taken', 'seen', 'replied']);

    let r = applySent(ready(), req, { id: 'd2', status: 'accepted' }, T0);
    for (const st of ['seen', 'taken', 'accepted', 'queued'] as const) r = deliver(r, 'd2', st);
    expect(statusOf(r, 'd2')!.status).toBe('seen');
  });

  it('keeps undeliverable final, with its own reason, whatever comes after', () => {
    let s = applySent(ready(), req, { id: 'u1', status: 'queued', reason: 'inbox locked' }, T0);
    s = deliver(s, 'u1', 'undeliverable', 'the team ended before it could be delivered');
    for (const st of ['accepted', 'taken', 'seen', 'replied', 'queued'] as const) s = deliver(s, 'u1', st, 'later');
    // The host echoing the message with an older state changes nothing either.
    s = applyEvent(s, { type: 'message', team: 'a', message: msg('user', 'researcher', T0, { id: 'u1', status: 'accepted' }) }, T0);
    expect(statusOf(s, 'u1')).toMatchObject({ status: 'undeliverable', reason: 'the team ended before it could be delivered' });
    expect(s.byTeam.a!.deliveries.u1).toEqual({ status: 'undeliverable', reason: 'the team ended before it could be delivered' });
  });

  it('never lends a queued message’s reason to its undeliverable state', () => {
    let s = applySent(ready(), req, { id: 'u2', status: 'queued', reason: 'inbox locked' }, T0);
    s = deliver(s, 'u2', 'undeliverable');
    expect(statusOf(s, 'u2')!.status).toBe('undeliverable');
    expect(statusOf(s, 'u2')!.reason).toBeUndefined();
  });

  it('applies an undeliverable that arrived before the send answered', () => {
    let s = deliver(ready(), 'u3', 'undeliverable', 'researcher shut down');
    s = applySent(s, req, { id: 'u3', status: 'queued', reason: 'waiting its turn' }, T0);
    expect(statusOf(s, 'u3')).toMatchObject({ status: 'undeliverable', reason: 'researcher shut down' });
  });

  it('ignores a state this build does not know rather than losing the one it has', () => {
    let s = applySent(ready(), req, { id: 'k1', status: 'accepted' }, T0);
    s = applyEvent(s, { type: 'delivery', team: 'a', id: 'k1', to: 'researcher', status: 'read' as never }, T0);
    expect(statusOf(s, 'k1')!.status).toBe('accepted');
  });

  it('marks a send with the team’s sender name until the host’s echo says for sure', () => {
    let s = applySnapshot(ready(), snap({ teams: [team('a', { era: 'current', sendAs: 'teamdeck' })] }), T0);
    s = applySent(s, req, { id: 's1', status: 'accepted' }, T0);
    expect(statusOf(s, 's1')!.sentAs).toBe('teamdeck');
    s = applyEvent(s, { type: 'message', team: 'a', message: msg('user', 'researcher', T0, { id: 's1', sentAs: 'deck-2', status: 'taken' }) }, T0);
    expect(statusOf(s, 's1')).toMatchObject({ sentAs: 'deck-2', status: 'taken' });
  });
});

describe('current-era messages', () => {
  it('counts a message written as teamdeck as the user’s, in the thread, never unread nor a roster member', () => {
    let s = applyRoster(ready(), 'a', roster());
    const mine = msg('teamdeck', 'researcher', T0 + 10, { sentAs: 'teamdeck', status: 'accepted' });
    s = applyEvent(s, { type: 'message', team: 'a', message: mine }, T0);
    expect(threadOf(s.byTeam.a!.messages, 'researcher').map((m) => m.id)).toEqual([mine.id]);
    expect(s.byTeam.a!.unread).toEqual({});
    expect(s.byTeam.a!.roster!.map((r) => r.name)).not.toContain('teamdeck');
    expect(feedOf(s.byTeam.a!.messages, 'user').map((m) => m.id)).toEqual([mine.id]);
  });

  it('puts an answer found in an idle notification or a transcript in the member’s thread, as unread', () => {
    let s = ready();
    const a1 = msg('researcher', 'team-lead', T0 + 1, { source: 'idle-notification' });
    const a2 = msg('researcher', 'teamdeck', T0 + 2, { source: 'transcript' });
    s = applyEvent(s, { type: 'message', team: 'a', message: a1 }, T0);
    s = applyEvent(s, { type: 'message', team: 'a', message: a2 }, T0);
    expect(threadOf(s.byTeam.a!.messages, 'researcher').map((m) => m.id)).toEqual([a1.id, a2.id]);
    expect(s.byTeam.a!.unread).toEqual({ researcher: 2 });
    expect(feedOf(s.byTeam.a!.messages, 'user')).toHaveLength(2);
  });
});

describe('running and ended teams', () => {
  const teams = [
    team('old', { state: 'ended', endedAt: T0 - 3 * 86_400_000 }),
    team('run-1'),
    team('unknown-end', { state: 'ended' }),
    team('new', { state: 'ended', endedAt: T0 - 60_000 }),
    team('run-2', { era: 'current', sendAs: 'teamdeck' }),
  ];

  it('groups running teams in the host’s order, then ended ones newest first', () => {
    const g = teamGroups(teams);
    expect(g.running.map((t) => t.id)).toEqual(['run-1', 'run-2']);
    expect(g.ended.map((t) => t.id)).toEqual(['new', 'old', 'unknown-end']);
    expect(teamGroups(teams)).toBe(g); // memoized on the array
  });

  it('opens the first running team, else the newest ended one', () => {
    expect(applySnapshot(ready(), snap({ teams, teamsRoot: '/other' }), T0).selectedTeam).toBe('run-1');
    const allEnded = teams.filter((t) => t.state === 'ended');
    expect(applySnapshot(ready(), snap({ teams: allEnded, teamsRoot: '/other' }), T0).selectedTeam).toBe('new');
  });

  it('keeps an open team open, browsable, when it ends', () => {
    let s = selectMember(applyRoster(ready(), 'a', roster()), 'a', 'researcher');
    s = applyEvent(s, { type: 'teams', teams: [team('a', { state: 'ended', endedAt: T0 }), team('b')] }, T0);
    expect(s.selectedTeam).toBe('a');
    expect(s.memberByTeam.a).toBe('researcher');
    expect(memberState(s, 'a', s.byTeam.a!.roster![0])).toBe('terminated');
    expect(memberState(s, 'b', s.byTeam.a!.roster![0])).toBe('active');
  });
});

describe('compose, as a pure selector', () => {
  const at = new Date(T0);
  at.setHours(14, 31, 0, 0);
  const endedAt = at.getTime();
  const now = endedAt + 60 * 60_000;
  const withTeams = (...ts: TeamSummary[]) => ({ ...applyRoster(applySnapshot(ready(), snap({ teams: ts }), T0), ts[0]!.id, roster()), now });
  const clock = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(endedAt);

  it('says when and why an ended team takes nothing', () => {
    const s = withTeams(team('a', { state: 'ended', endedAt, endedReason: 'the lead exited and Claude removed the team folder' }));
    expect(composeBlock(s, 'a', 'researcher')).toEqual({
      kind: 'ended',
      text: `This team ended ${clock}: the lead exited and Claude removed the team folder. Its history stays here; nothing can be sent.`,
    });
    expect(composeBlock(withTeams(team('a', { state: 'ended' })), 'a', 'researcher')!.text).toBe('This team ended. Its history stays here; nothing can be sent.');
    expect(composeBlock({ ...s, now: endedAt + 86_400_000 }, 'a', 'researcher')!.text).toContain(`ended yesterday ${clock}:`);
  });

  it('gives a shut-down member’s reason, and nothing for a member who can be reached', () => {
    let s = withTeams(team('a'));
    expect(composeBlock(s, 'a', 'researcher')).toBeUndefined();
    const approval = { type: 'shutdown_approved' as const, fields: { type: 'shutdown_approved', requestId: 'x' } };
    s = { ...applyEvent(s, { type: 'message', team: 'a', message: msg('researcher', 'team-lead', T0, { frame: approval }) }, T0), now };
    expect(composeBlock(s, 'a', 'researcher')).toEqual({
      kind: 'terminated',
      text: 'researcher approved its shutdown, so nothing reads its inbox any more. The history stays here.',
    });
    // The team's end is the bigger fact: it wins over the member's.
    const ended = { ...s, teams: [team('a', { state: 'ended' })] };
    expect(composeBlock(ended, 'a', 'researcher')!.kind).toBe('ended');
  });

  it('warns that a current lead with no teammates of its own will not read the message yet', () => {
    const waits = withTeams(team('a', { era: 'current', sendAs: 'teamdeck', leadReadsInbox: false }));
    expect(composeNote(waits, 'a', 'team-lead')).toBe(LEAD_WAITS_NOTE);
    expect(composeNote(waits, 'a', 'researcher')).toBeUndefined();
    expect(composeNote(withTeams(team('a', { era: 'current', sendAs: 'teamdeck' })), 'a', 'team-lead')).toBeUndefined();
    expect(composeNote(withTeams(team('a', { leadReadsInbox: false })), 'a', 'team-lead')).toBeUndefined();
  });

  it('says how the message will arrive, per era', () => {
    const cur = withTeams(team('a', { era: 'current', sendAs: 'teamdeck' }));
    expect(composeArrival(cur, 'a', 'researcher')).toEqual({
      label: 'as teamdeck, a teammate message',
      hint: 'Goes to researcher’s inbox as teamdeck: Claude shows it to the model as a teammate message.',
    });
    expect(composeArrival(cur, 'a', 'team-lead')!.hint).toMatch(/another Claude session/);
    expect(composeArrival(withTeams(team('a')), 'a', 'researcher')!.label).toBe('as user');
    expect(composeArrival(cur, 'nope', 'researcher')).toBeUndefined();
  });
});
