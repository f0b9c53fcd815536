import { describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { AdmissionError } from '../claude/inbox-writer.js';
import { MAX_BATCH, TargetOutbox, type OutboxHooks } from './outbox.js';

/**
 * Hooks that record every call. `failing` decides per attempt whether an admission fails
 * (the reason) or succeeds (undefined); attempts are counted per id.
 */
function recorder(failing: (ids: readonly string[], attempt: number) => string | undefined = () => undefined) {
  const admitted: string[] = [];
  const batches: string[][] = [];
  const attempts: Array<{ ids: string[]; at: number }> = [];
  const delivered: string[] = [];
  const waiting: Array<{ ids: string[]; reason: string }> = [];
  const undeliverable: Array<{ ids: string[]; reason: string }> = [];
  let tries = 0;
  const hooks: OutboxHooks = {
    admit: async (ids) => {
      tries++;
      attempts.push({ ids: [...ids], at: performance.now() });
      await sleep(1);
      const reason = failing(ids, tries);
      if (reason) throw new AdmissionError(reason, true, 'ELOCKED');
      admitted.push(...ids);
      batches.push([...ids]);
      return ids.map(() => ({ duplicate: false }));
    },
    delivered: async (ids) => {
      delivered.push(...ids);
    },
    waiting: (ids, reason) => {
      waiting.push({ ids: [...ids], reason });
    },
    undeliverable: async (ids, reason) => {
      undeliverable.push({ ids: [...ids], reason });
    },
  };
  return { hooks, admitted, batches, attempts, delivered, waiting, undeliverable };
}

async function until(cond: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(2);
  }
}

describe('TargetOutbox', () => {
  it('delivers in enqueue order, batching what queued up behind the head, and answers accepted', async () => {
    const r = recorder();
    const o = new TargetOutbox(r.hooks, { initialMs: 10, maxMs: 50 });
    const outcomes = await Promise.all(['a', 'b', 'c', 'd'].map((id) => o.enqueue(id, true)));
    expect(outcomes).toEqual(Array(4).fill({ status: 'accepted' }));
    expect(r.admitted).toEqual(['a', 'b', 'c', 'd']);
    // The first send starts at once; the ones behind it go together in the next write.
    expect(r.batches).toEqual([['a'], ['b', 'c', 'd']]);
    expect(r.delivered).toEqual(['a', 'b', 'c', 'd']);
    expect(o.size).toBe(0);
  });

  it(`admits at most ${MAX_BATCH} messages per write, in order`, async () => {
    const r = recorder();
    const o = new TargetOutbox(r.hooks, { initialMs: 10, maxMs: 50 });
    const ids = Array.from({ length: 150 }, (_, i) => `m${i}`);
    await Promise.all(ids.map((id) => o.enqueue(id, true)));
    expect(r.admitted).toEqual(ids);
    expect(Math.max(...r.batches.map((b) => b.length))).toBe(MAX_BATCH);
    expect(r.batches.flat()).toEqual(ids);
  });

  it('keeps order across a failure: nothing behind the failed message overtakes it', async () => {
    const r = recorder((ids, n) => (ids.includes('b') && n <= 3 ? 'inbox is locked by another process' : undefined));
    const o = new TargetOutbox(r.hooks, { initialMs: 10, maxMs: 40 });
    const first = o.enqueue('a', true);
    expect(await first).toEqual({ status: 'accepted' });
    const rest = ['b', 'c', 'd'].map((id) => o.enqueue(id, true));
    // b failed, so b and everything behind it is answered queued, with the reason.
    for (const x of await Promise.all(rest)) expect(x).toEqual({ status: 'queued', reason: 'inbox is locked by another process' });
    expect(r.waiting[0]).toEqual({ ids: ['b', 'c', 'd'], reason: 'inbox is locked by another process' });
    // A message sent while the others wait goes behind them.
    o.enqueue('e');
    await until(() => o.size === 0);
    expect(r.admitted).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(r.delivered).toEqual(['a', 'b', 'c', 'd', 'e']);
    // Every retry started with b at its head: nothing was tried before it.
    expect(r.attempts.slice(1).map((x) => x.ids[0])).toEqual(['b', 'b', 'b']);
    expect(o.lastReason).toBeUndefined();
  });

  it('reports a failure of the journal step as a reason and retries the same messages', async () => {
    const r = recorder();
    let journalFails = 1;
    const hooks: OutboxHooks = {
      ...r.hooks,
      delivered: async (ids) => {
        if (journalFails-- > 0) throw new Error('ENOSPC: no space left on device');
        r.delivered.push(...ids);
      },
    };
    const o = new TargetOutbox(hooks, { initialMs: 10, maxMs: 10 });
    expect(await o.enqueue('a', true)).toEqual({ status: 'queued', reason: 'delivery failed: ENOSPC: no space left on device' });
    await until(() => o.size === 0);
    // Admitted twice (the second time the writer's de-duplication makes it a no-op), journaled once.
    expect(r.admitted).toEqual(['a', 'a']);
    expect(r.delivered).toEqual(['a']);
  });

  it('backs off exponentially between retries and caps the delay', async () => {
    const r = recorder((_ids, n) => (n <= 6 ? 'busy' : undefined));
    const o = new TargetOutbox(r.hooks, { initialMs: 25, maxMs: 100 });
    o.enqueue('a');
    await until(() => o.size === 0);
    const at = r.attempts.map((x) => x.at);
    const gaps = at.slice(1).map((x, i) => x - at[i]!);
    // Each gap is the backoff delay plus one admission attempt (about 1 ms here). The lower
    // bounds show the doubling; the upper ones the cap (uncapped, the 4th gap would be 200 ms).
    const expected = [25, 50, 100, 100, 100, 100];
    const shown = gaps.map((x) => x.toFixed(0)).join(', ');
    expect(gaps).toHaveLength(expected.length);
    for (const [i, g] of gaps.entries()) {
      expect(g, `gap ${i} of ${shown}`).toBeGreaterThanOrEqual(expected[i]! - 1);
      expect(g, `gap ${i} of ${shown}`).toBeLessThan(expected[i]! + 95);
    }
  });

  it('starts the backoff over after a success', async () => {
    const r = recorder((_ids, n) => (n === 1 || n === 3 ? 'busy' : undefined));
    const o = new TargetOutbox(r.hooks, { initialMs: 25, maxMs: 1_000 });
    o.enqueue('a');
    await until(() => o.size === 0);
    o.enqueue('b');
    await until(() => o.size === 0);
    const [a1, a2, b1, b2] = r.attempts.map((x) => x.at);
    // Both first retries wait the initial delay, not a grown one.
    expect(a2! - a1!).toBeLessThan(25 + 60);
    expect(b2! - b1!).toBeGreaterThanOrEqual(24);
    expect(b2! - b1!).toBeLessThan(25 + 60);
  });

  it('kick() retries at once instead of waiting out the backoff', async () => {
    const r = recorder((_ids, n) => (n === 1 ? 'busy' : undefined));
    const o = new TargetOutbox(r.hooks, { initialMs: 60_000, maxMs: 60_000 });
    expect(await o.enqueue('a', true)).toMatchObject({ status: 'queued' });
    await sleep(20);
    expect(r.attempts).toHaveLength(1);
    const kicked = performance.now();
    o.kick();
    await until(() => o.size === 0, 1_000);
    expect(r.attempts[1]!.at - kicked).toBeLessThan(50);
    expect(r.admitted).toEqual(['a']);
  });

  it('stop() waits for the admission in progress, then leaves the pending ids and tries no more', async () => {
    const r = recorder((ids) => (ids.includes('b') ? 'busy' : undefined));
    const o = new TargetOutbox(r.hooks, { initialMs: 10, maxMs: 10 });
    const a = o.enqueue('a', true);
    expect(await a).toEqual({ status: 'accepted' });
    const rest = ['b', 'c'].map((id) => o.enqueue(id, true));
    await sleep(30);
    await o.stop();
    const attemptsAtStop = r.attempts.length;
    expect(o.size).toBe(2);
    expect(o.has('b')).toBe(true);
    expect(o.has('c')).toBe(true);
    expect(o.has('a')).toBe(false);
    expect(await Promise.all(rest)).toEqual([
      { status: 'queued', reason: 'busy' },
      { status: 'queued', reason: 'busy' },
    ]);
    await sleep(60);
    o.kick();
    o.enqueue('d');
    await sleep(20);
    expect(r.attempts.length).toBe(attemptsAtStop);
    expect(o.size).toBe(3);
  });

  it('stop() answers waiting callers queued even when nothing failed yet', async () => {
    let release!: () => void;
    const gate = new Promise<void>((res) => (release = res));
    const hooks: OutboxHooks = {
      admit: async (ids) => {
        await gate;
        return ids.map(() => ({ duplicate: false }));
      },
      delivered: async () => {},
      waiting: () => {},
      undeliverable: async () => {},
    };
    const o = new TargetOutbox(hooks, { initialMs: 10, maxMs: 10 });
    const a = o.enqueue('a', true);
    const b = o.enqueue('b', true);
    const stopped = o.stop();
    release();
    await stopped;
    // a was in progress and finished; b never started and stays pending.
    expect(await a).toEqual({ status: 'accepted' });
    expect(await b).toEqual({ status: 'queued', reason: 'engine stopped' });
    expect(o.size).toBe(1);
  });
  it('a message whose queued record fails leaves the queue, from the admission under way or from behind it', async () => {
    const admitted: string[][] = [];
    let blocked = true;
    let hold: Promise<void> = Promise.resolve();
    const o: TargetOutbox = new TargetOutbox(
      {
        admit: async (ids) => {
          await hold;
          // As the inbox channel does: nothing is shown before the batch's records are durable.
          await o.journaled(ids);
          if (blocked) throw new AdmissionError('busy', true, 'ELOCKED');
          admitted.push([...ids]);
          return ids.map(() => ({ duplicate: false }));
        },
        delivered: async () => {},
        waiting: () => {},
        undeliverable: async () => {},
      },
      { initialMs: 10_000, maxMs: 10_000 },
      1,
    );
    const failed = { status: 'queued', reason: 'the journal could not record it' };
    // a is being admitted when its record fails: that admission stops, a leaves, b is tried.
    let failA!: (e: Error) => void;
    const a = o.enqueue('a', true, new Promise<void>((_, rej) => (failA = rej)));
    const b = o.enqueue('b', true, Promise.resolve());
    failA(new Error('disk gone'));
    expect(await a).toEqual(failed);
    expect(await b).toEqual({ status: 'queued', reason: 'busy' });
    expect(o.size).toBe(1);
    // c waits behind b's admission when its record fails: it leaves at once.
    let open!: () => void;
    hold = new Promise<void>((res) => (open = res));
    let failC!: (e: Error) => void;
    const c = o.enqueue('c', true, new Promise<void>((_, rej) => (failC = rej)));
    const d = o.enqueue('d', true, Promise.resolve());
    failC(new Error('disk gone'));
    expect(await c).toEqual(failed);
    expect(o.size).toBe(2);
    blocked = false;
    open();
    expect(await d).toEqual({ status: 'accepted' });
    expect(admitted).toEqual([['b'], ['d']]);
    expect(o.size).toBe(0);
  });
});
