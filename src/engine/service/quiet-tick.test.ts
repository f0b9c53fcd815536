// The engine's tick between safety-net passes: it reads no file, yet what no file says (a lead
// killed) and what the watchers cannot see yet (a folder that did not exist when watches were
// set up) still arrive within ticks, not at the next safety-net pass. Real temp dirs, a real
// lead process, the captured team from Claude Code 2.1.332; the safety net is set to a minute
// so that only the tick can make the deadlines.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../shared/contract.js';
import { CAPTURE, CAPTURED_PROJECT, CAPTURED_SESSION, CAPTURED_SUBAGENTS, CAPTURED_TEAM as TEAM, CAPTURED_TX, liveCapturedTeam, writeSessionVersion } from '../../../test/helpers/captured-team.js';
import { makeTempDir } from '../../../test/helpers/tmp.js';
import { forEachConcurrently } from '../files/concurrently.js';
import { SafetyNetClock } from './rescan.js';
import { TeamService } from './team-service.js';

let base: string;
let config: string;
let svc: TeamService | undefined;
let lead: ChildProcess | undefined;
let events: AppEvent[];

beforeEach(async () => {
  base = await makeTempDir();
  config = join(base, '.claude');
  events = [];
});
afterEach(async () => {
  await svc?.stop();
  svc = undefined;
  lead?.kill('SIGKILL');
  lead = undefined;
  await rm(base, { recursive: true, force: true });
});

async function start(): Promise<TeamService> {
  svc = new TeamService({ teamsRoot: join(config, 'teams'), stateDir: join(base, 'state'), rescanMs: 50, safetyNetMs: 60_000 });
  svc.onEvent((e) => events.push(e));
  await svc.start();
  return svc;
}

async function until<T>(what: string, f: () => T | undefined | false | Promise<T | undefined | false>, ms = 3_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const lines = async (agent: keyof typeof CAPTURED_TX) => (await readFile(join(CAPTURE, CAPTURED_TX[agent]), 'utf8')).split('\n').filter(Boolean);
const timelineOf = (member: string) => events.filter((e) => e.type === 'timeline' && e.team === TEAM && e.member === member);

describe('the tick between safety-net passes', () => {
  it("ends a team whose lead was killed (Claude leaves the folder; no file changes) within ticks", async () => {
    lead = spawn('sleep', ['600'], { stdio: 'ignore' });
    await liveCapturedTeam(config, { pid: lead.pid! });
    const s = await start();
    expect((await s.listTeams())[0]).toMatchObject({ state: 'running' });
    const exited = new Promise((r) => lead!.once('exit', r));
    lead.kill('SIGKILL');
    await exited;
    const t = await until('the team ended', async () => (await s.listTeams()).find((x) => x.state === 'ended'));
    expect(t.endedReason).toMatch(/lead's process \(pid \d+\) is gone/);
  });

  it("finds the lead's transcript made after the team was opened, reads it, and watches it from then on", async () => {
    await liveCapturedTeam(config, { transcripts: false });
    const s = await start();
    expect((await s.activity(TEAM)).find((a) => a.member === 'team-lead')?.sources).not.toContain('transcript');
    const rows = await lines('team-lead');
    const tx = join(config, CAPTURED_TX['team-lead']);
    await mkdir(join(config, CAPTURED_PROJECT), { recursive: true });
    // All but the lead's last answer, which comes later.
    const last = rows.findLastIndex((l) => (JSON.parse(l) as { type?: string }).type === 'assistant');
    await writeFile(tx, rows.slice(0, last).map((l) => l + '\n').join(''));
    await until("the lead's activity from its transcript", async () => (await s.activity(TEAM)).find((a) => a.member === 'team-lead' && a.sources.includes('transcript')));
    // A row appended now is news, pushed as a timeline item: the file is watched.
    const before = timelineOf('team-lead').length;
    await appendFile(tx, rows[last]! + '\n');
    await until('a timeline event for the new row', () => timelineOf('team-lead').length > before);
  });

  it('watches a subagents folder that appears after the watches were set up', async () => {
    await liveCapturedTeam(config);
    await rm(join(config, CAPTURED_PROJECT, CAPTURED_SESSION), { recursive: true });
    const s = await start();
    await mkdir(join(config, CAPTURED_SUBAGENTS), { recursive: true });
    await writeFile(join(config, CAPTURED_TX.researcher.replace(/\.jsonl$/, '.meta.json')), await readFile(join(CAPTURE, CAPTURED_TX.researcher.replace(/\.jsonl$/, '.meta.json'))));
    // The teammate writes its transcript row by row; the engine must pick it up from the folder's watch.
    const rows = await lines('researcher');
    let next = 0;
    await until("the researcher's activity from its transcript", async () => {
      if (next < rows.length) await appendFile(join(config, CAPTURED_TX.researcher), rows[next++] + '\n');
      return (await s.activity(TEAM)).find((a) => a.member === 'researcher' && a.sources.includes('transcript'));
    });
  });


  it('watches the sessions folder again after it was removed and made anew', async () => {
    await liveCapturedTeam(config);
    const s = await start();
    expect(await s.needs()).toEqual([]);
    await rm(join(config, 'sessions'), { recursive: true });
    // The lead's sessions file, made again in a new folder, says it waits for a permission answer.
    await until('a permission need from the new sessions file', async () => {
      await writeSessionVersion(config, 11, process.pid, { status: 'waiting', waitingFor: 'permission prompt', statusUpdatedAt: Date.now() });
      return (await s.needs()).find((n) => n.kind === 'permission');
    });
  });
});

describe('SafetyNetClock', () => {
  it('is due every n-th tick, and at once on a tick with trouble (counting again from there)', () => {
    const net = new SafetyNetClock(3);
    expect([false, false, true, false, false, true].map(() => net.due(false))).toEqual([false, false, true, false, false, true]);
    expect(net.due(false)).toBe(false);
    expect(net.due(true)).toBe(true);
    expect([net.due(false), net.due(false), net.due(false)]).toEqual([false, false, true]);
  });
});

describe('forEachConcurrently', () => {
  it('runs every item, never more than the limit at once, and rejects with the first error after all ran', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    const work = async (i: number) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 5 + (i % 3)));
      running--;
      done.push(i);
      if (i === 4 || i === 7) throw new Error(`item ${i}`);
    };
    await expect(forEachConcurrently([...Array(12).keys()], work, 3)).rejects.toThrow('item 4');
    expect(most).toBe(3);
    expect(done.sort((a, b) => a - b)).toEqual([...Array(12).keys()]);
  });
});
