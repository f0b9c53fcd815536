// An in-memory TeamdeckApi for tests and the development harness. Never imported by the shipped
// entry (main.tsx). It behaves like the host as far as the UI can tell: one snapshot, then events;
// sends are refused, accepted or queued, and accepted ones advance to taken, seen and replied.
// The demo holds both eras: legacy named teams (`from:"user"`, answers in the user inbox) and
// current `session-<8>` teams (sent as `teamdeck`, answers from idle notifications and
// transcripts), running and ended, with an undeliverable message, and hosted lead terminals
// (fake-terminals.ts): one running for a session team, and launching makes more.
import type { AppEvent, Result, SearchHit, Settings, Snapshot, TeamdeckApi } from '../../../shared/contract';
import type {
  DeliveryStatus,
  Frame,
  FrameType,
  RosterEntry,
  SendRequest,
  SendResult,
  TeamProblem,
  TeamSummary,
  ThreadMessage,
} from '../../../shared/types';
import { inThread as threadRule } from '../../../shared/threads';
// The host's own export builder (pure: no Node), so the fake's files have the real shape.
import { buildExport } from '../../../engine/history/export';
import { DEFAULT_SENDER_NAME, senderNameProblem } from '../lib/sender-name';
import { createFakeLive, type FakeLive } from './fake-live';
import { createFakeTerminals, type FakeTerminals } from './fake-terminals';

export type FakeScenario = 'demo' | 'empty' | 'big';

export interface FakeApiOptions {
  scenario?: FakeScenario;
  now?: () => number;
  /** Simulated latency of every call, in ms. */
  latencyMs?: number;
  /** Time between delivery steps (accepted -> taken -> seen -> replied); 0 turns the progression off. */
  stepMs?: number;
  /** Messages in the researcher thread for the 'big' scenario. */
  bigCount?: number;
  /** Every liveMs a member's running tool call finishes and the next starts; 0 (the default) keeps activity still. */
  liveMs?: number;
  /** Whether the host can launch teams (default yes); when not, this is the reason given. */
  launchUnavailable?: string;
}

export interface FakeApi extends TeamdeckApi {
  /** Pushes an event as the host would. */
  emit(ev: AppEvent): void;
  /** Adds a message to a team as if it had been seen in an inbox, and pushes it. */
  deliver(team: string, msg: Omit<ThreadMessage, 'id' | 'team' | 'timestamp' | 'read'> & { id?: string }): ThreadMessage;
  /** Every send the fake received, refused or not. */
  readonly sent: SendRequest[];
  /**
   * Ends a team as the host sees it when the lead exits: it stays listed as ended, and whatever
   * had not been taken yet turns undeliverable.
   */
  endTeam(team: string, reason?: string): void;
  /** Activity, timelines, tasks and needs, as the host keeps them; its setters push the events. */
  readonly live: FakeLive | undefined;
  /** The hosted terminals: echo what is typed; tests make a lead exit through it. */
  readonly terminals: FakeTerminals;
  stopTimers(): void;
}

interface FakeTeam {
  summary: TeamSummary;
  roster: RosterEntry[];
  messages: ThreadMessage[];
}

const MIN = 60_000;
const HOUR = 60 * MIN;

function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

function fail<T>(code: 'refused' | 'invalid' | 'not_found' | 'internal', message: string): Result<T> {
  return { ok: false, error: { code, message } };
}

function looksLikeFrame(text: string): boolean {
  const t = text.trim();
  if (!t.startsWith('{')) return false;
  try {
    const v = JSON.parse(t) as Record<string, unknown>;
    return !!v && typeof v === 'object' && Object.keys(v).some((k) => k.trim().toLowerCase() === 'type');
  } catch {
    return false;
  }
}

export function createFakeApi(opts: FakeApiOptions = {}): FakeApi {
  const now = opts.now ?? (() => Date.now());
  const latency = opts.latencyMs ?? 0;
  const stepMs = opts.stepMs ?? 1500;
  const scenario = opts.scenario ?? 'demo';
  const listeners = new Set<(ev: AppEvent) => void>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const teams = new Map<string, FakeTeam>();
  const sent: SendRequest[] = [];
  let seq = 0;
  let teamsRoot = '/home/me/.claude/teams';
  let settings: Settings = { teamsDir: '', idleMinutes: 5, notifications: true, senderName: DEFAULT_SENDER_NAME, needsNotifications: true, claudePath: '' };
  let live: FakeLive | undefined;
  /** Ids of the demo's messages that the needs queue points at. */
  const refs: { takenId?: string; queuedId?: string; leadTerminal?: string } = {};
  const problems: TeamProblem[] = [];
  let queued = 0;

  const later = (ms: number, f: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      f();
    }, ms);
    timers.add(t);
  };
  const answer = <T>(r: Result<T>): Promise<Result<T>> =>
    latency > 0 ? new Promise((res) => later(latency, () => res(r))) : Promise.resolve(r);
  const emit = (ev: AppEvent) => {
    for (const l of [...listeners]) l(ev);
  };
  const terms = createFakeTerminals({
    now,
    emit,
    later,
    stepMs: stepMs > 0 ? stepMs : 0,
    makeTeam: (terminal) => {
      const id = `session-${terminal.id.slice(-8)}`;
      const at = now();
      teams.set(id, {
        summary: current(id, { createdAt: at, terminal: terminal.id, leadReadsInbox: false }),
        roster: [member('team-lead', { isLead: true, agentType: 'team-lead', model: 'opus', cwd: terminal.cwd, joinedAt: at, lastEventAt: at, backendType: 'in-process' })],
        messages: [],
      });
      emit({ type: 'teams', teams: [...teams.values()].map(summaryOf) });
      return id;
    },
  });

  const makeMsg = (team: string, from: string, to: string, text: string, time: number, extra: Partial<ThreadMessage> = {}): ThreadMessage => ({
    id: extra.id ?? `m-${++seq}`,
    team,
    from,
    to,
    text,
    timestamp: new Date(time).toISOString(),
    time,
    read: false,
    ...extra,
  });
  const frameMsg = (team: string, from: string, to: string, type: FrameType, fields: Record<string, unknown>, time: number) => {
    const all = { type, from, timestamp: new Date(time).toISOString(), ...fields };
    const frame: Frame = { type, fields: all };
    return makeMsg(team, from, to, JSON.stringify(all), time, { frame });
  };
  const summaryOf = (t: FakeTeam): TeamSummary => ({ ...t.summary, memberCount: t.roster.filter((r) => r.inConfig).length });

  const member = (name: string, extra: Partial<RosterEntry>): RosterEntry => ({
    name,
    inboxName: name,
    isLead: false,
    inConfig: true,
    state: 'active',
    ...extra,
  });

  const legacy = (id: string, name: string, extra: Partial<TeamSummary> = {}): TeamSummary => ({
    id,
    name,
    memberCount: 0,
    problems: [],
    era: 'legacy',
    state: 'running',
    sendAs: 'user',
    leadReadsInbox: true,
    ...extra,
  });
  const current = (id: string, extra: Partial<TeamSummary> = {}): TeamSummary => ({
    id,
    name: id,
    memberCount: 0,
    problems: [],
    era: 'current',
    state: 'running',
    sendAs: settings.senderName,
    leadReadsInbox: true,
    ...extra,
  });
  /** A message the user sent, as the host reports it: the name it was written under, and its state. */
  const sentMsg = (team: string, to: string, text: string, time: number, status: DeliveryStatus, extra: Partial<ThreadMessage> = {}) => {
    const sendAs = teams.get(team)?.summary.sendAs ?? 'user';
    return makeMsg(team, 'user', to, text, time, { status, sentAs: sendAs, ...extra });
  };

  function seedDemo(bigCount: number) {
    const t0 = now();
    const id = 'analysis';
    const m: ThreadMessage[] = [];
    const day1 = t0 - 26 * HOUR;
    const answer = (from: string, text: string, time: number, extra: Partial<ThreadMessage> = {}) =>
      makeMsg(id, from, 'user', text, time, { source: 'user-inbox', ...extra });
    // The team's summary first: sentMsg reads its sender name.
    teams.set(id, { summary: legacy(id, 'analysis', { description: 'Auth review', createdAt: day1 - HOUR }), roster: [], messages: m });
    m.push(sentMsg(id, 'team-lead', 'Please split the auth review between researcher and implementer.', day1, 'replied'));
    m.push(answer('team-lead', 'Done. **researcher** reads the code, **implementer** fixes. I will report back.', day1 + 2 * MIN, { summary: 'Work split' }));
    m.push(makeMsg(id, 'team-lead', 'researcher', 'Review `src/auth.ts` for the session bug.', day1 + 3 * MIN));
    m.push(frameMsg(id, 'researcher', 'team-lead', 'plan_approval_request', { planFilePath: 'plans/auth.md', planContent: '1. read\n2. fix', requestId: 'p-1' }, day1 + 5 * MIN));
    m.push(frameMsg(id, 'team-lead', 'researcher', 'plan_approval_response', { requestId: 'p-1', approved: true }, day1 + 6 * MIN));
    const base = t0 - 40 * MIN;
    if (bigCount > 0) {
      for (let i = 0; i < bigCount; i++) {
        const at = t0 - 50 * MIN - (bigCount - i) * 37_000;
        const fromUser = i % 3 === 0;
        m.push(
          fromUser
            ? sentMsg(id, 'researcher', `Question ${i}: what about case ${i}?`, at, 'replied')
            : answer('researcher', i % 10 === 1 ? `Result ${i}:\n\n- checked \`case_${i}\`\n- no regressions\n\n\`\`\`ts\nexpect(run(${i})).toBe(true);\n\`\`\`` : `Answer ${i}: looks fine.`, at),
        );
      }
    }
    m.push(answer('researcher', 'Found the bug in `auth.ts`: the session token is refreshed **after** the expiry check.\n\n```ts\nif (isExpired(token)) logout();\ntoken = refresh(token); // too late\n```\n\nSee [RFC 6749 §6](https://www.rfc-editor.org/rfc/rfc6749#section-6).', base, { summary: 'Bug found in auth.ts' }));
    m.push(sentMsg(id, 'researcher', 'please fix it and add a test', base + 1 * MIN, 'seen'));
    m.push(makeMsg(id, 'researcher', 'implementer', 'Can you take the fix? I will write the test.', base + 2 * MIN));
    m.push(makeMsg(id, 'implementer', 'researcher', 'Yes, on it.', base + 3 * MIN));
    m.push(frameMsg(id, 'researcher', 'team-lead', 'idle_notification', { idleReason: 'available', completedTaskId: '3', completedStatus: 'resolved' }, base + 9 * MIN));
    const stillQueued = sentMsg(id, 'researcher', 'also check logout', base + 10 * MIN, 'queued', { reason: 'inbox is locked by another writer' });
    refs.queuedId = stillQueued.id;
    m.push(stillQueued);
    m.push(answer('researcher', 'Things I checked:\n\n1. token refresh order\n2. logout clears the cookie\n3. raw HTML stays text: <img src=x onerror=alert(1)>', base + 12 * MIN));
    m.push(answer('researcher', 'Test added in `auth.test.ts`; all green.', t0 - 2 * MIN, { summary: 'Test added' }));
    m.push(frameMsg(id, 'team-lead', 'tester', 'shutdown_request', { requestId: 's-1', reason: 'work done' }, t0 - 30 * MIN));
    m.push(frameMsg(id, 'tester', 'team-lead', 'shutdown_approved', { requestId: 's-1', paneId: '%4', backendType: 'tmux' }, t0 - 29 * MIN));
    m.push(answer('tester', 'All 214 tests pass. Shutting down.', t0 - 31 * MIN));
    m.push(sentMsg(id, 'implementer', 'ping me when the fix is merged', t0 - 15 * MIN, 'accepted'));
    m.sort((a, b) => a.time - b.time);
    teams.get(id)!.roster = [
      member('team-lead', { isLead: true, agentType: 'team-lead', model: 'opus', cwd: '/home/me/proj', joinedAt: day1 - HOUR, lastEventAt: t0 - 8 * MIN, backendType: 'in-process' }),
      member('researcher', { agentType: 'general-purpose', model: 'sonnet', color: 'blue', cwd: '/home/me/proj', joinedAt: day1 - 50 * MIN, lastEventAt: t0 - 2 * MIN, backendType: 'tmux' }),
      member('implementer', { agentType: 'general-purpose', model: 'sonnet', color: 'green', cwd: '/home/me/proj', joinedAt: day1 - 50 * MIN, lastEventAt: t0 - 4 * MIN - 30_000, backendType: 'tmux' }),
      member('tester', { agentType: 'general-purpose', model: 'haiku', inConfig: false, state: 'terminated', lastEventAt: t0 - 29 * MIN }),
    ];

    const d = 'docs-sprint';
    const dt = t0 - 3 * HOUR;
    teams.set(d, {
      summary: legacy(d, 'docs sprint', { createdAt: dt }),
      roster: [
        member('team-lead', { isLead: true, agentType: 'team-lead', model: 'opus', cwd: '/home/me/docs', joinedAt: dt, lastEventAt: dt + HOUR }),
        member('doc-writer-1', { agentType: 'general-purpose', model: 'sonnet', cwd: '/home/me/docs', joinedAt: dt + MIN, lastEventAt: dt + 2 * HOUR }),
      ],
      messages: [
        makeMsg(d, 'doc-writer-1', 'user', 'Draft of the *Getting started* page is ready for review.', dt + 2 * HOUR, { source: 'user-inbox' }),
        frameMsg(d, 'doc-writer-1', 'team-lead', 'idle_notification', { idleReason: 'available' }, dt + 2 * HOUR + MIN),
      ],
    });

    seedCurrent(t0);
    problems.push({
      kind: 'inbox',
      file: 'analysis/inboxes/implementer.json',
      message: 'Inbox is not valid JSON (unexpected end of input)',
      preservedAt: '.teamdeck/preserved/analysis/implementer.json.bak',
    });
    queued = 1;
  }

  /** Current Claude Code: one running session team with teammates, one whose lead has none yet, two ended. */
  function seedCurrent(t0: number) {
    const idle = (team: string, from: string, result: string, time: number) =>
      frameMsg(team, from, 'team-lead', 'idle_notification', { idleReason: 'available', result }, time);

    const a = 'session-7ec79863';
    const at = t0 - 55 * MIN;
    // Launched from Teamdeck: its lead runs in a hosted terminal.
    const leadTerminal = terms.seed(a, '/home/me/proj', at);
    refs.leadTerminal = leadTerminal.id;
    teams.set(a, { summary: current(a, { createdAt: at, terminal: leadTerminal.id }), roster: [], messages: [] });
    const am = teams.get(a)!.messages;
    am.push(sentMsg(a, 'team-lead', 'Have researcher look at the logout flow, and tester run the e2e suite after.', at + 2 * MIN, 'replied'));
    am.push(makeMsg(a, 'team-lead', 'researcher', 'Look at logout: does it cancel the token refresh?', at + 3 * MIN));
    am.push(sentMsg(a, 'researcher', 'also check that logout cancels the refresh timer', at + 20 * MIN, 'seen'));
    const result = 'Done: logout cancels the refresh timer now (`auth.ts:88`), and a test covers it.';
    am.push(idle(a, 'researcher', result, at + 31 * MIN));
    am.push(makeMsg(a, 'researcher', 'user', result, at + 31 * MIN, { source: 'idle-notification' }));
    am.push(sentMsg(a, 'tester', 'run the e2e suite once researcher is done', at + 33 * MIN, 'replied'));
    am.push(makeMsg(a, 'tester', 'user', 'Running the e2e suite now: 3 of 12 specs done, all green so far.', at + 40 * MIN, { source: 'transcript' }));
    const taken = sentMsg(a, 'researcher', 'and the remember-me cookie?', t0 - 3 * MIN, 'taken');
    refs.takenId = taken.id;
    am.push(taken);
    am.sort((x, y) => x.time - y.time);
    teams.get(a)!.roster = [
      member('team-lead', { isLead: true, agentType: 'team-lead', model: 'opus', cwd: '/home/me/proj', joinedAt: at, lastEventAt: t0 - 6 * MIN, backendType: 'in-process' }),
      member('researcher', { agentType: 'general-purpose', model: 'sonnet', color: 'blue', cwd: '/home/me/proj', joinedAt: at + MIN, lastEventAt: t0 - MIN, backendType: 'in-process' }),
      member('tester', { agentType: 'general-purpose', model: 'haiku', color: 'yellow', cwd: '/home/me/proj', joinedAt: at + MIN, lastEventAt: t0 - 15 * MIN, backendType: 'in-process' }),
    ];

    const b = 'session-40c1f2aa';
    const bt = t0 - 12 * MIN;
    teams.set(b, { summary: current(b, { createdAt: bt, leadReadsInbox: false }), roster: [], messages: [] });
    teams.get(b)!.messages.push(sentMsg(b, 'team-lead', 'When you start on the refactor, spawn a tester first.', bt + 4 * MIN, 'accepted'));
    teams.get(b)!.roster = [
      member('team-lead', { isLead: true, agentType: 'team-lead', model: 'opus', cwd: '/home/me/other', joinedAt: bt, lastEventAt: bt + MIN, backendType: 'in-process' }),
    ];

    // Ended yesterday evening: its history stays browsable; one message never made it.
    const c = 'session-1a2b3c4d';
    const endedAt = new Date(t0);
    endedAt.setDate(endedAt.getDate() - 1);
    endedAt.setHours(18, 20, 0, 0);
    const ce = endedAt.getTime();
    const ct = ce - 2 * HOUR;
    teams.set(c, {
      summary: current(c, { createdAt: ct, state: 'ended', endedAt: ce, endedReason: 'the lead exited and Claude removed the team folder' }),
      roster: [],
      messages: [],
    });
    const cm = teams.get(c)!.messages;
    cm.push(sentMsg(c, 'implementer', 'Move the token store behind one interface.', ct + 5 * MIN, 'replied'));
    const done = 'Token store now sits behind `TokenStore`; the two callers use it. Tests pass.';
    cm.push(idle(c, 'implementer', done, ct + 70 * MIN));
    cm.push(makeMsg(c, 'implementer', 'user', done, ct + 70 * MIN, { source: 'idle-notification' }));
    cm.push(sentMsg(c, 'team-lead', 'Wrap up for today, thanks.', ct + 100 * MIN, 'seen'));
    cm.push(
      sentMsg(c, 'reviewer', 'Please review the token store change when it lands.', ce - 30_000, 'undeliverable', {
        reason: 'the team ended before it could be delivered',
      }),
    );
    teams.get(c)!.roster = [
      member('team-lead', { isLead: true, agentType: 'team-lead', model: 'opus', cwd: '/home/me/proj', joinedAt: ct, lastEventAt: ce - MIN, backendType: 'in-process' }),
      member('implementer', { agentType: 'general-purpose', model: 'sonnet', color: 'green', cwd: '/home/me/proj', joinedAt: ct + MIN, lastEventAt: ct + 70 * MIN, backendType: 'in-process' }),
      member('reviewer', { agentType: 'general-purpose', model: 'sonnet', color: 'purple', cwd: '/home/me/proj', joinedAt: ct + MIN, lastEventAt: ct + 2 * MIN, backendType: 'in-process' }),
    ];

    const e = 'session-09f3e1b7';
    const ee = t0 - 4 * 24 * HOUR;
    teams.set(e, {
      summary: current(e, { createdAt: ee - HOUR, state: 'ended', endedAt: ee, endedReason: 'its lead’s process is gone; Claude left the team folder behind' }),
      roster: [member('team-lead', { isLead: true, agentType: 'team-lead', model: 'opus', cwd: '/home/me/scratch', joinedAt: ee - HOUR, lastEventAt: ee - 5 * MIN })],
      messages: [sentMsg(e, 'team-lead', 'Try the flaky test ten times and tell me the failure rate.', ee - 40 * MIN, 'seen')],
    });
  }

  const startLive = () => {
    live = createFakeLive(
      { now, emit, later, liveMs: opts.liveMs ?? 0 },
      {
        ...refs,
        teams: [...teams.values()].map((t) => ({
          id: t.summary.id,
          legacy: t.summary.era === 'legacy',
          ended: t.summary.state === 'ended',
          members: t.roster.map((r) => r.name),
        })),
      },
    );
  };

  if (scenario !== 'empty') {
    seedDemo(scenario === 'big' ? (opts.bigCount ?? 10_000) : 0);
    startLive();
  }

  const snapshot = (): Snapshot => ({
    teamsRoot,
    rootSource: settings.teamsDir ? 'setting' : 'default',
    alsoLooked: ['$CLAUDE_CONFIG_DIR/teams (not set)', '/home/me/.config/claude/teams'],
    watching: true,
    teams: [...teams.values()].map(summaryOf),
    problems: [...problems],
    settings,
    queuedCount: queued,
    now: now(),
    canStartDemo: true,
    terminals: terms.list(),
    launch: opts.launchUnavailable ? { available: false, reason: opts.launchUnavailable } : { available: true, backend: 'tmux' },
  });

  const findTeam = (team: string) => teams.get(team);

  function push(team: FakeTeam, msg: ThreadMessage) {
    team.messages.push(msg);
    const r = team.roster.find((x) => x.name === msg.from);
    if (r && msg.time > (r.lastEventAt ?? 0)) r.lastEventAt = msg.time;
    emit({ type: 'message', team: team.summary.id, message: { ...msg } });
  }

  /** Moves a sent message on, as watching would; an undeliverable message or an ended team stays put. */
  function setStatus(team: FakeTeam, id: string, to: string, status: DeliveryStatus, reason?: string) {
    const msg = team.messages.find((x) => x.id === id);
    if (msg?.status === 'undeliverable') return;
    if (team.summary.state === 'ended' && status !== 'undeliverable') return;
    if (msg) {
      msg.status = status;
      if (reason) msg.reason = reason;
      else delete msg.reason;
    }
    emit({ type: 'delivery', team: team.summary.id, id, to, status, ...(reason ? { reason } : {}) });
  }

  const UNDELIVERABLE_ENDED = 'the team ended before it could be delivered';

  function endTeam(teamId: string, reason = 'the lead exited and Claude removed the team folder') {
    const t = findTeam(teamId);
    if (!t || t.summary.state === 'ended') return;
    for (const m of t.messages) {
      if (m.status !== 'queued' && m.status !== 'accepted') continue;
      if (m.status === 'queued') queued = Math.max(0, queued - 1);
      setStatus(t, m.id, m.to, 'undeliverable', UNDELIVERABLE_ENDED);
    }
    t.summary = { ...t.summary, state: 'ended', endedAt: now(), endedReason: reason };
    emit({ type: 'queued-count', count: queued });
    emit({ type: 'teams', teams: [...teams.values()].map(summaryOf) });
    live?.ended(teamId);
  }

  const api: FakeApi = {
    sent,
    emit,
    endTeam,
    get live() {
      return live;
    },
    terminals: terms,
    stopTimers() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
    deliver(teamId, partial) {
      const team = findTeam(teamId);
      if (!team) throw new Error(`no team ${teamId}`);
      const msg = makeMsg(teamId, partial.from, partial.to, partial.text, partial.time, partial);
      push(team, msg);
      return msg;
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => answer(ok(snapshot())),
    getRoster(team) {
      const t = findTeam(team);
      return answer(t ? ok(t.roster.map((r) => ({ ...r }))) : fail('not_found', `No team "${team}"`));
    },
    getThread(team, memberName) {
      const t = findTeam(team);
      if (!t) return answer(fail('not_found', `No team "${team}"`));
      return answer(ok(t.messages.filter((m) => threadRule(m, memberName, { context: true })).map((m) => ({ ...m }))));
    },
    getFeed(team) {
      const t = findTeam(team);
      return answer(t ? ok(t.messages.map((m) => ({ ...m }))) : fail('not_found', `No team "${team}"`));
    },
    send(req) {
      sent.push(req);
      const t = findTeam(req.team);
      if (!t) return answer(fail('not_found', `No team "${req.team}"`));
      if (t.summary.state === 'ended') return answer(fail('refused', `${t.summary.name} has ended; nothing can be sent to it.`));
      const target = t.roster.find((r) => r.name === req.to);
      if (!target) return answer(fail('refused', `${req.to} is not a member of ${t.summary.name}`));
      if (!req.text.trim()) return answer(fail('refused', 'The message is empty.'));
      if (looksLikeFrame(req.text)) return answer(fail('refused', 'This text looks like a protocol frame (a JSON object with a "type"); teammates would read it as a command, so it was not sent.'));
      if (target.state === 'terminated') return answer(fail('refused', `${req.to} has shut down; nothing reads its inbox any more.`));
      const at = now();
      const isQueued = req.to === 'implementer';
      const era = t.summary.era;
      const result: SendResult = isQueued
        ? { id: `s-${++seq}`, status: 'queued', reason: 'inbox unreadable; its bytes were kept' }
        : { id: `s-${++seq}`, status: 'accepted' };
      // The channel asked for, else the member's preferred one; the terminal channel types it in.
      const channel = era === 'legacy' ? undefined : (req.channel ?? terms.channels(summaryOf(t), req.to, target.isLead, target.backendType).find((o) => o.preferred)?.kind);
      if (channel === 'terminal' && t.summary.terminal) terms.typeTurn(t.summary.terminal, target.isLead ? req.text : `@${req.to} ${req.text}`);
      const msg = makeMsg(req.team, 'user', req.to, req.text, at, {
        id: result.id,
        status: result.status,
        sentAs: t.summary.sendAs,
        ...(channel ? { channel } : {}),
        ...(req.summary ? { summary: req.summary } : {}),
        ...(result.reason ? { reason: result.reason } : {}),
      });
      t.messages.push(msg);
      if (isQueued) {
        queued++;
        emit({ type: 'queued-count', count: queued });
      }
      // A current lead with no teammates of its own does not read its inbox: the message waits.
      const waits = era === 'current' && target.isLead && !t.summary.leadReadsInbox;
      if (stepMs > 0 && !waits) {
        const steps: [number, () => void][] = [];
        if (isQueued)
          steps.push([3 * stepMs, () => {
            if (t.summary.state === 'ended') return;
            queued = Math.max(0, queued - 1);
            setStatus(t, result.id, req.to, 'accepted');
            emit({ type: 'queued-count', count: queued });
          }]);
        const off = isQueued ? 3 * stepMs : 0;
        steps.push([off + stepMs, () => setStatus(t, result.id, req.to, 'taken')]);
        steps.push([off + 2 * stepMs, () => {
          setStatus(t, result.id, req.to, 'seen');
          live?.received(req.team, req.to, t.summary.sendAs, req.text);
        }]);
        steps.push([off + 3 * stepMs, () => {
          if (t.summary.state === 'ended') return;
          const text = `On it: _${req.text.slice(0, 60)}_`;
          if (era === 'current') {
            push(t, frameMsg(req.team, req.to, 'team-lead', 'idle_notification', { idleReason: 'available', result: text }, now()));
            push(t, makeMsg(req.team, req.to, 'user', text, now(), { source: 'idle-notification' }));
          } else {
            push(t, makeMsg(req.team, req.to, 'user', text, now(), { source: 'user-inbox' }));
          }
          setStatus(t, result.id, req.to, 'replied');
          live?.answered(req.team, req.to, text);
          emit({ type: 'roster', team: req.team, roster: t.roster.map((r) => ({ ...r })) });
        }]);
        for (const [ms, f] of steps) later(ms, f);
      }
      return answer(ok(result));
    },
    getSettings: () => answer(ok(settings)),
    setSettings(patch) {
      const problem = patch.senderName === undefined ? undefined : senderNameProblem(patch.senderName);
      if (problem) return answer(fail('refused', problem));
      const renamed = patch.senderName !== undefined && patch.senderName !== settings.senderName;
      settings = { ...settings, ...patch };
      if (renamed) {
        // Only current teams take the name; what was already sent keeps the name it went under.
        for (const t of teams.values()) if (t.summary.era === 'current') t.summary = { ...t.summary, sendAs: settings.senderName };
        later(0, () => emit({ type: 'teams', teams: [...teams.values()].map(summaryOf) }));
      }
      if (patch.teamsDir !== undefined) {
        teamsRoot = patch.teamsDir || '/home/me/.claude/teams';
        later(0, () => emit({ type: 'snapshot', snapshot: snapshot() }));
      }
      return answer(ok(settings));
    },
    startDemo() {
      if (teams.size === 0) {
        seedDemo(0);
        startLive();
      }
      later(0, () => emit({ type: 'teams', teams: [...teams.values()].map(summaryOf) }));
      return answer(ok({ teamsRoot, team: 'analysis' }));
    },
    openExternal(url) {
      if (!/^https?:\/\//i.test(url)) return answer(fail('invalid', 'Only http(s) links open externally.'));
      return answer(ok(null));
    },
    getActivity(team) {
      if (!findTeam(team)) return answer(fail('not_found', `No team "${team}"`));
      return answer(ok(live?.getActivity(team) ?? []));
    },
    getTimeline(team, memberName, limit) {
      if (!findTeam(team)) return answer(fail('not_found', `No team "${team}"`));
      return answer(ok(live?.getTimeline(team, memberName, limit) ?? []));
    },
    getTasks(team) {
      if (!findTeam(team)) return answer(fail('not_found', `No team "${team}"`));
      return answer(ok(live?.getTasks(team) ?? { team, list: team, exists: false, tasks: [], problems: [] }));
    },
    getNeeds: () => answer(ok(live?.getNeeds() ?? [])),
    getChannels(team, memberName) {
      const t = findTeam(team);
      if (!t) return answer(fail('not_found', `No team "${team}"`));
      const entry = t.roster.find((r) => r.name === memberName);
      if (!entry) return answer(fail('not_found', `${memberName} is not a member of ${t.summary.name}`));
      return answer(ok(terms.channels(summaryOf(t), memberName, entry.isLead, entry.backendType)));
    },
    launchTeam(req) {
      if (opts.launchUnavailable) return answer(fail('refused', opts.launchUnavailable));
      return answer(terms.launch(req));
    },
    getTerminals: () => answer(ok(terms.list())),
    attachTerminal: (id, cols, rows) => answer(terms.attach(id, cols, rows)),
    terminalInput: (id, data) => answer(terms.input(id, data)),
    resizeTerminal: (id, cols, rows) => answer(terms.resize(id, cols, rows)),
    detachTerminal: (id) => answer(terms.detach(id)),
    closeTerminal: (id) => answer(terms.close(id)),
    exportConversation(req) {
      const t = findTeam(req.team);
      if (!t) return answer(fail('not_found', `No team "${req.team}"`));
      const member = req.member === undefined ? undefined : t.roster.find((r) => r.name === req.member);
      if (req.member !== undefined && !member) return answer(fail('not_found', `${req.member} is not a member of ${t.summary.name}`));
      const messages = member ? t.messages.filter((m) => threadRule(m, member.name, { context: true })) : t.messages;
      return answer(ok(buildExport({ team: summaryOf(t), member, messages, exportedAt: now(), timeZone: req.timeZone }, req.format)));
    },
    search(req) {
      // Words anywhere in the text, case-insensitive: enough for the harness (the engine has the real index).
      const words = req.query.toLowerCase().split(/[\s"]+/).filter((w) => w !== '');
      if (words.length === 0) return answer(fail('refused', 'nothing to search for'));
      const hits: SearchHit[] = [];
      for (const t of teams.values()) {
        if (req.team !== undefined && t.summary.id !== req.team) continue;
        for (const m of t.messages) {
          const lower = m.text.toLowerCase();
          if (!words.every((w) => lower.includes(w))) continue;
          const ranges = words.map((w) => [lower.indexOf(w), lower.indexOf(w) + w.length] as [number, number]).sort((a, b) => a[0] - b[0]);
          const fromUser = m.from === 'user';
          const member = fromUser ? m.to : t.roster.some((r) => r.name === m.from) && (m.to === 'user' || m.source !== undefined) ? m.from : undefined;
          const hit: SearchHit = { team: t.summary.id, teamName: t.summary.name, messageId: m.id, time: m.time, direction: fromUser ? 'you' : member ? 'member' : 'team', from: m.from, to: m.to, snippet: { text: m.text, ranges } };
          if (member) hit.member = member;
          hits.push(hit);
        }
      }
      hits.sort((a, b) => b.time - a.time);
      const limit = req.limit ?? 50;
      return answer(ok({ hits: hits.slice(0, limit), more: hits.length > limit, building: false }));
    },
  };
  return api;
}
