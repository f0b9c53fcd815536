// What an ended team's line says after the end: the Claude Code version its lead ran (its rows are
// not read again once it ended, and a listed ended team is not opened at all), and when it ended
// when no Teamdeck was running to see it (dated by its own files, not by the next look). Real
// temp folders; the lead's transcript is written row by row as Claude Code 2.1.332 writes it
// (src/sim/team-record.ts), its rows' `version` set to one no default would give.
import { appendFileSync, mkdirSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { procStartOf } from '../claude/lifecycle.js';
import { ENDED_INDEX_FILE, parseEndedIndex } from '../journal/ended-index.js';
import { readTeamMeta } from '../journal/team-meta.js';
import { TeamService } from '../service/team-service.js';
import { TeamRecord, type RecordSink } from '../../sim/team-record.js';
import { REPO_ROOT } from '../../../test/helpers/tmp.js';
import { teamsPerTest } from '../../../test/helpers/teams-per-test.js';

const CAPTURED_CONFIG = join(REPO_ROOT, 'test', 'fixtures', 'claude-2.1.332', 'team-lifecycle', 'teams', 'session-cc4ff1d9', 'config.003.json');
const SESSION = '5eed1e55-0000-4000-8000-000000000001';
const TEAM = `session-${SESSION.slice(0, 8)}`;
/** Not the simulator's (2.1.332): only these rows can have said it. */
const VERSION = '2.1.336';
const HOUR = 3_600_000;

const linux = process.platform === 'linux';
const t = teamsPerTest();

/** Rows appended to their files as they are made, each with VERSION. */
const sink: RecordSink = {
  row(path, row) {
    mkdirSync(dirname(path), { recursive: true });
    appendFileSync(path, JSON.stringify({ ...row, version: VERSION }) + '\n');
  },
  file(path, text) {
    mkdirSync(dirname(path), { recursive: true });
    appendFileSync(path, text);
  },
};

function record(): TeamRecord {
  return new TeamRecord({ teamsDir: t.root, sessionId: SESSION, cwd: '/home/me/proj', sink, team: TEAM });
}

/** The team's folder as Claude leaves it while its lead (process `pid`) runs: created at `createdAt`. */
async function teamFolder(pid: number, createdAt: number): Promise<void> {
  const cfg = JSON.parse(await readFile(CAPTURED_CONFIG, 'utf8'));
  cfg.name = TEAM;
  cfg.leadSessionId = SESSION;
  cfg.createdAt = createdAt;
  cfg.members = cfg.members.slice(0, 1).map((m: Record<string, unknown>) => ({ ...m, agentId: `team-lead@${TEAM}`, joinedAt: createdAt }));
  cfg.leadAgentId = `team-lead@${TEAM}`;
  cfg.leadProcess = { pid, claimedAt: createdAt };
  const start = procStartOf(pid);
  if (start !== undefined) cfg.leadProcess.procStart = start;
  await mkdir(join(t.root, TEAM, 'inboxes'), { recursive: true });
  await writeFile(join(t.root, TEAM, 'config.json'), JSON.stringify(cfg, null, 2));
  await writeFile(join(t.root, TEAM, 'inboxes', 'team-lead.json'), '[]');
}

function service(): TeamService {
  t.svc = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, configDir: t.base, watch: false });
  return t.svc;
}

async function restart(): Promise<TeamService> {
  await t.svc?.stop();
  const s = service();
  await s.start();
  return s;
}

const line = async (s: TeamService) => (await s.listTeams()).find((x) => x.id === TEAM);

async function indexEntry() {
  const r = parseEndedIndex(await readFile(join(t.stateDir, ENDED_INDEX_FILE), 'utf8'));
  if (!r.ok) throw new Error(r.reason);
  return r.entries.find((e) => e.id === TEAM);
}

describe.skipIf(!linux)('an ended team keeps its Claude Code version', () => {
  it('remembers the version across restarts on the same state folder: listed from the index, opened, and the index rebuilt', async () => {
    const rec = record();
    const at = Date.now() - HOUR;
    await teamFolder(process.pid, at);
    rec.typed('hello', at + 1_000);
    rec.leadSays('hello back', at + 2_000);
    let s = await restart();
    expect(await line(s)).toMatchObject({ state: 'running', claudeVersion: VERSION });
    // The lead exits while this Teamdeck watches: Claude removes the folder.
    await rm(join(t.root, TEAM), { recursive: true });
    await s.refresh();
    await s.settled();
    expect(await line(s)).toMatchObject({ state: 'ended', claudeVersion: VERSION });
    expect((await readTeamMeta(join(t.stateDir, 'journal', TEAM)))?.claudeVersion).toBe(VERSION);

    // Listed from the index alone: nothing of its transcripts is read.
    s = await restart();
    expect((await indexEntry())?.claudeVersion).toBe(VERSION);
    const listed = await line(s);
    expect(listed).toMatchObject({ state: 'ended', claudeVersion: VERSION });
    // Opened for its history: the same line.
    await s.feed(TEAM);
    expect(await line(s)).toEqual(listed);

    // An index built again from team.json says it too.
    await t.svc!.stop();
    await rm(join(t.stateDir, ENDED_INDEX_FILE));
    s = await restart();
    expect(await line(s)).toMatchObject({ state: 'ended', claudeVersion: VERSION });
    expect((await indexEntry())?.claudeVersion).toBe(VERSION);
  });

  it("reads a team.json and an index written before versions were kept, the line without a version", async () => {
    const rec = record();
    const at = Date.now() - HOUR;
    await teamFolder(process.pid, at);
    rec.typed('hello', at + 1_000);
    let s = await restart();
    await rm(join(t.root, TEAM), { recursive: true });
    await s.refresh();
    await s.stop();
    // As an older Teamdeck left them: no claudeVersion anywhere.
    const metaPath = join(t.stateDir, 'journal', TEAM, 'team.json');
    const meta = JSON.parse(await readFile(metaPath, 'utf8'));
    delete meta.claudeVersion;
    await writeFile(metaPath, JSON.stringify(meta));
    const index = JSON.parse(await readFile(join(t.stateDir, ENDED_INDEX_FILE), 'utf8'));
    for (const e of index.teams) delete e.claudeVersion;
    await writeFile(join(t.stateDir, ENDED_INDEX_FILE), JSON.stringify(index));
    s = await restart();
    const listed = await line(s);
    expect(listed).toMatchObject({ state: 'ended', endedAt: meta.endedAt });
    expect(listed?.claudeVersion).toBeUndefined();
    expect(s.problems()).toEqual([]);
  });
});

describe.skipIf(!linux)('a team that ended while no Teamdeck ran', () => {
  it("is dated by the lead's last rows, not by the next look, and keeps that date", async () => {
    const rec = record();
    const created = Date.now() - 3 * HOUR;
    await teamFolder(process.pid, created);
    rec.typed('start', created + 1_000);
    rec.leadSays('started', created + 2_000);
    let s = await restart();
    expect((await line(s))?.state).toBe('running');
    await s.stop();
    // Meanwhile, with no Teamdeck running: the lead works on, then exits (its last rows, then
    // Claude removes its folder).
    const lastRow = Date.now() - HOUR;
    rec.typed('one more thing', lastRow - 60_000);
    rec.leadSays('done', lastRow);
    await rm(join(t.root, TEAM), { recursive: true });
    const look = Date.now();
    s = await restart();
    const ended = await line(s);
    expect(ended?.state).toBe('ended');
    expect(ended?.endedAt).toBe(lastRow);
    expect(ended!.endedAt!).toBeLessThan(look - HOUR / 2);
    await s.stop();
    expect((await indexEntry())?.endedAt).toBe(lastRow);
    // The next start lists it from the index with the same end.
    s = await restart();
    expect((await line(s))?.endedAt).toBe(lastRow);
  });

  it("dates a killed lead's end (its folder left behind) by its rows, at every start", async () => {
    const rec = record();
    const created = Date.now() - 2 * HOUR;
    const lastRow = created + 30 * 60_000;
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    await teamFolder(dead, created);
    rec.typed('work', created + 1_000);
    rec.leadSays('working', lastRow);
    let s = await restart();
    expect(await line(s)).toMatchObject({ state: 'ended', endedAt: lastRow, claudeVersion: VERSION });
    s = await restart();
    expect(await line(s)).toMatchObject({ state: 'ended', endedAt: lastRow, claudeVersion: VERSION });
  });

  it('is dated at the look when nothing of the team tells a time, never later than now', async () => {
    // No transcript, no message: only the config, whose times are in the future (a skewed clock).
    const before = Date.now();
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    await teamFolder(dead, before + 24 * HOUR);
    const s = await restart();
    const ended = await line(s);
    expect(ended?.state).toBe('ended');
    expect(ended!.endedAt!).toBeGreaterThanOrEqual(before);
    expect(ended!.endedAt!).toBeLessThanOrEqual(Date.now());
  });
});
