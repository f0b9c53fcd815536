import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTeam } from '../engine/claude/team-reader.js';
import { parseFrame } from '../engine/claude/frames.js';
import { generateTeams, parseSize } from './fixture-gen.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'teamdeck-gen-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function filesOf(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const team of await readdir(root)) {
    out[`${team}/config.json`] = await readFile(join(root, team, 'config.json'), 'utf8');
    for (const f of await readdir(join(root, team, 'inboxes'))) out[`${team}/inboxes/${f}`] = await readFile(join(root, team, 'inboxes', f), 'utf8');
  }
  return out;
}

describe('generateTeams', () => {
  it('writes the same bytes for the same seed, and different ones for another', async () => {
    const a = await generateTeams({ teamsDir: join(dir, 'a'), teams: 2, members: 5, messages: 300, seed: 7 });
    await generateTeams({ teamsDir: join(dir, 'b'), teams: 2, members: 5, messages: 300, seed: 7 });
    await generateTeams({ teamsDir: join(dir, 'c'), teams: 2, members: 5, messages: 300, seed: 8 });
    const fa = await filesOf(join(dir, 'a'));
    expect(await filesOf(join(dir, 'b'))).toEqual(fa);
    expect(await filesOf(join(dir, 'c'))).not.toEqual(fa);
    expect(a.messages).toBe(600);
    expect(Object.keys(fa).some((f) => f.includes('.tmp.'))).toBe(false);
  });

  it('writes teams the engine reads without a problem: every member, every message, frames mixed in', async () => {
    const r = await generateTeams({ teamsDir: dir, teams: 1, members: 8, messages: 2_000, seed: 3 });
    const team = r.teams[0]!;
    const snap = await readTeam(dir, team.id);
    expect(snap.summary.problems).toEqual([]);
    expect(snap.members.map((m) => m.name).sort()).toEqual(['team-lead', ...team.teammates].sort());
    expect(snap.messages).toHaveLength(2_000);
    const types = new Set(snap.messages.map((m) => parseFrame(m.text)?.type).filter(Boolean));
    for (const t of ['idle_notification', 'task_assignment', 'plan_approval_request', 'plan_approval_response', 'shutdown_request', 'shutdown_approved']) {
      expect(types).toContain(t);
    }
    // Replies to the user land in user.json; a terminated member left the config.
    expect(snap.messages.filter((m) => m.to === 'user').length).toBeGreaterThan(100);
    expect(snap.config!.members.map((m) => m.name)).not.toContain(team.terminated[0]);
    // Claude's own layout: pretty-printed with 2 spaces.
    const text = await readFile(join(team.dir, 'inboxes', 'team-lead.json'), 'utf8');
    expect(text).toBe(JSON.stringify(JSON.parse(text), null, 2));
  });

  it('grows one inbox to the asked size, adds a long thread, and prunes what was read in prune mode', async () => {
    const r = await generateTeams({ teamsDir: join(dir, 'big'), teams: 1, members: 4, messages: 100, inboxBytes: 2_000_000, thread: 1_000, seed: 5 });
    const lead = r.teams[0]!.inboxes.find((i) => i.owner === 'team-lead')!;
    expect(lead.bytes).toBeLessThanOrEqual(2_000_000);
    expect(lead.bytes).toBeGreaterThan(1_990_000);
    expect(r.teams[0]!.longThread).toEqual({ member: 'researcher', messages: 1_000 });
    const p = await generateTeams({ teamsDir: join(dir, 'pruned'), teams: 1, members: 4, messages: 500, mode: 'prune', seed: 5 });
    const inboxes = Object.fromEntries(p.teams[0]!.inboxes.map((i) => [i.owner, i.messages]));
    expect(inboxes['team-lead']).toBeLessThan(50);
    expect(inboxes.user).toBeGreaterThan(50);
  });

  it('refuses to replace a team folder unless forced', async () => {
    await generateTeams({ teamsDir: dir, messages: 10 });
    await expect(generateTeams({ teamsDir: dir, messages: 10 })).rejects.toThrow(/already exists/);
    await expect(generateTeams({ teamsDir: dir, messages: 10, force: true })).resolves.toBeTruthy();
  });

  it('reads sizes the way people write them', () => {
    expect(parseSize('10MB')).toBe(10_000_000);
    expect(parseSize('512 KiB')).toBe(524_288);
    expect(parseSize('4096')).toBe(4096);
    expect(parseSize('ten')).toBeUndefined();
  });
});
