// The real files Claude Code wrote for three teams (test/fixtures/claude-captured, see its
// README): every team, member, lead flag, state and message must come out exactly as below.
// The expected values were read off the files by hand, not produced by the code under test.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberState } from '../src/shared/types.js';
import { memberState, presenceFacts } from '../src/engine/teams/presence.js';
import { listTeamIds, readTeam, type TeamSnapshot } from '../src/engine/claude/team-reader.js';
import { CAPTURED_DIR, copyFixture, makeTempDir } from './helpers/tmp.js';

const MIN = 60_000;

/** sha256 of every captured file: the copy must stay byte-for-byte what Claude wrote. */
const FIXTURE_SHA256: Record<string, string> = {
  'teams-final/analysis-team/config.json': 'a5b07ce722dbf7f2c6a2d33d78416ba198b95162492352ed2eb11cdf4708e337',
  'teams-final/analysis-team/inboxes/config-analyst.json': 'd20a613e702dc8be7555703546e9d716e89aaada1824779678ec1c0845aea397',
  'teams-final/analysis-team/inboxes/lifecycle-analyst.json': 'f8943cb082d7f280db2d7afea114d1a6a7b3ab919fcb5afc5cda3da1126cd28e',
  'teams-final/analysis-team/inboxes/message-analyst.json': 'a52f9254a9e68991b6550e45e2feb9020bb53eef563d26bef2ecd51d7bdd6742',
  'teams-final/analysis-team/inboxes/task-analyst.json': 'b3f6c4a2850392d59bf36e8b5f39b1f38d719a707263a66ec2a746efcf790202',
  'teams-final/analysis-team/inboxes/team-lead.json': '0aa6f0dd51ac781c1f898710dba08c6e0d36055f0808b42052c30211318fa968',
  'teams-live/analysis-team/config.json': '72f9b758effaaebc2e90268064af6ba3aff056ad0dc05959343b50dce7baa342',
  'teams-live/analysis-team/inboxes/config-analyst.json': '16c48c7afd9b1da2f127c6d303dc96a72ab5a5656a6a9e2d3bb9a7dcd1011adb',
  'teams-live/analysis-team/inboxes/lifecycle-analyst.json': '572e934ff60deb40889e624920ca887699210d62778b1b80f51b1e4278a0746a',
  'teams-live/analysis-team/inboxes/message-analyst.json': '80783ef5705ba6f6237e154d2dd94f6d72a5b8453337fcac298fa8d9e2c3971b',
  'teams-live/analysis-team/inboxes/task-analyst.json': '196bc16ce0f4fa68c70b8c95fac0aedfd9478dbe043fe7d05616c526a28ae9e1',
  'teams-live/analysis-team/inboxes/team-lead.json': 'd61fabb68e771f3b24534e050916bdc66e111b284232203727754cf8a88f6195',
  'teams-live/humble-chasing-goose/config.json': '17d6f654f313d865ea1c3e2989e456f439427ae2b54d07d9db3569361ac1d9b5',
  'teams-live/humble-chasing-goose/inboxes/docs-events.json': '5236afee167e9eaa396febec35f355f8cbb777c9365e702cdedb6bf0bed4f3a2',
  'teams-live/humble-chasing-goose/inboxes/docs-types.json': '59b1fcb6b8d8cfc51466ff1c8242d34fb8092fb9c44b5572ced22a7fe93f0252',
  'teams-live/humble-chasing-goose/inboxes/team-lead.json': '962118e4065399ea3f42cf2a7eec58692ed40f89416f621bfaeabe1dfc34e892',
  'teams-live/moonlit-chasing-meerkat/config.json': '62f9061265bd762716076f9d9e87e6b3d8ad3af4fed0707175c12bdad8b1cc44',
  'teams-live/moonlit-chasing-meerkat/inboxes/doc-writer-1.json': '3cb52e261322a059fa2433a85d988e81aa55c9c315a5d22dd19266a1a8839f4a',
  'teams-live/moonlit-chasing-meerkat/inboxes/team-lead.json': 'f08c07a1d533ad27460373b39217343f5f01d3acc1695e343661afb6e638380a',
};

/** [sender, frame type or 'text', read] for each message of an inbox, in file order. */
type Row = [from: string, kind: string, read: boolean];

interface ExpectedMember {
  name: string;
  isLead: boolean;
  inConfig: boolean;
  /** Latest event: the later of its join time and the last message it sent. */
  lastEventAt: string;
}

interface ExpectedTeam {
  root: 'teams-live' | 'teams-final';
  id: string;
  description: string;
  createdAt: number;
  members: ExpectedMember[];
  inboxes: Record<string, Row[]>;
  /** States at several injected clocks (default 5-minute threshold). */
  states: Array<{ now: string; thresholdMs?: number; expect: Record<string, MemberState> }>;
}

const ANALYSIS_DESCRIPTION = 'Analyze Claude Code agent teams internals - tasks, messages, config, lifecycle';

const TEAMS: ExpectedTeam[] = [
  {
    root: 'teams-live',
    id: 'analysis-team',
    description: ANALYSIS_DESCRIPTION,
    createdAt: 1770649635547,
    members: [
      { name: 'team-lead', isLead: true, inConfig: true, lastEventAt: '2026-02-09T15:09:40.164Z' },
      { name: 'task-analyst', isLead: false, inConfig: true, lastEventAt: '2026-02-09T15:08:11.039Z' },
      { name: 'config-analyst', isLead: false, inConfig: true, lastEventAt: '2026-02-09T15:09:24.708Z' },
      { name: 'message-analyst', isLead: false, inConfig: true, lastEventAt: '2026-02-09T15:08:05.150Z' },
      { name: 'lifecycle-analyst', isLead: false, inConfig: true, lastEventAt: '2026-02-09T15:08:13.154Z' },
    ],
    inboxes: {
      'config-analyst': [
        ['team-lead', 'task_assignment', true],
        ['config-analyst', 'task_assignment', true],
        ['team-lead', 'text', false],
      ],
      'lifecycle-analyst': [['team-lead', 'task_assignment', false]],
      'message-analyst': [['team-lead', 'task_assignment', false]],
      'task-analyst': [['task-analyst', 'task_assignment', false]],
      'team-lead': [
        ['config-analyst', 'idle_notification', true],
        ['config-analyst', 'idle_notification', true],
      ],
    },
    states: [
      {
        now: '2026-02-09T15:13:30.000Z',
        expect: { 'team-lead': 'active', 'task-analyst': 'idle', 'config-analyst': 'active', 'message-analyst': 'idle', 'lifecycle-analyst': 'idle' },
      },
      {
        now: '2026-02-09T15:10:00.000Z',
        expect: { 'team-lead': 'active', 'task-analyst': 'active', 'config-analyst': 'active', 'message-analyst': 'active', 'lifecycle-analyst': 'active' },
      },
      {
        now: '2026-02-09T15:10:00.000Z',
        thresholdMs: 1 * MIN,
        expect: { 'team-lead': 'active', 'task-analyst': 'idle', 'config-analyst': 'active', 'message-analyst': 'idle', 'lifecycle-analyst': 'idle' },
      },
      {
        now: '2026-02-10T09:00:00.000Z',
        expect: { 'team-lead': 'idle', 'task-analyst': 'idle', 'config-analyst': 'idle', 'message-analyst': 'idle', 'lifecycle-analyst': 'idle' },
      },
    ],
  },
  {
    // After shutdown: config.json lists only the lead; the analysts are known from inboxes.
    root: 'teams-final',
    id: 'analysis-team',
    description: ANALYSIS_DESCRIPTION,
    createdAt: 1770649635547,
    members: [
      { name: 'team-lead', isLead: true, inConfig: true, lastEventAt: '2026-02-09T15:10:33.592Z' },
      { name: 'config-analyst', isLead: false, inConfig: false, lastEventAt: '2026-02-09T15:11:04.462Z' },
      { name: 'lifecycle-analyst', isLead: false, inConfig: false, lastEventAt: '2026-02-09T15:11:04.965Z' },
      { name: 'message-analyst', isLead: false, inConfig: false, lastEventAt: '2026-02-09T15:10:44.520Z' },
      { name: 'task-analyst', isLead: false, inConfig: false, lastEventAt: '2026-02-09T15:10:37.113Z' },
    ],
    inboxes: {
      'config-analyst': [
        ['team-lead', 'task_assignment', true],
        ['config-analyst', 'task_assignment', true],
        ['team-lead', 'text', false],
        ['team-lead', 'shutdown_request', true],
      ],
      'lifecycle-analyst': [
        ['team-lead', 'task_assignment', false],
        ['team-lead', 'shutdown_request', true],
      ],
      'message-analyst': [
        ['team-lead', 'task_assignment', false],
        ['team-lead', 'shutdown_request', true],
      ],
      'task-analyst': [
        ['task-analyst', 'task_assignment', true],
        ['team-lead', 'shutdown_request', true],
      ],
      'team-lead': [
        ['config-analyst', 'idle_notification', true],
        ['config-analyst', 'idle_notification', true],
        ['task-analyst', 'text', true],
        ['task-analyst', 'idle_notification', true],
        ['task-analyst', 'idle_notification', true],
        ['message-analyst', 'text', true],
        ['task-analyst', 'shutdown_approved', true],
        ['message-analyst', 'idle_notification', true],
        ['message-analyst', 'shutdown_approved', true],
        ['config-analyst', 'text', true],
        ['config-analyst', 'idle_notification', true],
        ['lifecycle-analyst', 'text', true],
        ['config-analyst', 'idle_notification', true],
        ['lifecycle-analyst', 'idle_notification', true],
        ['config-analyst', 'shutdown_approved', true],
        ['lifecycle-analyst', 'shutdown_approved', true],
      ],
    },
    states: [
      {
        now: '2026-02-09T15:14:00.000Z',
        expect: { 'team-lead': 'active', 'config-analyst': 'terminated', 'lifecycle-analyst': 'terminated', 'message-analyst': 'terminated', 'task-analyst': 'terminated' },
      },
      {
        now: '2026-02-09T15:16:00.000Z',
        expect: { 'team-lead': 'idle', 'config-analyst': 'terminated', 'lifecycle-analyst': 'terminated', 'message-analyst': 'terminated', 'task-analyst': 'terminated' },
      },
      {
        // Even a moment after their approvals, with a huge threshold, they stay terminated.
        now: '2026-02-09T15:11:05.000Z',
        thresholdMs: 24 * 60 * MIN,
        expect: { 'team-lead': 'active', 'config-analyst': 'terminated', 'lifecycle-analyst': 'terminated', 'message-analyst': 'terminated', 'task-analyst': 'terminated' },
      },
    ],
  },
  {
    // The older lead agent type `coordinator`.
    root: 'teams-live',
    id: 'humble-chasing-goose',
    description: 'Add documentation comments to types.rs and events.rs',
    createdAt: 1770477615385,
    members: [
      { name: 'team-lead', isLead: true, inConfig: true, lastEventAt: '2026-02-07T15:21:01.492Z' },
      { name: 'docs-types', isLead: false, inConfig: true, lastEventAt: '2026-02-07T15:20:49.498Z' },
      { name: 'docs-events', isLead: false, inConfig: true, lastEventAt: '2026-02-07T15:20:49.675Z' },
    ],
    inboxes: {
      'docs-events': [['team-lead', 'shutdown_request', true]],
      'docs-types': [['team-lead', 'shutdown_request', true]],
      'team-lead': [
        ['docs-events', 'text', true],
        ['docs-types', 'text', true],
        ['docs-types', 'idle_notification', true],
        ['docs-events', 'idle_notification', true],
      ],
    },
    states: [
      // A shutdown request was sent, but nobody approved: nobody is terminated.
      { now: '2026-02-07T15:25:49.600Z', expect: { 'team-lead': 'active', 'docs-types': 'idle', 'docs-events': 'active' } },
      { now: '2026-02-07T15:26:01.492Z', expect: { 'team-lead': 'idle', 'docs-types': 'idle', 'docs-events': 'idle' } },
    ],
  },
  {
    root: 'teams-live',
    id: 'moonlit-chasing-meerkat',
    description: 'Add module-level documentation to all Hive modules',
    createdAt: 1770478465137,
    members: [
      { name: 'team-lead', isLead: true, inConfig: true, lastEventAt: '2026-02-07T15:35:24.484Z' },
      { name: 'doc-writer-1', isLead: false, inConfig: true, lastEventAt: '2026-02-07T15:35:21.353Z' },
      { name: 'doc-writer-2', isLead: false, inConfig: true, lastEventAt: '2026-02-07T15:35:05.242Z' },
      { name: 'doc-writer-3', isLead: false, inConfig: true, lastEventAt: '2026-02-07T15:35:08.774Z' },
    ],
    inboxes: {
      'doc-writer-1': [['team-lead', 'text', false]],
      'team-lead': [
        ['doc-writer-1', 'text', true],
        ['doc-writer-1', 'idle_notification', false],
      ],
    },
    states: [
      { now: '2026-02-07T15:40:10.000Z', expect: { 'team-lead': 'active', 'doc-writer-1': 'active', 'doc-writer-2': 'idle', 'doc-writer-3': 'idle' } },
      { now: '2026-02-07T15:36:00.000Z', thresholdMs: 30_000, expect: { 'team-lead': 'idle', 'doc-writer-1': 'idle', 'doc-writer-2': 'idle', 'doc-writer-3': 'idle' } },
    ],
  },
];

let work: string;
beforeAll(async () => {
  work = await makeTempDir('teamdeck-captured-');
  await copyFixture(CAPTURED_DIR, join(work, 'claude-captured'));
});
afterAll(async () => {
  const { rm } = await import('node:fs/promises');
  await rm(work, { recursive: true, force: true });
});
const rootOf = (t: Pick<ExpectedTeam, 'root'>) => join(work, 'claude-captured', t.root);

async function jsonFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name.endsWith('.json')) out.push(relative(dir, join(e.parentPath, e.name)).split('\\').join('/'));
  }
  return out.sort();
}
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('the captured fixtures', () => {
  it('are the files Claude wrote, byte for byte', async () => {
    expect(await jsonFiles(CAPTURED_DIR)).toEqual(Object.keys(FIXTURE_SHA256).sort());
    for (const [file, hash] of Object.entries(FIXTURE_SHA256)) expect([file, sha256(await readFile(join(CAPTURED_DIR, file)))]).toEqual([file, hash]);
  });
});

describe('listTeamIds on the captured roots', () => {
  it('finds every team', async () => {
    expect(await listTeamIds(rootOf({ root: 'teams-live' }))).toEqual(['analysis-team', 'humble-chasing-goose', 'moonlit-chasing-meerkat']);
    expect(await listTeamIds(rootOf({ root: 'teams-final' }))).toEqual(['analysis-team']);
  });
});

describe.each(TEAMS.map((t) => [`${t.root}/${t.id}`, t] as const))('%s', (_label, team) => {
  let snap: TeamSnapshot;
  beforeAll(async () => {
    snap = await readTeam(rootOf(team), team.id);
  });

  it('is read without problems', () => {
    // Named teams that outlive their lead, answers in user.json: the legacy contract.
    expect(snap.summary).toEqual({
      id: team.id,
      name: team.id,
      description: team.description,
      createdAt: team.createdAt,
      memberCount: team.members.length,
      problems: [],
      era: 'legacy',
      state: 'running',
      sendAs: 'user',
      leadReadsInbox: true,
    });
    expect(snap.corrupt.size).toBe(0);
  });

  it('lists every member, lead first, with its lead flag and whether the config still lists it', () => {
    expect(snap.members.map((m) => ({ name: m.name, isLead: m.isLead, inConfig: m.inConfig }))).toEqual(team.members.map(({ name, isLead, inConfig }) => ({ name, isLead, inConfig })));
    for (const m of snap.members) expect(m.inboxName).toBe(m.name);
  });

  it('holds every message: count, sender, recipient, frame type and read flag per inbox', () => {
    const total = Object.values(team.inboxes).reduce((n, rows) => n + rows.length, 0);
    expect(snap.messages).toHaveLength(total);
    expect([...new Set(snap.messages.map((m) => m.to))].sort()).toEqual(Object.keys(team.inboxes).sort());
    for (const [owner, rows] of Object.entries(team.inboxes)) {
      const got = snap.messages.filter((m) => m.to === owner).map((m): Row => [m.from, m.frame?.type ?? 'text', m.read]);
      expect([owner, got]).toEqual([owner, rows]);
    }
    expect(snap.messages.every((m) => m.team === team.id)).toBe(true);
    expect(new Set(snap.messages.map((m) => m.id)).size).toBe(total);
    expect(snap.messages.some((m) => m.from === 'user' || m.to === 'user')).toBe(false);
  });

  it('dates every member by its latest event', () => {
    const facts = presenceFacts(snap.messages, new Map(snap.members.filter((m) => m.joinedAt !== undefined).map((m) => [m.name, m.joinedAt!])));
    for (const m of team.members) expect([m.name, facts.get(m.name)?.lastEventAt]).toEqual([m.name, Date.parse(m.lastEventAt)]);
  });

  it.each(team.states.map((s) => [s.now, s.thresholdMs ?? 'default', s] as const))('has the expected states at %s (threshold %s)', (_now, _t, s) => {
    const facts = presenceFacts(snap.messages, new Map(snap.members.filter((m) => m.joinedAt !== undefined).map((m) => [m.name, m.joinedAt!])));
    const states = Object.fromEntries(snap.members.map((m) => [m.name, memberState(facts.get(m.name) ?? { terminated: false }, Date.parse(s.now), s.thresholdMs)]));
    expect(states).toEqual(s.expect);
  });
});

describe('member details from the captured configs', () => {
  it('keeps agent type, model, color, backend and join time', async () => {
    const live = await readTeam(rootOf({ root: 'teams-live' }), 'analysis-team');
    expect(live.members.map((m) => [m.name, m.agentType, m.model, m.color, m.backendType, m.joinedAt])).toEqual([
      ['team-lead', 'team-lead', 'claude-opus-4-6', undefined, undefined, 1770649635547],
      ['task-analyst', 'general-purpose', 'claude-opus-4-6', 'blue', 'in-process', 1770649672906],
      ['config-analyst', 'general-purpose', 'claude-opus-4-6', 'green', 'in-process', 1770649679317],
      ['message-analyst', 'general-purpose', 'claude-opus-4-6', 'yellow', 'in-process', 1770649685150],
      ['lifecycle-analyst', 'general-purpose', 'claude-opus-4-6', 'purple', 'in-process', 1770649693154],
    ]);
    const goose = await readTeam(rootOf({ root: 'teams-live' }), 'humble-chasing-goose');
    expect(goose.members[0]).toMatchObject({ name: 'team-lead', agentType: 'coordinator', isLead: true, agentId: 'team-lead@humble-chasing-goose' });
    const final = await readTeam(rootOf({ root: 'teams-final' }), 'analysis-team');
    expect(final.members.slice(1).every((m) => m.agentType === undefined && m.joinedAt === undefined)).toBe(true);
  });

  it('reads the shutdown approvals of the final team with their request ids', async () => {
    const final = await readTeam(rootOf({ root: 'teams-final' }), 'analysis-team');
    const approvals = final.messages.filter((m) => m.frame?.type === 'shutdown_approved').map((m) => [m.from, m.frame!.fields.requestId, m.frame!.fields.paneId]);
    expect(approvals).toEqual([
      ['task-analyst', 'shutdown-1770649831648@task-analyst', 'in-process'],
      ['message-analyst', 'shutdown-1770649832843@message-analyst', 'in-process'],
      ['config-analyst', 'shutdown-1770649832458@config-analyst', 'in-process'],
      ['lifecycle-analyst', 'shutdown-1770649833592@lifecycle-analyst', 'in-process'],
    ]);
  });

  it('leaves the copies untouched after reading them', async () => {
    for (const [file, hash] of Object.entries(FIXTURE_SHA256)) expect([file, sha256(await readFile(join(work, 'claude-captured', file)))]).toEqual([file, hash]);
  });
});
