// The fake host's live side: what each member is doing, its transcript as a timeline, the task
// boards and the needs-you queue, seeded to show every kind (a ticking tool call, a permission
// prompt, a blocked task, a task file that does not parse, an orphan inbox) and, with `liveMs`,
// a researcher whose tool calls keep finishing and starting. Only the fake API imports this.
import type { AppEvent } from '../../../shared/contract';
import type { MemberActivity, NeedItem, TaskBoard, TaskItem, TimelineItem } from '../../../shared/types';

const SEC = 1000;
const MIN = 60 * SEC;

/** The demo's message ids the needs point at. */
export interface LiveSeedRefs {
  /** session-7ec79863: "and the remember-me cookie?" to researcher, taken. */
  takenId?: string;
  /** analysis: "also check logout" to researcher, queued. */
  queuedId?: string;
  /** session-7ec79863: the hosted terminal its lead runs in. */
  leadTerminal?: string;
  /** Team id → its members, and whether the team is legacy. */
  teams: { id: string; legacy: boolean; ended: boolean; members: string[] }[];
}

export interface FakeLive {
  getActivity(team: string): MemberActivity[] | undefined;
  getTimeline(team: string, member: string, limit?: number): TimelineItem[];
  getTasks(team: string): TaskBoard;
  getNeeds(): NeedItem[];
  setNeeds(needs: NeedItem[]): void;
  setActivity(team: string, list: MemberActivity[]): void;
  pushTimeline(team: string, member: string, items: Omit<TimelineItem, 'id'>[]): void;
  /** A member took a message into its context: a `received` row, and it starts working. */
  received(team: string, member: string, from: string, text: string): void;
  /** A member answered: a `text` row, and it goes idle. */
  answered(team: string, member: string, text: string): void;
  /** The team ended: everyone shut down, its needs gone. */
  ended(team: string): void;
}

export interface FakeLiveOptions {
  now: () => number;
  emit: (ev: AppEvent) => void;
  later: (ms: number, f: () => void) => void;
  /** Every liveMs the researcher's running tool call finishes and the next begins; 0: off. */
  liveMs: number;
}

const LIVE_TEAM = 'session-7ec79863';

const COMMANDS: [string, string, string][] = [
  ['Bash', 'npm test -- auth', 'PASS src/auth.test.ts (14 tests)\nPASS src/logout.test.ts (6 tests)\n\nTests: 20 passed, 20 total'],
  ['Read', 'src/session/cookie.ts', "export function rememberMe(res: Response, token: string) {\n  res.cookie('remember', token, { httpOnly: true, maxAge: 30 * DAY });\n}"],
  ['Grep', '"remember" in src/', 'src/session/cookie.ts:2\nsrc/logout.ts:14'],
  ['Edit', 'src/logout.ts', 'The file src/logout.ts has been updated.'],
];

export function createFakeLive(opts: FakeLiveOptions, refs: LiveSeedRefs): FakeLive {
  const t0 = opts.now();
  const activity = new Map<string, MemberActivity[]>();
  const timelines = new Map<string, TimelineItem[]>();
  const boards = new Map<string, TaskBoard>();
  let needs: NeedItem[] = [];
  let seq = 0;
  const key = (team: string, member: string) => `${team}/${member}`;
  const item = (kind: TimelineItem['kind'], at: number, text: string, extra: Partial<TimelineItem> = {}): TimelineItem => ({ id: `row-${++seq}:0`, kind, at, text, ...extra });

  for (const t of refs.teams) {
    const list: MemberActivity[] = t.members.map((member) =>
      t.ended ? { member, kind: 'shut-down', sources: ['config'] } : t.legacy ? { member, kind: 'unknown', sources: [] } : { member, kind: 'idle', sources: ['transcript'] },
    );
    activity.set(t.id, list);
  }
  activity.set(LIVE_TEAM, [
    {
      member: 'team-lead',
      kind: 'waiting',
      since: t0 - 95 * SEC,
      waitingFor: "a permission answer in the lead's terminal",
      tool: { name: 'Bash', summary: 'rm -rf build/', since: t0 - 95 * SEC },
      sources: ['session', 'transcript'],
    },
    {
      member: 'researcher',
      kind: 'working',
      since: t0 - 4 * MIN,
      tool: { name: 'Bash', summary: 'npm test -- auth', since: t0 - 42 * SEC },
      lastText: 'Running the auth tests again after the fix.',
      sources: ['transcript'],
    },
    { member: 'tester', kind: 'idle', since: t0 - 15 * MIN, lastTurnEndAt: t0 - 15 * MIN, lastText: 'Running the e2e suite now: 3 of 12 specs done.', sources: ['transcript'] },
  ]);
  activity.set('session-40c1f2aa', [{ member: 'team-lead', kind: 'working', since: t0 - 3 * MIN, sources: ['session', 'transcript'] }]);

  // The researcher's transcript: every kind of row.
  const r0 = t0 - 40 * MIN;
  const longOutput = Array.from({ length: 60 }, (_, i) => `${String(i + 1).padStart(3)}  ${i % 7 === 0 ? '// token refresh' : `const line${i} = refresh(${i});`}`).join('\n');
  timelines.set(key(LIVE_TEAM, 'researcher'), [
    item('received', r0, 'Look at logout: does it cancel the token refresh?', { from: 'team-lead' }),
    item('text', r0 + 10 * SEC, "I'll start with the logout handler and follow the refresh timer from there."),
    item('tool-call', r0 + 15 * SEC, 'src/logout.ts', { tool: 'Read' }),
    item('tool-result', r0 + 16 * SEC, longOutput, { tool: 'Read' }),
    item('tool-call', r0 + 30 * SEC, '"refreshTimer" in src/', { tool: 'Grep' }),
    item('tool-result', r0 + 31 * SEC, 'src/auth.ts:88\nsrc/auth.ts:112\nsrc/logout.ts:9', { tool: 'Grep' }),
    item('text', r0 + 60 * SEC, 'Found it: `logout()` clears the cookie but never calls `clearTimeout(refreshTimer)`, so a refresh can fire **after** logout.'),
    item('received', r0 + 20 * MIN, 'also check that logout cancels the refresh timer', { from: 'teamdeck' }),
    item('tool-call', r0 + 21 * MIN, 'src/logout.ts: add clearTimeout(refreshTimer)', { tool: 'Edit' }),
    item('tool-result', r0 + 21 * MIN + 2 * SEC, 'The file src/logout.ts has been updated.', { tool: 'Edit' }),
    item('tool-call', r0 + 22 * MIN, 'npm test', { tool: 'Bash' }),
    item('tool-result', r0 + 22 * MIN + 40 * SEC, 'FAIL src/logout.test.ts\n  ● logout › cancels the refresh timer\n    expect(jest.fn()).not.toHaveBeenCalled()\n    Received number of calls: 1', { tool: 'Bash', isError: true }),
    item('text', r0 + 24 * MIN, 'The test caught a second timer in `auth.ts:112`; fixing that one too.'),
    item('text', r0 + 31 * MIN, 'Done: logout cancels the refresh timer now (`auth.ts:88`), and a test covers it.'),
    item('received', t0 - 3 * MIN, 'and the remember-me cookie?', { from: 'teamdeck' }),
    item('text', t0 - 60 * SEC, 'Running the auth tests again after the fix.'),
    item('tool-call', t0 - 42 * SEC, 'npm test -- auth', { tool: 'Bash' }),
  ]);
  timelines.set(key(LIVE_TEAM, 'team-lead'), [
    item('prompt', r0 - 3 * MIN, 'Have researcher look at the logout flow, and tester run the e2e suite after.'),
    item('tool-call', r0 - 2 * MIN, 'spawn researcher: Look at logout: does it cancel the token refresh?', { tool: 'Agent' }),
    item('tool-result', r0 - 2 * MIN + SEC, 'Spawned successfully.\nagent_id: aresearcher-4932618ede0d71b5\nname: researcher', { tool: 'Agent' }),
    item('text', r0 - MIN, 'researcher is on the logout flow; tester will run the e2e suite once it reports back.'),
    item('received', r0 + 31 * MIN, 'Done: logout cancels the refresh timer now (`auth.ts:88`), and a test covers it.', { from: 'researcher' }),
    item('tool-call', t0 - 95 * SEC, 'rm -rf build/', { tool: 'Bash' }),
  ]);
  timelines.set(key(LIVE_TEAM, 'tester'), [
    item('received', r0 + 33 * MIN, 'run the e2e suite once researcher is done', { from: 'teamdeck' }),
    item('tool-call', r0 + 34 * MIN, 'npx playwright test', { tool: 'Bash' }),
    item('tool-result', r0 + 39 * MIN, 'Running 12 tests using 2 workers\n  ✓ login (3.1s)\n  ✓ logout (2.4s)\n  ✓ refresh (4.0s)', { tool: 'Bash' }),
    item('text', r0 + 40 * MIN, 'Running the e2e suite now: 3 of 12 specs done, all green so far.'),
  ]);
  timelines.set(key('session-40c1f2aa', 'team-lead'), [item('prompt', t0 - 8 * MIN, 'Plan the settings refactor; spawn a tester first when you start.'), item('text', t0 - 3 * MIN, 'Reading the settings module before I plan.')]);

  const task = (id: string, subject: string, status: TaskItem['status'], extra: Partial<TaskItem> = {}): TaskItem => ({ id, subject, status, blocks: [], blockedBy: [], ...extra });
  boards.set(LIVE_TEAM, {
    team: LIVE_TEAM,
    list: LIVE_TEAM,
    exists: true,
    tasks: [
      task('1', 'Map the logout flow', 'completed', { owner: 'researcher', blocks: ['2'], description: 'Follow logout from the button to the session store; list every timer and cookie it should clear.' }),
      task('2', 'Cancel the refresh timer on logout', 'in_progress', { owner: 'researcher', activeForm: 'Cancelling the refresh timer', blockedBy: ['1'], blocks: ['3'], description: 'Both timers: `auth.ts:88` and `auth.ts:112`. Add a test that fails without the fix.' }),
      task('3', 'Run the e2e suite', 'pending', { owner: 'tester', blockedBy: ['2'], description: 'All 12 specs, twice; report flaky ones separately.' }),
      task('4', 'Check the remember-me cookie', 'pending', { description: 'Does logout clear it? Should it?' }),
    ],
    problems: [{ kind: 'config', file: `tasks/${LIVE_TEAM}/5.json`, message: 'not valid JSON' }],
  });
  boards.set('session-40c1f2aa', { team: 'session-40c1f2aa', list: 'session-40c1f2aa', exists: true, tasks: [], problems: [] });

  needs = [
    {
      id: `permission:${LIVE_TEAM}:team-lead`,
      kind: 'permission',
      team: LIVE_TEAM,
      member: 'team-lead',
      title: 'team-lead waits for a permission answer: Bash rm -rf build/',
      detail: "Answer it in the lead's terminal.",
      since: t0 - 95 * SEC,
      ...(refs.leadTerminal ? { terminal: refs.leadTerminal } : {}),
    },
    {
      id: `held:${LIVE_TEAM}:team-lead`,
      kind: 'held',
      team: LIVE_TEAM,
      member: 'team-lead',
      title: 'team-lead holds a message from another session for your approval: “rerun the flaky spec”',
      detail: 'The lead runs with every permission prompt skipped, so Claude asks in its terminal before it lets a session’s message in.',
      since: t0 - 2 * MIN,
      ...(refs.leadTerminal ? { terminal: refs.leadTerminal } : {}),
    },
    {
      id: `plan-approval:${LIVE_TEAM}:tester`,
      kind: 'plan-approval',
      team: LIVE_TEAM,
      member: 'tester',
      title: 'tester asks the lead to approve its plan: e2e run order',
      detail: 'The lead approves or rejects plans; tell it what you think.',
      since: t0 - 6 * MIN,
    },
    ...(refs.takenId
      ? [{ id: `stuck-taken:${LIVE_TEAM}:${refs.takenId}`, kind: 'stuck-taken' as const, team: LIVE_TEAM, member: 'researcher', title: 'researcher took your message but has not seen it yet: “and the remember-me cookie?”', since: t0 - 3 * MIN, messageId: refs.takenId }]
      : []),
    ...(refs.queuedId
      ? [{ id: `stuck-queued:analysis:${refs.queuedId}`, kind: 'stuck-queued' as const, team: 'analysis', member: 'researcher', title: 'Your message to researcher is still queued: “also check logout”', detail: 'inbox is locked by another writer', since: t0 - 30 * MIN, messageId: refs.queuedId }]
      : []),
    { id: 'idle-with-mail:docs-sprint:doc-writer-1', kind: 'idle-with-mail', team: 'docs-sprint', member: 'doc-writer-1', title: 'doc-writer-1 went idle with 1 unread message', since: t0 - 60 * MIN },
    {
      id: `orphan-inbox:${LIVE_TEAM}:ghost`,
      kind: 'orphan-inbox',
      team: LIVE_TEAM,
      title: '2 messages wait in inboxes/ghost.json, which no member reads',
      detail: 'A message to a name nobody on the team has: send it on to the member it was meant for.',
      since: t0 - 20 * MIN,
      orphan: { inbox: 'ghost', messages: 2 },
    },
  ];

  const emitActivity = (team: string) => opts.emit({ type: 'activity', team, activity: (activity.get(team) ?? []).map((a) => ({ ...a })) });
  const emitNeeds = () => opts.emit({ type: 'needs', needs: needs.map((n) => ({ ...n })) });
  const push = (team: string, member: string, items: Omit<TimelineItem, 'id'>[]) => {
    const full = items.map((it) => ({ ...it, id: `row-${++seq}:0` }));
    timelines.set(key(team, member), [...(timelines.get(key(team, member)) ?? []), ...full]);
    opts.emit({ type: 'timeline', team, member, items: full });
  };
  const patch = (team: string, member: string, next: Omit<MemberActivity, 'member'>) => {
    const list = activity.get(team) ?? [];
    activity.set(team, [...list.filter((a) => a.member !== member), { member, ...next }]);
    emitActivity(team);
  };

  if (opts.liveMs > 0) {
    let step = 0;
    const cycle = () => {
      const [name, , result] = COMMANDS[step % COMMANDS.length]!;
      const [nextName, nextSummary] = COMMANDS[(step + 1) % COMMANDS.length]!;
      const at = opts.now();
      push(LIVE_TEAM, 'researcher', [
        { kind: 'tool-result', at, text: result, tool: name },
        { kind: 'tool-call', at: at + 1, text: nextSummary, tool: nextName },
      ]);
      patch(LIVE_TEAM, 'researcher', { kind: 'working', since: t0 - 4 * MIN, tool: { name: nextName, summary: nextSummary, since: at }, lastText: 'Running the auth tests again after the fix.', sources: ['transcript'] });
      step++;
      opts.later(opts.liveMs, cycle);
    };
    opts.later(opts.liveMs, cycle);
    // The permission prompt gets its answer in the lead's terminal after a while: the need clears.
    opts.later(opts.liveMs * 4, () => {
      needs = needs.filter((n) => n.kind !== 'permission');
      emitNeeds();
      patch(LIVE_TEAM, 'team-lead', { kind: 'working', since: opts.now(), tool: { name: 'Bash', summary: 'rm -rf build/', since: opts.now() }, sources: ['session', 'transcript'] });
    });
  }

  return {
    getActivity: (team) => activity.get(team)?.map((a) => ({ ...a })),
    getTimeline: (team, member, limit = 2000) => (timelines.get(key(team, member)) ?? []).slice(-Math.max(0, limit)).map((it) => ({ ...it })),
    getTasks: (team) => structuredClone(boards.get(team) ?? { team, list: team, exists: false, tasks: [], problems: [] }),
    getNeeds: () => needs.map((n) => ({ ...n })).sort((a, b) => b.since - a.since),
    setNeeds(next) {
      needs = next;
      emitNeeds();
    },
    setActivity(team, list) {
      activity.set(team, list);
      emitActivity(team);
    },
    pushTimeline: push,
    received(team, member, from, text) {
      if (!activity.has(team) || refs.teams.find((t) => t.id === team)?.legacy) return;
      push(team, member, [{ kind: 'received', at: opts.now(), text, from }]);
      patch(team, member, { kind: 'working', since: opts.now(), sources: ['transcript'] });
    },
    answered(team, member, text) {
      if (!activity.has(team) || refs.teams.find((t) => t.id === team)?.legacy) return;
      push(team, member, [{ kind: 'text', at: opts.now(), text }]);
      patch(team, member, { kind: 'idle', since: opts.now(), lastTurnEndAt: opts.now(), lastText: text, sources: ['transcript'] });
    },
    ended(team) {
      activity.set(team, (activity.get(team) ?? []).map((a) => ({ member: a.member, kind: 'shut-down', since: opts.now(), sources: ['config'] })));
      emitActivity(team);
      const before = needs.length;
      needs = needs.filter((n) => n.team !== team);
      if (needs.length !== before) emitNeeds();
    },
  };
}
