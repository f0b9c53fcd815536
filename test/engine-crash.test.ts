// Crash safety with real processes and SIGKILL: an engine process sends a burst, is killed at
// a random point (right away, mid-burst, after the burst), sometimes while a Claude-like
// member prunes its inbox and sometimes while another process holds a target's lock; then a
// new engine recovers on the same state dir. Nothing answered may be lost, nothing may
// arrive twice except in the one documented window, and each member's order must hold.
//
// The documented window: a message written into the inbox whose `delivered` record was not
// yet journaled when the engine died, and which the member took (pruned) before the restart
// re-admitted it. De-duplication by id cannot see a message that is no longer in the file,
// so the restart writes it again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import lockfile from 'proper-lockfile';
import { Journal, type FoldedState } from '../src/engine/journal/journal.js';
import { TeamService } from '../src/engine/service/team-service.js';
import { tempTeams, writeTeam, type TempTeams } from './helpers/team-fixture.js';
import { has, rng, spawnHelper, until, type Proc } from './helpers/engine-proc.js';
import { arrivals, copies, firstArrivalOrder, readConsumed } from './helpers/engine-check.js';
import type { SentLine } from './helpers/engine-runner.js';

const RUNS = Number(process.env.ENGINE_CRASH_RUNS ?? 36);
const SEED = Number(process.env.ENGINE_SEED ?? Date.now() % 1_000_000);
const TEAM = 'crash';
const ALL_MEMBERS = ['ann', 'bob', 'cy'];

type Timing = 'immediate' | 'mid-burst' | 'after-burst';

interface Totals {
  runs: number;
  reported: number;
  accepted: number;
  queued: number;
  /** Journaled by the killed engine but not answered before the kill (delivered by recovery). */
  unanswered: number;
  exactlyOnce: number;
  duplicatesInWindow: number;
  duplicatesOutsideWindow: number;
  lost: number;
  orderViolations: number;
  journalFoldFailures: number;
  tornTails: number;
  deadLocksAged: number;
  doubleCrashes: number;
}

const totals: Totals = {
  runs: 0,
  reported: 0,
  accepted: 0,
  queued: 0,
  unanswered: 0,
  exactlyOnce: 0,
  duplicatesInWindow: 0,
  duplicatesOutsideWindow: 0,
  lost: 0,
  orderViolations: 0,
  journalFoldFailures: 0,
  tornTails: 0,
  deadLocksAged: 0,
  doubleCrashes: 0,
};
const problems: string[] = [];

let consumer: Proc;
/** The next engine process, started ahead so its start-up overlaps the current run. */
let warm: Proc;
beforeAll(async () => {
  warm = spawnHelper('engine-runner.ts');
  consumer = spawnHelper('engine-consumer.ts');
  await consumer.ask({ cmd: 'stop' }, has('ok'));
});
afterAll(() => {
  consumer?.send({ cmd: 'exit' });
  consumer?.kill();
  warm?.kill();
});

/** An engine process on the run's folders; resolves once it has started (and begun recovery). */
async function engineProcess(t: TempTeams): Promise<Proc> {
  const p = warm;
  warm = spawnHelper('engine-runner.ts');
  p.send({ cmd: 'open', teamsRoot: t.root, stateDir: t.stateDir, backoff: { initialMs: 20, maxMs: 100 } });
  try {
    await p.waitFor(has('ready'), 30_000);
  } catch (e) {
    p.kill('SIGKILL');
    throw e;
  }
  return p;
}

/** Folds the journal as a restart would; a failure to fold is recorded (and fails the test). */
async function fold(t: TempTeams, label: string): Promise<FoldedState | undefined> {
  try {
    const r = await Journal.open(join(t.stateDir, 'journal', TEAM));
    await r.journal.close();
    if (r.tornBytes > 0) totals.tornTails++;
    return r.state;
  } catch (e) {
    totals.journalFoldFailures++;
    problems.push(`${label}: journal does not fold: ${(e as Error).message}`);
    return undefined;
  }
}

/**
 * A killed writer's inbox lock stays behind until it is 10 s old (proper-lockfile's stale
 * rule, as Claude uses it). Instead of waiting, age it: only dead processes' locks are left
 * at this point (the member is stopped and our own lock is released).
 */
async function ageDeadLocks(t: TempTeams, members: string[]): Promise<void> {
  const old = new Date(Date.now() - 60_000);
  for (const m of members) {
    const lock = join(t.root, TEAM, 'inboxes', `${m}.json.lock`);
    try {
      await stat(lock);
    } catch {
      continue;
    }
    await utimes(lock, old, old);
    totals.deadLocksAged++;
  }
}

/** Waits `ms` with sub-millisecond resolution (timers are too coarse to hit a random phase of one delivery). */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // busy wait
  }
}

async function killAt(child: Proc, timing: Timing, count: number, rand: () => number): Promise<void> {
  if (timing === 'immediate') {
    spin(rand() * 3);
  } else if (timing === 'mid-burst') {
    // After the k-th answer, at a random phase of the delivery in progress.
    const k = 1 + Math.floor(rand() * (count - 1));
    let seen = 0;
    await child.waitFor((l) => has('sent')(l) && ++seen >= k, 20_000).catch(() => {});
    spin(rand() * 10);
  } else {
    await child.waitFor(has('burstDone'), 20_000).catch(() => {});
    await sleep(Math.floor(rand() * 60));
  }
  child.kill('SIGKILL');
  await child.exited;
}

async function oneRun(run: number, rand: () => number): Promise<void> {
  const label = `run ${run} (seed ${SEED})`;
  const t = await tempTeams('teamdeck-crash-');
  // Whatever this run started is ended in `finally`, even when it fails half-way.
  const engines: Proc[] = [];
  let consuming = false;
  let release: (() => Promise<void>) | undefined;
  try {
    const timing: Timing = (['immediate', 'mid-burst', 'after-burst'] as const)[run % 3]!;
    const members = ALL_MEMBERS.slice(0, 2 + Math.floor(rand() * 2));
    await writeTeam(t.root, TEAM, members, { inboxes: Object.fromEntries(members.map((m) => [m, []])) });
    const inbox = (m: string) => join(t.root, TEAM, 'inboxes', `${m}.json`);
    // Mid-burst kills with a member pruning are the ones that can land in the crash window,
    // so they get a consumer more often, and sends spaced out enough to make several writes.
    const withConsumer = rand() < (timing === 'mid-burst' ? 0.75 : 0.4);
    const heldLock = rand() < 0.3 ? members[Math.floor(rand() * members.length)] : undefined;
    const doubleCrash = rand() < 0.25;
    const count = 25 + Math.floor(rand() * 26);
    const gapMs = timing === 'mid-burst' ? [1, 2, 4][Math.floor(rand() * 3)]! : [0, 1, 2, 4][Math.floor(rand() * 4)]!;
    const plan = Array.from({ length: count }, (_, i) => {
      const to = members[Math.floor(rand() * members.length)]!;
      return { to, text: `r${run} m${String(i).padStart(2, '0')} to ${to}` };
    });
    const planIndex = new Map(plan.map((p, i) => [p.text, i]));

    if (process.env.ENGINE_DEBUG) console.log(JSON.stringify({ run, timing, members, withConsumer, heldLock, doubleCrash, count, gapMs }));
    const log = join(t.base, 'consumed.jsonl');
    // Another process (this one) holds one member's inbox lock the whole time the engine runs.
    if (heldLock) release = await lockfile.lock(inbox(heldLock), { lockfilePath: `${inbox(heldLock)}.lock`, stale: 10_000, realpath: false });
    if (withConsumer) {
      consuming = true;
      await consumer.ask({ cmd: 'start', inboxes: members.map(inbox), log, pollMs: 2, mode: 'prune' }, has('ok'));
    }

    // 1. The engine process: start, burst, SIGKILL.
    const child = await engineProcess(t);
    engines.push(child);
    child.send({ cmd: 'burst', team: TEAM, gapMs, plan });
    await killAt(child, timing, count, rand);
    const reported = child.lines.filter(has('sent')).map((l) => (l as { sent: SentLine }).sent);

    // 2. The member keeps taking messages a moment longer, then stops; its log is complete.
    if (withConsumer) {
      await sleep(Math.floor(rand() * 20));
      await consumer.ask({ cmd: 'stop' }, has('ok'));
      consuming = false;
    }
    const consumedAtKill = new Set((await readConsumed(log)).map((c) => c.id));
    await release?.();
    release = undefined;
    await ageDeadLocks(t, members);

    // 3. What the killed engine had made durable.
    const atKill = await fold(t, `${label} after kill`);
    const deliveredAtKill = new Set([...(atKill?.sent.values() ?? [])].filter((s) => s.deliveredAt !== undefined).map((s) => s.id));

    // 4. Sometimes the recovering engine is killed too, then recovery runs again.
    if (doubleCrash) {
      totals.doubleCrashes++;
      const again = await engineProcess(t);
      engines.push(again);
      await sleep(Math.floor(rand() * 30));
      again.kill('SIGKILL');
      await again.exited;
      await ageDeadLocks(t, members);
      await fold(t, `${label} after the second kill`);
    }

    // 5. Recovery in a fresh engine on the same state dir, until nothing is waiting.
    const svc = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false, backoff: { initialMs: 20, maxMs: 100 } });
    await svc.start();
    try {
      await until(() => svc.queuedCount() === 0, 20_000, `${label}: recovery`);
    } finally {
      await svc.stop();
    }
    const final = await fold(t, `${label} after recovery`);
    if (!final) return;

    // 6. Account for every message the killed engine journaled.
    const consumed = await readConsumed(log);
    const journaled = [...final.sent.values()];
    const journaledIds = new Set(journaled.map((s) => s.id));
    for (const r of reported) {
      if (r.error) problems.push(`${label}: send refused: ${r.error}`);
      else if (!journaledIds.has(r.id!)) {
        totals.lost++;
        problems.push(`${label}: reported ${r.status} message ${r.text} is not in the journal`);
      }
    }
    totals.reported += reported.filter((r) => !r.error).length;
    totals.accepted += reported.filter((r) => r.status === 'accepted').length;
    totals.queued += reported.filter((r) => r.status === 'queued').length;
    const reportedIds = new Set(reported.map((r) => r.id));
    totals.unanswered += journaled.filter((s) => !reportedIds.has(s.id)).length;
    const acceptedIds = new Set(reported.filter((r) => r.status === 'accepted').map((r) => r.id));
    // `accepted` is answered only once the delivery is journaled: the killed engine's journal must say so.
    for (const id of acceptedIds) {
      if (!deliveredAtKill.has(id!)) problems.push(`${label}: ${id} was answered accepted, but its delivery was not in the journal at the kill`);
    }

    for (const m of members) {
      const seen = await arrivals(inbox(m), consumed, m);
      const n = copies(seen);
      const expected = journaled.filter((s) => s.to === m);
      for (const s of expected) {
        const k = n.get(s.id) ?? 0;
        if (s.deliveredAt === undefined || k === 0) {
          totals.lost++;
          problems.push(`${label}: ${s.text} was journaled but never arrived`);
        } else if (k === 1) {
          totals.exactlyOnce++;
        } else if (k === 2 && consumedAtKill.has(s.id) && !deliveredAtKill.has(s.id) && !acceptedIds.has(s.id)) {
          totals.duplicatesInWindow++;
        } else {
          totals.duplicatesOutsideWindow++;
          problems.push(
            `${label}: ${s.text} arrived ${k} times outside the crash window (consumed before restart: ${consumedAtKill.has(s.id)}, delivered journaled at kill: ${deliveredAtKill.has(s.id)}, answered accepted: ${acceptedIds.has(s.id)})`,
          );
        }
      }
      for (const id of n.keys()) {
        if (!expected.some((s) => s.id === id)) problems.push(`${label}: ${m} received ${id}, which was never sent to it`);
      }
      // Order: first arrivals follow the journal, and the journal follows the order of the sends.
      const order = firstArrivalOrder(seen);
      const want = expected.map((s) => s.id);
      const byPlan = [...expected].sort((a, b) => planIndex.get(a.text)! - planIndex.get(b.text)!).map((s) => s.id);
      if (order.join() !== want.join() || want.join() !== byPlan.join()) {
        totals.orderViolations++;
        problems.push(`${label}: order for ${m}: arrived ${order.length}, journal ${want.length}, mismatch`);
      }
    }
  } finally {
    totals.runs++;
    for (const e of engines) e.kill('SIGKILL');
    await Promise.all(engines.map((e) => e.exited));
    if (consuming) await consumer.ask({ cmd: 'stop' }, has('ok')).catch(() => {});
    await release?.().catch(() => {});
    // A failure above must not be hidden by a failing cleanup.
    await t.cleanup().catch(async (e: unknown) => {
      const left = await readdir(join(t.root, TEAM, 'inboxes')).catch(() => []);
      problems.push(`${label}: cleanup failed: ${(e as Error).message}; left: ${left.join(', ')}`);
    });
  }
}

describe('engine crash safety (SIGKILL at random points, then recovery)', () => {
  it(`loses nothing, duplicates only inside the documented window, and keeps order over ${RUNS} killed runs`, { timeout: 180_000 }, async () => {
    const rand = rng(SEED);
    const t0 = Date.now();
    for (let run = 0; run < RUNS; run++) {
      try {
        await oneRun(run, rand);
      } catch (e) {
        problems.push(`run ${run} (seed ${SEED}) failed: ${(e as Error).stack ?? String(e)}`);
        break;
      }
    }
    const summary =
      `crash summary: runs=${totals.runs} (double crashes ${totals.doubleCrashes}) messagesReported=${totals.reported} ` +
      `accepted=${totals.accepted} queued=${totals.queued} journaledUnanswered=${totals.unanswered} ` +
      `deliveredExactlyOnce=${totals.exactlyOnce} duplicatesInWindow=${totals.duplicatesInWindow} ` +
      `duplicatesOutsideWindow=${totals.duplicatesOutsideWindow} lost=${totals.lost} orderViolations=${totals.orderViolations} ` +
      `journalFoldFailures=${totals.journalFoldFailures} tornTailsCut=${totals.tornTails} deadLocksAged=${totals.deadLocksAged} ` +
      `seed=${SEED} time=${((Date.now() - t0) / 1000).toFixed(1)}s`;
    console.log(summary);
    expect(problems).toEqual([]);
    expect(totals.runs).toBe(RUNS);
    expect(totals.lost + totals.duplicatesOutsideWindow + totals.orderViolations + totals.journalFoldFailures).toBe(0);
    expect(totals.reported).toBeGreaterThan(0);
  });
});
