// idle: what the engine costs while nothing happens. 20 running current-era teams (each a lead
// process that is alive, a config with leadProcess, a sessions file, transcripts for the lead and
// three in-process teammates, inboxes with history, a task list), `teamdeck serve` on them in its
// own process with no page connected; once it has settled, its CPU time (utime + stime from
// /proc/<pid>/stat) over a window in which no file changes. Linux only.
//
// The window is 60 s; `--idle-seconds=N` (or BENCH_IDLE_SECONDS) changes it.
// BENCH_HOST_NODE_ARGS="--cpu-prof --cpu-prof-dir=prof" profiles the engine while it idles.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeEntry, claudeSend } from '../src/sim/claude-inbox.js';
import { claudeSidePaths } from '../src/sim/claude-paths.js';
import { createTeam } from '../src/sim/simulator.js';
import { leadTranscript, newPromptState, newTeammateAgentId, teammateTranscript, writeTeammateMeta } from '../src/sim/transcript.js';
import { WARM_UP_MS } from '../src/engine/service/read-schedule.js';
import { hostClient, nowMs, sleep, startHost } from './browser.js';
import type { Row } from './stats.js';

const TARGET_PCT = 0.5;
const TEAMMATES = ['researcher', 'implementer', 'tester'];
/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ; 100 on Linux). */
const TICKS_PER_S = 100;

/** utime + stime of a process, in ms of CPU. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of the line; 3 is the first after the command.
  return ((Number(f[14 - 3]) + Number(f[15 - 3])) * 1000) / TICKS_PER_S;
}

/** The window's length: `--idle-seconds=N`, BENCH_IDLE_SECONDS, or 60. */
export function idleSeconds(argv = process.argv, env = process.env): number {
  const arg = argv.find((a) => a.startsWith('--idle-seconds='))?.slice('--idle-seconds='.length) ?? env.BENCH_IDLE_SECONDS;
  const n = arg === undefined ? 60 : Number(arg);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--idle-seconds must be a positive number, not ${JSON.stringify(arg)}`);
  return n;
}

/** A process that stays alive as a team's lead (its pid goes into leadProcess and sessions/<pid>.json). */
function leadStandIn(): ChildProcess {
  const p = spawn('sleep', ['86400'], { stdio: 'ignore' });
  if (p.pid === undefined) throw new Error('cannot start a stand-in lead (sleep)');
  return p;
}

/** One running team as a 2.1.332 lead leaves it after a while of work, then quiet. */
async function writeRunningTeam(teamsDir: string, pid: number, i: number): Promise<void> {
  const cwd = `/home/me/project-${i}`;
  const start = Date.now() - 30 * 60_000;
  let clock = start;
  const now = () => (clock += 1_000);
  const team = await createTeam({ teamsDir, era: 'current', members: TEAMMATES, pid, cwd, now });
  const prompt = newPromptState();
  const lead = leadTranscript(teamsDir, { sessionId: team.leadSessionId, cwd, prompt }, now);
  await lead.typed('Split the work on the upload client between the team and report back.');
  for (const name of TEAMMATES) {
    const agentId = newTeammateAgentId(name);
    const t = teammateTranscript({ teamsDir, cwd, leadSessionId: team.leadSessionId, agentId, prompt, now });
    await writeTeammateMeta(t, { name, teamName: team.name, description: `${name} on the upload client` });
    await t.recorded(`<teammate-message teammate_id="team-lead">\nTake the ${name} part.\n</teammate-message>`);
    await t.text(`Done with the ${name} part; the tests pass.`);
    await t.flush();
    await claudeSend(team.dir, 'team-lead', { ...claudeEntry({ from: name, text: `Done with the ${name} part; the tests pass.`, summary: `${name} done`, timestamp: new Date(now()).toISOString() }), read: true });
    await claudeSend(team.dir, name, { ...claudeEntry({ from: 'team-lead', text: `Take the ${name} part.`, timestamp: new Date(now()).toISOString() }), read: true });
  }
  await lead.text('The team is done; everything is merged.');
  await lead.flush();
  const tasks = claudeSidePaths(teamsDir).tasksDir(team.name);
  await mkdir(tasks, { recursive: true });
  for (const [n, name] of TEAMMATES.entries()) {
    const task = { id: String(n + 1), subject: `The ${name} part`, description: 'Of the upload client.', status: 'completed', owner: name, blocks: [], blockedBy: [] };
    await writeFile(join(tasks, `${n + 1}.json`), JSON.stringify(task, null, 2));
  }
}

export async function benchIdle(seconds = idleSeconds(), teams = 20): Promise<Row[]> {
  if (process.platform !== 'linux') throw new Error('the idle scenario reads /proc: Linux only');
  const base = await mkdtemp(join(tmpdir(), 'teamdeck-bench-idle-'));
  const teamsDir = join(base, 'teams');
  const stateDir = join(base, 'state');
  const leads: ChildProcess[] = [];
  let host: Awaited<ReturnType<typeof startHost>> | undefined;
  try {
    for (let i = 0; i < teams; i++) {
      const lead = leadStandIn();
      leads.push(lead);
      await writeRunningTeam(teamsDir, lead.pid!, i);
    }
    host = await startHost(teamsDir, stateDir);
    // Settled: every team is read and running, and a few rescans have passed since.
    const client = await hostClient(host);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const list = (await client.call<{ teams: Array<{ id: string; state: string; memberCount: number }> }>('getSnapshot')).teams;
      if (list.length === teams && list.every((t) => t.state === 'running' && t.memberCount === TEAMMATES.length + 1)) {
        // A roster is answered once the team's history is read.
        for (const t of list) await client.call('getRoster', t.id);
        break;
      }
      if (Date.now() > deadline) throw new Error(`the engine did not list ${teams} running teams in 60 s: ${JSON.stringify(list)}`);
      await sleep(200);
    }
    client.close();
    // Settled: 10 s after the last roster, and past the start-up's warm-up (the safety net runs
    // on every tick for WARM_UP_MS after the watchers start: a start, not "nothing happening").
    const settleMs = Math.max(10_000, host.readyAt + WARM_UP_MS + 5_000 - nowMs());
    await sleep(settleMs);
    const t0 = performance.now();
    const c0 = cpuMs(host.pid);
    await sleep(seconds * 1000);
    const c1 = cpuMs(host.pid);
    const wall = performance.now() - t0;
    const pct = ((c1 - c0) / wall) * 100;
    return [
      {
        scenario: 'idle',
        figure: `Idle: ${teams} running teams, nothing changing, ${seconds} s: engine CPU`,
        unit: '% of one core',
        median: pct,
        compare: 'target',
        compareValue: TARGET_PCT,
        ratio: pct / TARGET_PCT,
        target: `<= ${TARGET_PCT}% of one core`,
        met: pct <= TARGET_PCT,
        note: `teamdeck serve, no page connected; ${(c1 - c0).toFixed(0)} ms CPU in ${(wall / 1000).toFixed(1)} s after ${(settleMs / 1000).toFixed(0)} s to settle (past the engine's ${WARM_UP_MS / 1000} s start-up warm-up, in which the safety net runs every tick); each team a live lead process, ${TEAMMATES.length} in-process teammates, transcripts, inboxes, tasks`,
      },
    ];
  } finally {
    await host?.stop();
    for (const l of leads) l.kill();
    await rm(base, { recursive: true, force: true });
  }
}
