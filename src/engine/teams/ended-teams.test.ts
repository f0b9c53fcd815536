// Ended teams listed from the ended-teams index without their journals, opened on demand, a few
// kept open; the index rebuilt from team.json files when it is missing or damaged. Real temp
// folders; "not opened" is read from this process's open file descriptors (/proc/self/fd): an
// open journal holds its segment open for appends.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, readlink, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TeamService } from '../service/team-service.js';
import { ApiHandlers } from '../api/api-handlers.js';
import { SettingsStore } from '../service/settings.js';
import { SendRefusedError } from '../service/service-types.js';
import { ENDED_INDEX_FILE, parseEndedIndex } from '../journal/ended-index.js';
import { OPEN_ENDED_TEAMS } from './ended-teams.js';
import { writeEndedTeams } from '../../sim/ended-gen.js';
import { writeTeam } from '../../../test/helpers/team-fixture.js';
import { teamsPerTest } from '../../../test/helpers/teams-per-test.js';
import { REPO_ROOT } from '../../../test/helpers/tmp.js';

const CAPTURED_CONFIG = join(REPO_ROOT, 'test', 'fixtures', 'claude-2.1.332', 'team-lifecycle', 'teams', 'session-cc4ff1d9', 'config.003.json');

/** A current-era team whose lead was killed: Claude left its folder, its lead's pid is gone. */
async function killedLeadTeam(root: string, id: string): Promise<void> {
  const cfg = JSON.parse(await readFile(CAPTURED_CONFIG, 'utf8'));
  const dead = spawnSync(process.execPath, ['-e', '0']).pid;
  cfg.name = id;
  cfg.leadProcess = { ...cfg.leadProcess, pid: dead };
  delete cfg.leadProcess.procStart;
  delete cfg.leadProcess.pidSpace;
  await mkdir(join(root, id, 'inboxes'), { recursive: true });
  await writeFile(join(root, id, 'config.json'), JSON.stringify(cfg, null, 2));
  await writeFile(join(root, id, 'inboxes', 'team-lead.json'), JSON.stringify([{ from: 'researcher', text: `hello from ${id}`, timestamp: ts(1), read: true }]));
}

const t = teamsPerTest();

const linux = process.platform === 'linux';

/** The teams whose journal segment this process holds open. */
async function openJournals(stateDir: string): Promise<string[]> {
  const root = join(await realpath(stateDir), 'journal') + '/';
  const teams = new Set<string>();
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (target.startsWith(root) && target.endsWith('.jsonl')) teams.add(target.slice(root.length).split('/')[0]!);
  }
  return [...teams].sort();
}

/** Every file under the state dir with its size and mtime. */
async function snapshot(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const p = join(e.parentPath, e.name);
    const st = await stat(p);
    out.push(`${p} ${st.size} ${st.mtimeMs}`);
  }
  return out.sort();
}

const readIndex = async (stateDir: string) => {
  const r = parseEndedIndex(await readFile(join(stateDir, ENDED_INDEX_FILE), 'utf8'));
  if (!r.ok) throw new Error(r.reason);
  return r.entries;
};

function service(): TeamService {
  t.svc = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false });
  return t.svc;
}

const ts = (n: number) => new Date(1_767_000_000_000 + n * 1000).toISOString();

describe.skipIf(!linux)('ended teams from the index', () => {
  it('lists ended teams from the index without opening their journals, and opens one on demand', async () => {
    const gen = await writeEndedTeams({ stateDir: t.stateDir, teams: 5, members: 3, messages: 40, seed: 7 });
    const indexAt = (await stat(join(t.stateDir, ENDED_INDEX_FILE))).mtimeMs;
    const s = service();
    await s.start();
    const teams = await s.listTeams();
    expect(teams.map((x) => [x.id, x.state, x.endedReason])).toEqual(
      gen.teams.map((g) => [g.id, 'ended', 'the lead exited and Claude removed the team folder']).sort(),
    );
    expect(teams.find((x) => x.id === gen.teams[2]!.id)!.endedAt).toBe(gen.teams[2]!.endedAt);
    expect(await openJournals(t.stateDir)).toEqual([]);
    const id = gen.teams[2]!.id;
    const feed = await s.feed(id);
    expect(feed).toHaveLength(gen.teams[2]!.messages);
    expect(await openJournals(t.stateDir)).toEqual([id]);
    // Its summary is the same opened as listed.
    expect((await s.listTeams()).find((x) => x.id === id)).toEqual(teams.find((x) => x.id === id));
    // Nothing changed in its history: its index entry is not written again.
    const index = await readFile(join(t.stateDir, ENDED_INDEX_FILE), 'utf8');
    await s.stop();
    t.svc = undefined;
    expect(await readFile(join(t.stateDir, ENDED_INDEX_FILE), 'utf8')).toBe(index);
    expect((await stat(join(t.stateDir, ENDED_INDEX_FILE))).mtimeMs).toBe(indexAt);
  });

  it('a team that ends while the engine runs enters the index; after a restart it is listed unopened and opens with the same history', async () => {
    await writeTeam(t.root, 'alpha', ['researcher'], {
      inboxes: {
        researcher: [{ from: 'team-lead', text: 'look at the cache', timestamp: ts(1), read: true }],
        user: [{ from: 'researcher', text: 'the cache races', summary: 'race', timestamp: ts(2), read: false }],
      },
    });
    let s = service();
    await s.start();
    const sent = await s.send({ team: 'alpha', to: 'researcher', text: 'thanks' });
    expect(sent.status).toBe('accepted');
    await rm(join(t.root, 'alpha'), { recursive: true });
    await s.refresh();
    const ended = (await s.listTeams()).find((x) => x.id === 'alpha')!;
    expect(ended.state).toBe('ended');
    const feed = await s.feed('alpha');
    const thread = await s.thread('alpha', 'researcher');
    const roster = (await s.roster('alpha')).map((m) => m.name);
    await s.stop();
    expect((await readIndex(t.stateDir)).map((e) => [e.id, e.endedReason, e.messages])).toEqual([['alpha', ended.endedReason, 3]]);

    s = service();
    await s.start();
    expect((await s.listTeams()).find((x) => x.id === 'alpha')).toMatchObject({ state: 'ended', endedAt: ended.endedAt, endedReason: ended.endedReason });
    expect(await openJournals(t.stateDir)).toEqual([]);
    expect(await s.feed('alpha')).toEqual(feed);
    expect(await s.thread('alpha', 'researcher')).toEqual(thread);
    expect((await s.roster('alpha')).map((m) => m.name)).toEqual(roster);
  });

  it('a team whose folder went while Teamdeck was away is opened once, recorded ended, and listed from the index after', async () => {
    await writeTeam(t.root, 'gone', ['researcher'], { inboxes: { researcher: [{ from: 'team-lead', text: 'hi', timestamp: ts(1), read: true }] } });
    let s = service();
    await s.start();
    await s.stop();
    await rm(join(t.root, 'gone'), { recursive: true });
    s = service();
    await s.start();
    expect((await s.listTeams()).map((x) => [x.id, x.state])).toEqual([['gone', 'ended']]);
    await s.stop();
    expect((await readIndex(t.stateDir)).map((e) => e.id)).toEqual(['gone']);
    s = service();
    await s.start();
    expect(await openJournals(t.stateDir)).toEqual([]);
    expect((await s.feed('gone')).map((m) => m.text)).toEqual(['hi']);
  });

  it(`keeps at most ${OPEN_ENDED_TEAMS} ended teams open: the least recently asked for is closed, and opens again`, async () => {
    const gen = await writeEndedTeams({ stateDir: t.stateDir, teams: OPEN_ENDED_TEAMS + 2, members: 3, messages: 30, seed: 3 });
    const ids = gen.teams.map((g) => g.id);
    const s = service();
    await s.start();
    const first = await s.feed(ids[0]!);
    for (const id of ids) await s.roster(id);
    await s.settled();
    const open = await openJournals(t.stateDir);
    expect(open).toEqual(ids.slice(-OPEN_ENDED_TEAMS).sort());
    expect(open).not.toContain(ids[0]);
    // Closed, still listed, and the same history when asked for again.
    expect((await s.listTeams()).map((x) => x.id)).toEqual([...ids].sort());
    expect(await s.feed(ids[0]!)).toEqual(first);
    await s.settled();
    const again = await openJournals(t.stateDir);
    expect(again).toContain(ids[0]);
    expect(again).toHaveLength(OPEN_ENDED_TEAMS);
  });

  it('never closes an ended team whose folder Claude left behind (the next scan would open it again as new)', async () => {
    const ids = Array.from({ length: OPEN_ENDED_TEAMS + 2 }, (_, i) => `session-0000000${i}`);
    for (const id of ids) await killedLeadTeam(t.root, id);
    const s = service();
    await s.start();
    const first = await s.listTeams();
    expect(first.map((x) => [x.id, x.state])).toEqual(ids.map((id) => [id, 'ended']));
    expect(first[0]!.endedReason).toMatch(/lead's process \(pid \d+\) is gone/);
    await s.refresh();
    await s.settled();
    expect(await openJournals(t.stateDir)).toEqual(ids);
    // Not opened again and marked ended anew: the same end.
    expect((await s.listTeams()).map((x) => x.endedAt)).toEqual(first.map((x) => x.endedAt));
  });

  it('drops an entry whose journal was removed by hand (nothing of it is left to open)', async () => {
    const gen = await writeEndedTeams({ stateDir: t.stateDir, teams: 3, members: 2, messages: 10, seed: 15 });
    await rm(join(t.stateDir, 'journal', gen.teams[1]!.id), { recursive: true });
    const s = service();
    await s.start();
    const left = [gen.teams[0]!.id, gen.teams[2]!.id].sort();
    expect((await s.listTeams()).map((x) => x.id)).toEqual(left);
    await s.stop();
    t.svc = undefined;
    expect((await readIndex(t.stateDir)).map((e) => e.id)).toEqual(left);
  });

  it('builds the index from the team.json files when it is missing, without folding a journal', async () => {
    const gen = await writeEndedTeams({ stateDir: t.stateDir, teams: 4, members: 2, messages: 10, seed: 5 });
    const before = await readIndex(t.stateDir);
    await rm(join(t.stateDir, ENDED_INDEX_FILE));
    const s = service();
    await s.start();
    expect((await s.listTeams()).map((x) => [x.id, x.state])).toEqual(gen.teams.map((g) => [g.id, 'ended']).sort());
    expect(await openJournals(t.stateDir)).toEqual([]);
    const rebuilt = await readIndex(t.stateDir);
    // From team.json alone: the same teams, ends and members; no message counts until opened.
    expect(rebuilt.map((e) => [e.id, e.endedAt, e.endedReason, e.memberCount])).toEqual(before.map((e) => [e.id, e.endedAt, e.endedReason, e.memberCount]));
  });

  it('keeps a damaged index in preserved/, reports it, and lists every team from the team.json files', async () => {
    const gen = await writeEndedTeams({ stateDir: t.stateDir, teams: 3, members: 2, messages: 10, seed: 9 });
    const bad = '{"v":1,"teams":[{"id":"x"';
    await writeFile(join(t.stateDir, ENDED_INDEX_FILE), bad);
    const s = service();
    await s.start();
    expect((await s.listTeams()).map((x) => x.id)).toEqual(gen.teams.map((g) => g.id).sort());
    const p = s.problems().find((x) => x.file === ENDED_INDEX_FILE)!;
    expect(p.message).toMatch(/damaged \(not valid JSON/);
    expect(await readFile(p.preservedAt!, 'utf8')).toBe(bad);
    expect((await readIndex(t.stateDir)).map((e) => e.id)).toEqual(gen.teams.map((g) => g.id).sort());
  });

  it('refuses a send to a listed ended team with the reason, and writes nothing', async () => {
    const gen = await writeEndedTeams({ stateDir: t.stateDir, teams: 2, members: 2, messages: 10, seed: 11 });
    const s = service();
    await s.start();
    await s.settled();
    const before = await snapshot(t.stateDir);
    const send = s.send({ team: gen.teams[0]!.id, to: 'team-lead', text: 'are you there?' });
    await expect(send).rejects.toBeInstanceOf(SendRefusedError);
    await expect(send).rejects.toThrow(/has ended \(the lead exited and Claude removed the team folder\); nothing can be sent to it/);
    expect(await openJournals(t.stateDir)).toEqual([]);
    expect(await snapshot(t.stateDir)).toEqual(before);
  });

  it("refuses the window's send to a listed ended team with the reason (not as unknown), opening and writing nothing", async () => {
    const gen = await writeEndedTeams({ stateDir: t.stateDir, teams: 2, members: 2, messages: 10, seed: 13 });
    const h = await ApiHandlers.create({
      stateDir: t.stateDir,
      settings: await SettingsStore.open(t.stateDir),
      teamsDirFlag: t.root,
      env: {},
      createService: (o) => new TeamService({ ...o, watch: false }),
    });
    try {
      const before = await snapshot(t.stateDir);
      const r = await h.dispatch('send', [{ team: gen.teams[1]!.id, to: 'team-lead', text: 'hello?' }]);
      expect(r).toEqual({ ok: false, error: { code: 'refused', message: `team ${gen.teams[1]!.id} has ended (the lead exited and Claude removed the team folder); nothing can be sent to it` } });
      expect(await h.dispatch('send', [{ team: 'nobody', to: 'team-lead', text: 'hello?' }])).toMatchObject({ ok: false, error: { code: 'not_found' } });
      expect(await openJournals(t.stateDir)).toEqual([]);
      expect(await snapshot(t.stateDir)).toEqual(before);
    } finally {
      await h.close();
    }
  });

  it('a folder that comes back for a listed ended team is read as running again', async () => {
    await writeTeam(t.root, 'phoenix', ['researcher'], { inboxes: { researcher: [{ from: 'team-lead', text: 'first life', timestamp: ts(1), read: true }] } });
    let s = service();
    await s.start();
    await rm(join(t.root, 'phoenix'), { recursive: true });
    await s.refresh();
    await s.stop();
    s = service();
    await s.start();
    expect(await openJournals(t.stateDir)).toEqual([]);
    await writeTeam(t.root, 'phoenix', ['researcher'], { inboxes: { researcher: [{ from: 'team-lead', text: 'second life', timestamp: ts(5), read: true }] } });
    await s.refresh();
    expect((await s.listTeams()).map((x) => [x.id, x.state])).toEqual([['phoenix', 'running']]);
    expect((await s.feed('phoenix')).map((m) => m.text)).toEqual(['first life', 'second life']);
    expect((await s.send({ team: 'phoenix', to: 'researcher', text: 'welcome back' })).status).toBe('accepted');
    await s.stop();
    t.svc = undefined;
    expect(await readIndex(t.stateDir)).toEqual([]);
  });
});
