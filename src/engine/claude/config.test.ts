import { execFileSync } from 'node:child_process';
import { mkdir, open, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../../test/helpers/tmp.js';
import { MAX_CONFIG_BYTES, parseTeamConfig, readTeamConfig } from './config.js';

// The example from the format document, plus fields no version has written yet.
const EXAMPLE = {
  name: 'my-team',
  createdAt: 1767000000000,
  leadAgentId: 'team-lead@my-team',
  leadSessionId: '0b7c1f1e-1111-4222-8333-444455556666',
  futureTopLevel: { nested: [1, 2] },
  members: [
    {
      agentId: 'team-lead@my-team',
      name: 'team-lead',
      agentType: 'team-lead',
      joinedAt: 1767000000000,
      tmuxPaneId: 'leader',
      cwd: '/path',
      subscriptions: [],
      backendType: 'in-process',
    },
    {
      agentId: 'researcher@my-team',
      name: 'researcher',
      agentType: 'general-purpose',
      model: 'sonnet',
      color: 'blue',
      joinedAt: 1767000000500,
      tmuxPaneId: '%3',
      cwd: '/path',
      subscriptions: [],
      planModeRequired: false,
      backendType: 'tmux',
      isActive: true,
      futureMemberField: 'kept',
    },
  ],
};

function ok(text: string) {
  const r = parseTeamConfig(text);
  if (r.kind !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(r)}`);
  return r.config;
}

describe('parseTeamConfig', () => {
  it('reads the documented shape', () => {
    const c = ok(JSON.stringify(EXAMPLE, null, 2));
    expect(c.name).toBe('my-team');
    expect(c.createdAt).toBe(1767000000000);
    expect(c.leadAgentId).toBe('team-lead@my-team');
    expect(c.members.map((m) => m.name)).toEqual(['team-lead', 'researcher']);
    expect(c.members[1]).toMatchObject({ agentType: 'general-purpose', model: 'sonnet', color: 'blue', joinedAt: 1767000000500, backendType: 'tmux', isActive: true });
    expect(c.skippedMembers).toEqual([]);
  });

  it('keeps unknown fields at both levels instead of rejecting them', () => {
    const c = ok(JSON.stringify(EXAMPLE));
    expect(c.raw.futureTopLevel).toEqual({ nested: [1, 2] });
    expect(c.raw.leadSessionId).toBe(EXAMPLE.leadSessionId);
    expect((c.members[1] as Record<string, unknown>).futureMemberField).toBe('kept');
    expect((c.members[1] as Record<string, unknown>).planModeRequired).toBe(false);
    expect((c.members[0] as Record<string, unknown>).subscriptions).toEqual([]);
  });

  it('accepts a byte-order mark', () => {
    expect(ok('\uFEFF' + JSON.stringify(EXAMPLE)).name).toBe('my-team');
  });

  it('accepts a config with no members array', () => {
    const c = ok('{"name":"bare"}');
    expect(c.members).toEqual([]);
    expect(c.skippedMembers).toEqual([]);
  });

  it('reports members with a missing or empty name and keeps the others', () => {
    const c = ok(
      JSON.stringify({
        name: 't',
        members: [{ name: 'team-lead' }, { agentId: 'ghost@t' }, { name: '' }, 'not-an-object', { name: 'worker' }],
      }),
    );
    expect(c.members.map((m) => m.name)).toEqual(['team-lead', 'worker']);
    expect(c.skippedMembers).toHaveLength(3);
    expect(c.skippedMembers[0]).toMatch(/^members\[1\]: name/);
    expect(c.skippedMembers[1]).toMatch(/^members\[2\]: name/);
    expect(c.skippedMembers[2]).toMatch(/^members\[3\]/);
  });

  it('reports a duplicate member name and keeps the first entry', () => {
    const c = ok(JSON.stringify({ members: [{ name: 'a', color: 'blue' }, { name: 'b' }, { name: 'a', color: 'red' }] }));
    expect(c.members.map((m) => m.name)).toEqual(['a', 'b']);
    expect(c.members[0]!.color).toBe('blue');
    expect(c.skippedMembers).toEqual(['members[2]: duplicate member name "a"']);
  });

  it.each([
    ['truncated', '{"name":"t","members":['],
    ['empty', ''],
    ['an array', '[]'],
    ['null', 'null'],
    ['a string', '"team"'],
    ['a wrongly typed name', '{"name":42}'],
  ])('calls %s config invalid with a message', (_label, text) => {
    const r = parseTeamConfig(text);
    expect(r.kind).toBe('invalid');
    if (r.kind === 'invalid') expect(r.message).toMatch(/config\.json/);
  });
});

describe('readTeamConfig', () => {
  const tempDir = useTempDirs();

  it('reports a missing config as missing, not as an error', async () => {
    expect(await readTeamConfig(join(await tempDir(), 'config.json'))).toEqual({ kind: 'missing' });
  });

  it('reads a file from disk', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'config.json'), JSON.stringify(EXAMPLE, null, 2));
    const r = await readTeamConfig(join(dir, 'config.json'));
    expect(r.kind).toBe('ok');
    if (r.kind === 'ok') expect(r.config.members).toHaveLength(2);
  });

  it('calls an unreadable config invalid', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'config.json'));
    const r = await readTeamConfig(join(dir, 'config.json'));
    expect(r).toEqual({ kind: 'invalid', message: 'config.json is not a file' });
  });

  it('never reads through a link, never blocks on a FIFO, never reads a huge file', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'elsewhere.json'), JSON.stringify({ name: 'secret' }));
    await mkdir(join(dir, 'linked'));
    await symlink(join(dir, 'elsewhere.json'), join(dir, 'linked', 'config.json'));
    expect(await readTeamConfig(join(dir, 'linked', 'config.json'))).toEqual({ kind: 'invalid', message: 'config.json is a symbolic link; not followed' });
    await mkdir(join(dir, 'fifo'));
    execFileSync('mkfifo', [join(dir, 'fifo', 'config.json')]);
    expect(await readTeamConfig(join(dir, 'fifo', 'config.json'))).toEqual({ kind: 'invalid', message: 'config.json is not a file' });
    await mkdir(join(dir, 'huge'));
    const fh = await open(join(dir, 'huge', 'config.json'), 'w');
    await fh.truncate(MAX_CONFIG_BYTES + 1);
    await fh.close();
    expect(await readTeamConfig(join(dir, 'huge', 'config.json'))).toEqual({ kind: 'invalid', message: `config.json is ${MAX_CONFIG_BYTES + 1} bytes; at most ${MAX_CONFIG_BYTES} are read` });
  });
});
