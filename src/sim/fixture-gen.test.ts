import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { readTeam } from '../engine/claude/team-reader.js';
import { parseFrame } from '../engine/claude/frames.js';
import { generateTeams, parseSize, type GenOptions } from './fixture-gen.js';

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

const sha = (b: string | Buffer) => createHash('sha256').update(b).digest('hex').slice(0, 16);

/** Every file under `root` (its path relative to root, sorted) with the hash of its bytes. */
async function hashesOf(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of (await readdir(root, { recursive: true, withFileTypes: true })).filter((x) => x.isFile())) {
    const path = join(e.parentPath, e.name);
    out[path.slice(root.length + 1).split('\\').join('/')] = sha(await readFile(path));
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * Runs that between them take every branch of the generator: long thread, each kind of filler
 * owner (lead, user, a teammate), prune mode, per-member counts, shutdowns, a slice of the teams,
 * another end and project folder.
 */
const PINNED_RUNS: Omit<GenOptions, 'teamsDir'>[] = [
  { teams: 3, members: 5, messages: 150, thread: 30, inboxBytes: 40_000, seed: 11 },
  { teams: 2, members: 3, messages: 40, perMember: true, mode: 'prune', inboxBytes: 20_000, inboxOwner: 'user', shutdowns: 1, seed: 12, only: { from: 1, to: 2 } },
  { teams: 1, members: 6, messages: 80, inboxBytes: 15_000, inboxOwner: 'implementer', shutdowns: 2, seed: 13, end: Date.parse('2025-06-01T00:00:00Z'), cwd: '/home/dev/other' },
];

/** Recorded from the generator before it was split into modules; a change here is a change to `teamdeck gen`'s output. */
const PINNED_HASHES: Record<string, string>[] = [
  {
    'humble-roaming-puffin/config.json': '639e00228a8dbea1',
    'humble-roaming-puffin/inboxes/implementer.json': '30ed951e0642629e',
    'humble-roaming-puffin/inboxes/researcher.json': 'cbc2f6098ea48ce4',
    'humble-roaming-puffin/inboxes/reviewer.json': 'e1f4f2758b75197d',
    'humble-roaming-puffin/inboxes/team-lead.json': 'fb26be35d5fbf5eb',
    'humble-roaming-puffin/inboxes/tester.json': 'fa1dda9e43c64d92',
    'humble-roaming-puffin/inboxes/user.json': '1c5c1990ec24bafb',
    'misty-weaving-meerkat/config.json': '0dcab2404a1225ce',
    'misty-weaving-meerkat/inboxes/implementer.json': '1dcd554f8bd53bae',
    'misty-weaving-meerkat/inboxes/researcher.json': 'ebffd621ac848a9b',
    'misty-weaving-meerkat/inboxes/reviewer.json': '1e5286fc0bf24937',
    'misty-weaving-meerkat/inboxes/team-lead.json': '72df43bdcf9e2d5e',
    'misty-weaving-meerkat/inboxes/tester.json': '18036ef97587b983',
    'misty-weaving-meerkat/inboxes/user.json': '05caa59edb8b2041',
    'misty-weaving-walrus/config.json': 'f30b34b1a3e53a67',
    'misty-weaving-walrus/inboxes/implementer.json': '0f794ecf097bcc31',
    'misty-weaving-walrus/inboxes/researcher.json': 'd438c02277e2c086',
    'misty-weaving-walrus/inboxes/reviewer.json': '2d6501e97cef8fae',
    'misty-weaving-walrus/inboxes/team-lead.json': '5e271d59aa359878',
    'misty-weaving-walrus/inboxes/tester.json': '61e0d81fd3517fe4',
    'misty-weaving-walrus/inboxes/user.json': 'f6740ca6dc7f2904',
    '(result)': '96ee7b69f6eaed9b',
  },
  {
    'brisk-digging-tapir/config.json': 'c8ce0883264514fd',
    'brisk-digging-tapir/inboxes/implementer.json': '4f53cda18c2baa0c',
    'brisk-digging-tapir/inboxes/researcher.json': 'af93fa9774ea4395',
    'brisk-digging-tapir/inboxes/team-lead.json': '634198bd0430afc3',
    'brisk-digging-tapir/inboxes/user.json': 'f6f9cbe72002d062',
    '(result)': 'ac48e7e51c9769f7',
  },
  {
    'patient-gliding-tapir/config.json': '2de086fc89eab405',
    'patient-gliding-tapir/inboxes/frontend-dev.json': 'eb26260e0e31f2fe',
    'patient-gliding-tapir/inboxes/implementer.json': 'b0a4f4d4834ff082',
    'patient-gliding-tapir/inboxes/researcher.json': 'ad3a2c5bc3afda66',
    'patient-gliding-tapir/inboxes/reviewer.json': '7fd0a5cb5d8bac29',
    'patient-gliding-tapir/inboxes/team-lead.json': '8b1c3f0b6605b6be',
    'patient-gliding-tapir/inboxes/tester.json': '6874f33545a5ade8',
    'patient-gliding-tapir/inboxes/user.json': '7e977052792f9531',
    '(result)': '3b051838e6f34265',
  },
];

describe('generateTeams', () => {
  it('writes exactly the bytes it wrote when these hashes were recorded', async () => {
    const got: Record<string, string>[] = [];
    for (const [i, run] of PINNED_RUNS.entries()) {
      const root = join(dir, `run${i}`);
      const r = await generateTeams({ teamsDir: root, ...run });
      // The result names the temp dir; everything else in it is pinned too.
      const result = JSON.stringify({ ...r, teamsDir: '<root>', teams: r.teams.map((t) => ({ ...t, dir: relative(root, t.dir) })) });
      got.push({ ...(await hashesOf(root)), '(result)': sha(result) });
    }
    expect(got).toEqual(PINNED_HASHES);
  });

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
