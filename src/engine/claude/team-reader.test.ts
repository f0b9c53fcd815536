import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_FRAMES } from '../../../test/helpers/frames.js';
import { message, writeTeam } from '../../../test/helpers/teams.js';
import { useTempDirs } from '../../../test/helpers/tmp.js';
import { buildMembers, isLeadMember, listInboxOwners, listTeamIds, readTeam } from './team-reader.js';

const tempDir = useTempDirs();
const T0 = '2026-02-17T15:00:00.000Z';
const T1 = '2026-02-17T15:01:00.000Z';
const T2 = '2026-02-17T15:02:00.000Z';

const CONFIG = {
  name: 'My Team',
  description: 'demo',
  createdAt: 1767000000000,
  leadAgentId: 'team-lead@my-team',
  members: [
    { agentId: 'team-lead@my-team', name: 'team-lead', agentType: 'team-lead', joinedAt: 1767000000000 },
    { agentId: 'researcher@my-team', name: 'researcher', agentType: 'general-purpose', color: 'blue', joinedAt: 1767000000500 },
  ],
};

describe('listTeamIds', () => {
  it('lists folders holding a config.json or an inboxes/ folder, sorted', async () => {
    const root = await tempDir();
    await writeTeam(root, 'zeta', { config: CONFIG });
    await writeTeam(root, 'alpha', { inboxes: { a: [] } });
    await mkdir(join(root, 'empty-folder'));
    await mkdir(join(root, '.hidden', 'inboxes'), { recursive: true });
    await writeFile(join(root, 'stray.json'), '{}');
    await symlink(join(root, 'zeta'), join(root, 'linked'));
    expect(await listTeamIds(root)).toEqual(['alpha', 'zeta']);
  });

  it('returns nothing for a missing root', async () => {
    expect(await listTeamIds(join(await tempDir(), 'absent'))).toEqual([]);
  });
});

describe('listInboxOwners', () => {
  it('ignores temp files, lock folders and other files', async () => {
    const root = await tempDir();
    const dir = await writeTeam(root, 't', { inboxes: { 'team-lead': [], researcher: [] } });
    const inboxes = join(dir, 'inboxes');
    await writeFile(join(inboxes, 'researcher.json.tmp.0a1b2c3d'), '[');
    await mkdir(join(inboxes, 'researcher.json.lock'));
    await writeFile(join(inboxes, 'notes.txt'), 'x');
    await writeFile(join(inboxes, '.json'), '[]');
    expect(await listInboxOwners(inboxes)).toEqual(['researcher', 'team-lead']);
  });
});

describe('isLeadMember', () => {
  it('recognises the lead by leadAgentId, by name team-lead, or by agent type team-lead / coordinator', () => {
    expect(isLeadMember({ name: 'boss', agentId: 'boss@t' }, { leadAgentId: 'boss@t', members: [], skippedMembers: [], raw: {} })).toBe(true);
    expect(isLeadMember({ name: 'team-lead' })).toBe(true);
    expect(isLeadMember({ name: 'x', agentType: 'team-lead' })).toBe(true);
    expect(isLeadMember({ name: 'x', agentType: 'coordinator' })).toBe(true);
    expect(isLeadMember({ name: 'researcher', agentType: 'general-purpose' })).toBe(false);
  });
});

describe('roster: union of config members, inbox owners and senders', () => {
  it('lists config members first (lead first), then inbox owners and senders not in the config', async () => {
    const root = await tempDir();
    await writeTeam(root, 'my-team', {
      config: CONFIG,
      inboxes: {
        researcher: [message('team-lead', 'go', T0)],
        'team-lead': [message('researcher', 'done', T1), message('removed-one', 'bye', T2), message('user', 'from the user', T2)],
        'early-bird': [],
        user: [message('researcher', 'to the user', T1)],
      },
    });
    const snap = await readTeam(root, 'my-team');
    expect(snap.members.map((m) => [m.name, m.isLead, m.inConfig])).toEqual([
      ['team-lead', true, true],
      ['researcher', false, true],
      ['early-bird', false, false],
      ['removed-one', false, false],
    ]);
    expect(snap.summary).toMatchObject({ id: 'my-team', name: 'My Team', description: 'demo', createdAt: 1767000000000, memberCount: 4, problems: [] });
    expect(snap.members[1]).toMatchObject({ inboxName: 'researcher', agentId: 'researcher@my-team', color: 'blue', joinedAt: 1767000000500 });
  });

  it('keeps a member removed from the config but present in messages', async () => {
    const root = await tempDir();
    await writeTeam(root, 't', {
      config: { name: 't', members: [{ name: 'team-lead', agentType: 'team-lead' }] },
      inboxes: { 'team-lead': [message('researcher', JSON.stringify(SAMPLE_FRAMES.shutdown_approved), T1)] },
    });
    const snap = await readTeam(root, 't');
    expect(snap.members.map((m) => [m.name, m.inConfig])).toEqual([
      ['team-lead', true],
      ['researcher', false],
    ]);
  });

  it('matches a config member to its sanitized inbox file, without listing it twice', () => {
    const members = buildMembers(
      { members: [{ name: 'qa bot' }], skippedMembers: [], raw: {} },
      ['qa-bot'],
      [{ id: 'x', team: 't', from: 'qa bot', to: 'team-lead', text: 'hi', timestamp: T0, time: Date.parse(T0), read: false }],
    );
    expect(members.map((m) => [m.name, m.inboxName, m.inConfig])).toEqual([['qa bot', 'qa-bot', true]]);
  });

  it('never lists the user as a member', () => {
    const members = buildMembers(undefined, ['user', 'a'], [{ id: 'x', team: 't', from: 'user', to: 'a', text: 'hi', timestamp: T0, time: 0, read: false }]);
    expect(members.map((m) => m.name)).toEqual(['a']);
  });

  it("never lists Claude's `system` sender (its teammate-terminated notices) as a member", () => {
    const notice = { id: 'n', team: 't', from: 'system', to: 'team-lead', text: '{"type":"teammate_terminated"}', timestamp: T0, time: 0, read: false };
    const members = buildMembers({ members: [{ name: 'team-lead' }, { name: 'a' }], skippedMembers: [], raw: {} }, ['team-lead', 'a'], [notice]);
    expect(members.map((m) => m.name)).toEqual(['team-lead', 'a']);
  });

  it('treats a lead seen only in inbox traffic as the lead', () => {
    const members = buildMembers(undefined, ['researcher', 'team-lead'], []);
    expect(members.map((m) => [m.name, m.isLead])).toEqual([
      ['team-lead', true],
      ['researcher', false],
    ]);
  });

  it('reads a team without a config from its inboxes alone', async () => {
    const root = await tempDir();
    await writeTeam(root, 'no-config', { inboxes: { a: [message('b', 'hi', T0)] } });
    const snap = await readTeam(root, 'no-config');
    expect(snap.config).toBeUndefined();
    expect(snap.summary.name).toBe('no-config');
    expect(snap.summary.problems).toEqual([]);
    expect(snap.members.map((m) => m.name)).toEqual(['a', 'b']);
  });
});

describe('readTeam messages', () => {
  it('collects every inbox, addressed to its owner, oldest first', async () => {
    const root = await tempDir();
    await writeTeam(root, 't', {
      inboxes: {
        a: [message('b', 'second', T1), message('c', 'third', T2)],
        b: [message('a', 'first', T0, { msg_id: 'm1', summary: 's' })],
      },
    });
    const snap = await readTeam(root, 't');
    expect(snap.messages.map((m) => [m.from, m.to, m.text])).toEqual([
      ['a', 'b', 'first'],
      ['b', 'a', 'second'],
      ['c', 'a', 'third'],
    ]);
    expect(snap.messages[0]).toMatchObject({ id: 'm1', summary: 's', team: 't' });
    expect(snap.inboxSizes.get('a')).toBeGreaterThan(0);
  });

  it('reports entries that are not messages as a problem on that file', async () => {
    const root = await tempDir();
    await writeTeam(root, 't', { inboxes: { a: [message('b', 'x', T0), { odd: true }, 5] } });
    const snap = await readTeam(root, 't');
    expect(snap.messages).toHaveLength(1);
    expect(snap.summary.problems).toEqual([{ kind: 'inbox', file: 't/inboxes/a.json', message: '2 entries are not messages and were skipped' }]);
  });
});

describe('readTeam with a broken config', () => {
  it('reports the problem for that team and still reads its inboxes and the other teams', async () => {
    const root = await tempDir();
    await writeTeam(root, 'broken', { config: '{"name": "broken", "members": [', inboxes: { 'team-lead': [message('worker', 'still here', T0)] } });
    await writeTeam(root, 'fine', { config: CONFIG, inboxes: { 'team-lead': [] } });
    expect(await listTeamIds(root)).toEqual(['broken', 'fine']);

    const broken = await readTeam(root, 'broken');
    expect(broken.config).toBeUndefined();
    expect(broken.summary.problems).toHaveLength(1);
    expect(broken.summary.problems[0]).toMatchObject({ kind: 'config', file: 'broken/config.json', message: expect.stringMatching(/not valid JSON/) });
    expect(broken.members.map((m) => m.name)).toEqual(['team-lead', 'worker']);
    expect(broken.messages).toHaveLength(1);

    const fine = await readTeam(root, 'fine');
    expect(fine.summary.problems).toEqual([]);
    expect(fine.members.map((m) => m.name)).toEqual(['team-lead', 'researcher']);
  });

  it('reports members with a missing name or a duplicate name as problems on config.json', async () => {
    const root = await tempDir();
    await writeTeam(root, 't', { config: { name: 't', members: [{ name: 'team-lead' }, { agentId: 'nameless@t' }, { name: 'team-lead' }] } });
    const snap = await readTeam(root, 't');
    expect(snap.members.map((m) => m.name)).toEqual(['team-lead']);
    expect(snap.summary.problems.map((p) => [p.kind, p.file])).toEqual([
      ['config', 't/config.json'],
      ['config', 't/config.json'],
    ]);
    expect(snap.summary.problems[0]!.message).toMatch(/members\[1\]/);
    expect(snap.summary.problems[1]!.message).toMatch(/duplicate member name "team-lead"/);
  });

  it('refuses a team id that escapes the root', async () => {
    const root = await tempDir();
    await expect(readTeam(join(root, 'teams'), '..')).rejects.toThrow(/outside the teams root/);
  });
});
