// send: the engine's `accepted` latency into a 1,000-message inbox, against the floor of
// doing only what any correct writer must (lock + write + fsync + rename of the same bytes).
// burst: 1,000 concurrent sends to one target, all accepted and in order.
import { mkdtemp, readFile, rm, writeFile, open, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import lockfile from 'proper-lockfile';
import { TeamService } from '../src/main/core/team-service.js';
import { claudeLockOptions } from '../src/main/core/claude/inbox-writer.js';
import { writeTeam } from '../test/helpers/team-fixture.js';
import { summarize, type Row } from './stats.js';

function history(n: number): unknown[] {
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push({ from: 'team-lead', text: `Earlier instruction number ${i}: keep going with the task and report back.`, summary: `instruction ${i}`, timestamp: new Date(1_767_000_000_000 + i * 1000).toISOString(), color: 'blue', read: true });
  }
  return out;
}

async function setup() {
  const base = await mkdtemp(join(tmpdir(), 'teamdeck-bench-'));
  const root = join(base, 'teams');
  await writeTeam(root, 'bench', ['worker'], { inboxes: { worker: history(1000) } });
  return { base, root, stateDir: join(base, 'state'), inbox: join(root, 'bench', 'inboxes', 'worker.json') };
}

async function floorOnce(inbox: string, bytes: string): Promise<number> {
  const t0 = performance.now();
  const release = await lockfile.lock(inbox, claudeLockOptions(inbox));
  const tmp = `${inbox}.tmp.${randomBytes(4).toString('hex')}`;
  const fh = await open(tmp, 'wx');
  await fh.writeFile(bytes);
  await fh.sync();
  await fh.close();
  await rename(tmp, inbox);
  await release();
  return performance.now() - t0;
}

export async function benchSend(iterations = 400): Promise<Row[]> {
  const env = await setup();
  try {
    const original = await readFile(env.inbox, 'utf8');
    const withOne = JSON.stringify([...JSON.parse(original), { from: 'user', text: 'x'.repeat(60), timestamp: new Date().toISOString(), read: false }], null, 2);
    // Floor first, on the same file and the same number of bytes.
    const floor: number[] = [];
    for (let i = 0; i < 30; i++) await floorOnce(env.inbox, withOne);
    for (let i = 0; i < iterations; i++) floor.push(await floorOnce(env.inbox, withOne));
    await writeFile(env.inbox, original);

    const svc = new TeamService({ teamsRoot: env.root, stateDir: env.stateDir, watch: false, maxPendingPerTarget: 1_000_000 });
    await svc.start();
    const engine: number[] = [];
    // The inbox keeps 1,000 messages: between sends a consumer prunes ours (as Claude would).
    const trim = async () => writeFile(env.inbox, original);
    for (let i = 0; i < 30; i++) {
      await svc.send({ team: 'bench', to: 'worker', text: `warm-up ${i}` });
      await trim();
    }
    for (let i = 0; i < iterations; i++) {
      const t0 = performance.now();
      const r = await svc.send({ team: 'bench', to: 'worker', text: `message ${i} `.padEnd(60, 'x') });
      engine.push(performance.now() - t0);
      if (r.status !== 'accepted') throw new Error(`send ${i} was ${r.status}`);
      await trim();
    }
    await svc.stop();
    const e = summarize(engine);
    const f = summarize(floor);
    return [
      { scenario: 'send', figure: 'accepted latency, 1,000-msg inbox', unit: 'ms', median: e.median, p99: e.p99, compare: 'floor: lock+write+fsync+rename', compareValue: f.median, ratio: e.median / f.median, target: 'p50 <= 2x floor, p99 < 20 ms', met: e.median <= 2 * f.median && e.p99 < 20 },
      { scenario: 'send', figure: 'floor latency (same bytes)', unit: 'ms', median: f.median, p99: f.p99 },
    ];
  } finally {
    await rm(env.base, { recursive: true, force: true });
  }
}

export async function benchBurst(n = 1000): Promise<Row[]> {
  const env = await setup();
  try {
    await writeFile(env.inbox, '[]');
    const svc = new TeamService({ teamsRoot: env.root, stateDir: env.stateDir, watch: false, maxPendingPerTarget: n + 1 });
    await svc.start();
    const t0 = performance.now();
    const results = await Promise.all(Array.from({ length: n }, (_, i) => svc.send({ team: 'bench', to: 'worker', text: `burst ${i}` })));
    const ms = performance.now() - t0;
    await svc.stop();
    const accepted = results.filter((r) => r.status === 'accepted').length;
    const texts = (JSON.parse(await readFile(env.inbox, 'utf8')) as Array<{ text: string }>).map((m) => m.text);
    const inOrder = texts.length === n && texts.every((t, i) => t === `burst ${i}`);
    const rate = (n / ms) * 1000;
    return [
      { scenario: 'burst', figure: `${n} sends to one target`, unit: 'msg/s', median: rate, compare: 'target', compareValue: 300, ratio: rate / 300, target: '>= 300 msg/s, all accepted, in order', met: rate >= 300 && accepted === n && inOrder, note: `${accepted}/${n} accepted, ${inOrder ? 'in order' : 'ORDER BROKEN'}` },
    ];
  } finally {
    await rm(env.base, { recursive: true, force: true });
  }
}
