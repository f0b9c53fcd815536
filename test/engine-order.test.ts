// Ordering and exactly-once delivery through real inbox files, with the other side played by
// real processes: Claude-like consumers (one per member, polling and pruning) and a process
// that holds an inbox's proper-lockfile lock.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TeamService } from '../src/engine/service/team-service.js';
import type { AppEvent } from '../src/shared/contract.js';
import type { SendResult } from '../src/shared/types.js';
import { tempTeams, writeTeam, type TempTeams } from './helpers/team-fixture.js';
import { has, rng, spawnHelper, until, type Proc } from './helpers/engine-proc.js';
import { arrivals, copies, firstArrivalOrder, readConsumed, readInboxMessages } from './helpers/engine-check.js';

const TEAM = 'alpha';
const MEMBERS = ['ann', 'bob', 'cy'];

let t: TempTeams;
let svc: TeamService | undefined;
const procs: Proc[] = [];
beforeEach(async () => {
  t = await tempTeams('teamdeck-order-');
  await writeTeam(t.root, TEAM, MEMBERS, { inboxes: Object.fromEntries(MEMBERS.map((m) => [m, []])) });
});
afterEach(async () => {
  await svc?.stop();
  svc = undefined;
  for (const p of procs.splice(0)) p.kill();
  await t.cleanup();
});

const inbox = (member: string) => join(t.root, TEAM, 'inboxes', `${member}.json`);

function startConsumer(member: string): Proc {
  const p = spawnHelper('engine-consumer.ts');
  procs.push(p);
  p.send({ cmd: 'start', inboxes: [inbox(member)], log: join(t.base, `consumed-${member}.jsonl`), pollMs: 2, mode: 'prune' });
  return p;
}

describe('engine ordering with Claude-like consumers in other processes', () => {
  it('delivers 300 concurrent, interleaved sends to 3 members exactly once each, in send order per member', async () => {
    const seed = Number(process.env.ENGINE_SEED ?? Date.now() % 1_000_000);
    const rand = rng(seed);
    const consumers = MEMBERS.map(startConsumer);
    await Promise.all(consumers.map((c) => c.waitFor(has('ok'))));

    svc = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false, maxPendingPerTarget: 1_000 });
    await svc.start();

    // Call order is the send order: the i-th call was made before the (i+1)-th. Most calls
    // overlap; now and then the caller pauses, so some sends also complete before later ones start.
    const calls: Array<{ to: string; text: string; answer: Promise<SendResult> }> = [];
    for (let i = 0; i < 300; i++) {
      const to = MEMBERS[Math.floor(rand() * MEMBERS.length)]!;
      const text = `m${String(i).padStart(3, '0')} to ${to}`;
      calls.push({ to, text, answer: svc.send({ team: TEAM, to, text }) });
      if (rand() < 0.05) await sleep(Math.floor(rand() * 5));
    }
    const answers = await Promise.all(calls.map((c) => c.answer));
    expect(answers.filter((a) => a.status !== 'accepted'), `seed ${seed}`).toEqual([]);
    const idOfText = new Map(calls.map((c, i) => [c.text, answers[i]!.id]));
    expect(new Set(answers.map((a) => a.id)).size).toBe(300);

    // Let the consumers take everything, then stop them so their logs are complete.
    await until(async () => {
      let n = 0;
      for (const m of MEMBERS) n += (await readConsumed(join(t.base, `consumed-${m}.jsonl`))).length;
      return n >= 300;
    }, 20_000, 'consumers taking all 300 messages');
    for (const c of consumers) c.send({ cmd: 'stop' });
    await Promise.all(consumers.map((c) => c.waitFor((l) => has('ok')(l) && (l as { ok: string }).ok === 'stopped')));

    for (const m of MEMBERS) {
      const consumed = await readConsumed(join(t.base, `consumed-${m}.jsonl`));
      const seen = await arrivals(inbox(m), consumed, m);
      const expected = calls.filter((c) => c.to === m).map((c) => idOfText.get(c.text)!);
      // Exactly once: every sent id once, nothing else.
      const n = copies(seen);
      expect([...n.entries()].filter(([, k]) => k !== 1), `duplicates for ${m} (seed ${seed})`).toEqual([]);
      expect(new Set(n.keys())).toEqual(new Set(expected));
      // In send order.
      expect(firstArrivalOrder(seen), `order for ${m} (seed ${seed})`).toEqual(expected);
      expect(seen.map((s) => s.text)).toEqual(calls.filter((c) => c.to === m).map((c) => c.text));
    }
    expect(svc.queuedCount()).toBe(0);
  });

  it('journals concurrent sends to one member in call order (the order the user sent them)', async () => {
    // The inbox is locked by another process, so nothing is delivered and the test only sees
    // the order in which sends are journaled, which is the order they will be delivered in.
    const holder = spawnHelper('engine-lock-holder.ts', [inbox('ann')]);
    procs.push(holder);
    await holder.waitFor((l) => l === 'locked');
    svc = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false, maxPendingPerTarget: 100_000, backoff: { initialMs: 60_000, maxMs: 60_000 } });
    const journaled: string[] = [];
    svc.onEvent((e) => {
      if (e.type === 'message' && e.message.from === 'user') journaled.push(e.message.text);
    });
    await svc.start();
    const called: string[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const answers: Array<Promise<unknown>> = [];
      for (let i = 0; i < 300; i++) {
        const text = `b${batch} m${i}`;
        called.push(text);
        answers.push(svc.send({ team: TEAM, to: 'ann', text }));
      }
      await until(() => journaled.length === called.length);
      void Promise.all(answers).catch(() => {});
    }
    expect(journaled).toEqual(called);
  });

  it('answers queued while another process holds the lock, keeps order, and delivers everything in order once released', async () => {
    svc = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false, backoff: { initialMs: 30, maxMs: 150 } });
    const events: AppEvent[] = [];
    svc.onEvent((e) => events.push(e));
    await svc.start();

    const holder = spawnHelper('engine-lock-holder.ts', [inbox('ann')]);
    procs.push(holder);
    await holder.waitFor((l) => l === 'locked');

    // Interleaved and concurrent: ann's inbox is locked, bob's and cy's are not.
    const plan = ['ann', 'bob', 'ann', 'cy', 'ann', 'ann', 'bob', 'ann', 'cy', 'ann'];
    const first = await Promise.all(plan.map((to, i) => svc!.send({ team: TEAM, to, text: `first ${i} to ${to}` })));
    const annIds = first.filter((_, i) => plan[i] === 'ann').map((r) => r.id);
    for (const [i, r] of first.entries()) {
      if (plan[i] === 'ann') {
        expect(r.status).toBe('queued');
        expect(r.status === 'queued' && r.reason).toMatch(/locked/);
      } else {
        expect(r.status).toBe('accepted');
      }
    }
    // Still locked: a later message queues behind the earlier ones, and nothing has landed.
    const later = await svc.send({ team: TEAM, to: 'ann', text: 'later while locked' });
    expect(later.status).toBe('queued');
    annIds.push(later.id);
    expect(await readInboxMessages(inbox('ann'))).toEqual([]);
    expect(svc.queuedCount()).toBe(annIds.length);
    const thread = await svc.thread(TEAM, 'ann');
    expect(thread.map((m) => m.id)).toEqual(annIds);
    expect(thread.every((m) => m.status === 'queued' && /locked/.test(m.reason ?? ''))).toBe(true);

    // Released, and a newer message sent at that very moment: it must not overtake.
    holder.send('release');
    await holder.waitFor((l) => l === 'released');
    const newest = await svc.send({ team: TEAM, to: 'ann', text: 'newest, right after release' });
    expect(newest.status).toBe('accepted');
    annIds.push(newest.id);
    await until(() => svc!.queuedCount() === 0);

    expect((await readInboxMessages(inbox('ann'))).map((m) => m.id)).toEqual(annIds);
    const delivery = events.filter((e): e is Extract<AppEvent, { type: 'delivery' }> => e.type === 'delivery' && annIds.includes(e.id));
    // Every waiting message was announced queued with the reason, then accepted, in send order.
    expect(delivery.filter((e) => e.status === 'accepted').map((e) => e.id)).toEqual(annIds);
    for (const id of annIds.slice(0, -1)) {
      const mine = delivery.filter((e) => e.id === id);
      expect(mine[0]).toMatchObject({ status: 'queued' });
      expect(mine[0]!.reason).toMatch(/locked/);
      expect(mine.at(-1)!.status).toBe('accepted');
    }
    expect((await svc.thread(TEAM, 'ann')).map((m) => [m.id, m.status])).toEqual(annIds.map((id) => [id, 'accepted']));
    for (const m of ['bob', 'cy']) {
      expect((await readInboxMessages(inbox(m))).map((x) => x.text)).toEqual(plan.flatMap((to, i) => (to === m ? [`first ${i} to ${to}`] : [])));
    }
  });
});
