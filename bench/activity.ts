// activity: a tool call appended to a teammate's transcript until the engine announces the
// member working on it (an `activity` event), through the real TeamService with its folder
// watches; and what one new line costs when the transcript is 200 MB: the engine's transcript
// poll and activity fold, against reading those new bytes alone (fstat, read, parse).
import { appendFile, mkdir, mkdtemp, open, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { procStartOf } from '../src/engine/claude/lifecycle.js';
import { TranscriptWatch } from '../src/engine/claude/transcripts.js';
import { foldRows, newTrack } from '../src/engine/live/activity.js';
import { TeamService } from '../src/engine/service/team-service.js';
import type { AppEvent } from '../src/shared/contract.js';
import { summarize, type Row } from './stats.js';

const TEAM = 'session-be0c4a11';
const SESSION = 'be0c4a11-0000-4000-8000-000000000000';
const SLUG = '-home-dev-project';

let seq = 0;
export const callRow = (id: string, command: string) =>
  JSON.stringify({ type: 'assistant', message: { id: `m${++seq}`, role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }], stop_reason: 'tool_use' }, timestamp: new Date().toISOString(), uuid: `u${seq}` }) + '\n';
export const resultRow = (id: string) =>
  JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] }, toolUseResult: {}, timestamp: new Date().toISOString(), uuid: `u${++seq}` }) + '\n';

export async function liveTeam(config: string): Promise<{ lead: string; worker: string }> {
  const dir = join(config, 'teams', TEAM);
  await mkdir(join(dir, 'inboxes'), { recursive: true });
  await writeFile(
    join(dir, 'config.json'),
    JSON.stringify({
      name: TEAM,
      leadSessionId: SESSION,
      leadProcess: { pid: process.pid, procStart: procStartOf(process.pid) },
      members: [
        { agentId: `team-lead@${TEAM}`, name: 'team-lead', agentType: 'team-lead', tmuxPaneId: 'leader', backendType: 'in-process' },
        { agentId: `worker@${TEAM}`, name: 'worker', agentType: 'general-purpose', tmuxPaneId: 'in-process', backendType: 'in-process' },
      ],
    }),
  );
  const project = join(config, 'projects', SLUG);
  const sub = join(project, SESSION, 'subagents');
  await mkdir(sub, { recursive: true });
  const lead = join(project, `${SESSION}.jsonl`);
  const worker = join(sub, 'agent-aworker-0123456789abcdef.jsonl');
  await writeFile(lead, '');
  await writeFile(worker, '');
  return { lead, worker };
}

/** Append → `activity` event naming the call, through the engine (its folder watch, not the 2 s rescan). */
async function announceLatency(runs: number): Promise<number[]> {
  const base = await mkdtemp(join(tmpdir(), 'teamdeck-bench-activity-'));
  const config = join(base, '.claude');
  const { worker } = await liveTeam(config);
  const svc = new TeamService({ teamsRoot: join(config, 'teams'), stateDir: join(base, 'state') });
  let waiting: { id: string; resolve: () => void } | undefined;
  svc.onEvent((e: AppEvent) => {
    if (e.type !== 'activity' || !waiting) return;
    const w = e.activity.find((a) => a.member === 'worker');
    if (w?.tool?.summary === `step ${waiting.id}`) waiting.resolve();
  });
  await svc.start();
  const times: number[] = [];
  try {
    for (let i = 0; i < runs + 3; i++) {
      const id = `b${i}`;
      const seen = new Promise<void>((resolve) => (waiting = { id, resolve }));
      const t0 = performance.now();
      await appendFile(worker, callRow(id, `step ${id}`));
      await seen;
      if (i >= 3) times.push(performance.now() - t0);
      await appendFile(worker, resultRow(id));
      await new Promise((r) => setTimeout(r, 30));
    }
  } finally {
    await svc.stop();
    await rm(base, { recursive: true, force: true });
  }
  return times;
}

/** A transcript of `mb` MB of ~2 KB rows, written in large chunks. */
async function bigTranscript(path: string, mb: number): Promise<void> {
  const text = 'x'.repeat(1_800);
  const chunk: string[] = [];
  for (let i = 0; i < 1_000; i++) chunk.push(JSON.stringify({ type: 'assistant', message: { id: `h${i}`, role: 'assistant', content: [{ type: 'text', text }], stop_reason: 'end_turn' }, timestamp: '2026-12-01T10:00:00.000Z', uuid: `h${i}` }));
  const block = chunk.join('\n') + '\n';
  const fh = await open(path, 'w');
  try {
    let written = 0;
    while (written < mb * 1024 * 1024) {
      await fh.write(block);
      written += Buffer.byteLength(block);
    }
  } finally {
    await fh.close();
  }
}

/** Reading only the new bytes: what any reader of the appended line must do. */
async function readNewBytes(path: string, from: number): Promise<number> {
  const t0 = performance.now();
  const fh = await open(path, 'r');
  try {
    const st = await fh.stat();
    const buf = Buffer.alloc(st.size - from);
    await fh.read(buf, 0, buf.length, from);
    for (const line of buf.toString('utf8').split('\n')) if (line) JSON.parse(line);
  } finally {
    await fh.close();
  }
  return performance.now() - t0;
}

async function appendCost(mb: number, runs: number): Promise<{ poll: number[]; floor: number[]; catchUpMs: number; catchUpPolls: number }> {
  const base = await mkdtemp(join(tmpdir(), 'teamdeck-bench-bigtx-'));
  const config = join(base, '.claude');
  try {
    const { lead } = await liveTeam(config);
    await bigTranscript(lead, mb);
    const w = new TranscriptWatch(config, SESSION, TEAM);
    const track = newTrack();
    const ours = new Set(['teamdeck']);
    // The first reads catch up on history, 8 MB a poll.
    const c0 = performance.now();
    let catchUpPolls = 0;
    for (;;) {
      const found = await w.poll('team-lead', ours);
      catchUpPolls++;
      if (found.rows.length === 0) break;
      for (const r of found.rows) foldRows(track, r.rows);
    }
    const catchUpMs = performance.now() - c0;
    const poll: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < runs; i++) {
      const before = (await stat(lead)).size;
      await appendFile(lead, callRow(`c${i}`, `npm test ${i}`));
      floor.push(await readNewBytes(lead, before));
      const t0 = performance.now();
      const found = await w.poll('team-lead', ours);
      for (const r of found.rows) foldRows(track, r.rows);
      poll.push(performance.now() - t0);
      if (!track.inflight.has(`c${i}`)) throw new Error('the appended call was not read');
    }
    return { poll, floor, catchUpMs, catchUpPolls };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

export async function benchActivity(): Promise<Row[]> {
  const lat = summarize(await announceLatency(30));
  const cost = await appendCost(200, 60);
  const poll = summarize(cost.poll);
  const floor = summarize(cost.floor);
  return [
    { scenario: 'activity', figure: 'transcript append -> activity event', unit: 'ms', median: lat.median, p99: lat.p99, compare: 'rescan tick', compareValue: 2_000, ratio: lat.median / 2_000, target: '<= 250 ms', met: lat.median <= 250 },
    { scenario: 'activity', figure: 'new line in a 200 MB transcript', unit: 'ms', median: poll.median, p99: poll.p99, compare: 'reading the new bytes', compareValue: floor.median, ratio: poll.median / floor.median, target: '<= 2x', met: poll.median / floor.median <= 2 },
    { scenario: 'activity', figure: `first read of 200 MB (${cost.catchUpPolls} polls)`, unit: 'ms', median: cost.catchUpMs, note: 'history caught up on 8 MB a poll' },
  ];
}
