// Per-target delivery: one queue per inbox, drained strictly in journal order, one admission
// at a time. A temporary failure stops the queue (nothing behind the failed message may
// overtake it) and schedules a retry with capped exponential backoff.
import { AdmissionError } from '../claude/inbox-writer.js';

/**
 * Thrown by `admit` when the target can never take the message (its team ended, the member
 * shut down). Nothing was written; the messages leave the queue as undeliverable.
 */
export class UndeliverableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UndeliverableError';
  }
}

/**
 * Thrown by `admit` when a message's own `queued` record could not be made durable. Nothing
 * was written; the message leaves the queue as if it had never been sent (its send failed).
 */
export class NotJournaledError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotJournaledError';
  }
}

export interface OutboxHooks {
  /**
   * Puts the messages into the target inbox in this order, in one locked write (idempotent
   * by id). Throws AdmissionError; then none of them counts as delivered. A message enqueued
   * with its `queued` record still being journaled must not become visible before `journaled`
   * says it is durable (NotJournaledError when it cannot be).
   */
  admit(ids: readonly string[]): Promise<Array<{ duplicate: boolean }>>;
  /** Journals the deliveries; resolves once they are durable. */
  delivered(ids: readonly string[], duplicates: readonly boolean[]): Promise<void>;
  /** The queue stopped on a failure; these ids wait, for this reason. */
  waiting(ids: readonly string[], reason: string): void;
  /** Journals that these can never be delivered; resolves once that is durable. */
  undeliverable(ids: readonly string[], reason: string): Promise<void>;
  /** A batch left the queue (delivered and journaled); `size` already counts without it. */
  drained?(): void;
}

export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 200, maxMs: 10_000 };

/** Messages admitted in one locked write when several wait for the same target. */
export const MAX_BATCH = 64;

export type Outcome = { status: 'accepted' } | { status: 'queued' | 'undeliverable'; reason: string };

export class TargetOutbox {
  private pending: string[] = [];
  private waiters = new Map<string, (o: Outcome) => void>();
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;
  lastReason: string | undefined;

  constructor(
    private readonly hooks: OutboxHooks,
    private readonly backoff: BackoffOptions = DEFAULT_BACKOFF,
    /** At most this many per admission (a terminal takes one turn at a time). */
    private readonly maxBatch: number = MAX_BATCH,
  ) {}

  get size(): number {
    return this.pending.length;
  }

  /** Messages journaled or being journaled for this target and not yet delivered. */
  get load(): number {
    return this.pending.length + this.reserved;
  }

  /**
   * Holds a place for a message that is being journaled, so that concurrent sends cannot
   * exceed the per-target limit between the check and the enqueue. Returns the release.
   */
  reserve(): () => void {
    this.reserved++;
    let done = false;
    return () => {
      if (!done) {
        done = true;
        this.reserved--;
      }
    };
  }
  private reserved = 0;

  has(id: string): boolean {
    return this.pending.includes(id);
  }

  /**
   * Adds a message behind everything pending and tries to deliver now. `journaled`: its
   * `queued` record is still being made durable, and resolves when it is; the admission may
   * begin meanwhile, but nothing of it is shown, journaled or answered before that.
   */
  enqueue(id: string, wait: true, journaled?: Promise<void>): Promise<Outcome>;
  enqueue(id: string, wait?: false): void;
  enqueue(id: string, wait = false, journaled?: Promise<void>): Promise<Outcome> | void {
    this.pending.push(id);
    const p = wait ? new Promise<Outcome>((resolve) => this.waiters.set(id, resolve)) : undefined;
    if (journaled) this.track(id, journaled);
    this.kick();
    return p;
  }

  /** Queued records still being journaled, by id; ids whose record failed while being admitted. */
  private journaling = new Map<string, Promise<void>>();
  private unjournaled = new Set<string>();
  /** The batch being admitted now. */
  private inFlight: readonly string[] = [];

  private track(id: string, journaled: Promise<void>): void {
    this.journaling.set(id, journaled);
    journaled.then(
      () => {
        this.journaling.delete(id);
      },
      () => {
        this.journaling.delete(id);
        // The admission under way finds it (and drops it); one still waiting leaves at once.
        if (this.inFlight.includes(id)) this.unjournaled.add(id);
        else this.discard(id);
      },
    );
  }

  /**
   * Resolves once the `queued` record of each of these is durable (at once for those already
   * journaled); throws NotJournaledError when one could not be written.
   */
  async journaled(ids: readonly string[]): Promise<void> {
    const waits: Array<Promise<void>> = [];
    for (const id of ids) {
      const p = this.journaling.get(id);
      if (p) waits.push(p);
    }
    if (waits.length > 0) await Promise.allSettled(waits);
    const failed = ids.filter((id) => this.unjournaled.has(id));
    if (failed.length > 0) throw new NotJournaledError(`${failed.join(', ')}: the journal could not record ${failed.length === 1 ? 'it' : 'them'}`);
  }

  /** A message whose `queued` record failed: it leaves the queue unwritten (its send failed). */
  private discard(id: string): void {
    this.unjournaled.delete(id);
    const at = this.pending.indexOf(id);
    if (at >= 0) this.pending.splice(at, 1);
    this.settle(id, { status: 'queued', reason: 'the journal could not record it' });
  }

  /** Tries now (a new message arrived, or the target inbox changed). */
  kick(): void {
    if (this.stopped || this.pending.length === 0) return;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }
  private again = false;

  private async drain(): Promise<void> {
    while (this.pending.length > 0 && !this.stopped) {
      // The head of the queue, plus whatever queued up behind it: same order, one write.
      let batch = this.pending.slice(0, this.maxBatch);
      this.inFlight = batch;
      try {
        const results = await this.hooks.admit(batch);
        this.inFlight = [];
        await this.hooks.delivered(
          batch,
          results.map((r) => r.duplicate),
        );
      } catch (e) {
        // Nothing is journaled or answered for a message before its own `queued` record is
        // durable; one whose record failed was never written, and leaves the queue.
        await this.journaled(batch).catch(() => {});
        this.inFlight = [];
        for (const id of batch) if (this.unjournaled.has(id)) this.discard(id);
        const tried = batch.length;
        batch = batch.filter((id) => this.pending.includes(id));
        if (e instanceof NotJournaledError && batch.length < tried) continue;
        if (e instanceof UndeliverableError) {
          if (batch.length === 0) continue;
          try {
            await this.hooks.undeliverable(batch, e.message);
          } catch (je) {
            this.fail(`delivery failed: ${(je as Error).message}`);
            return;
          }
          this.pending.splice(0, batch.length);
          for (const id of batch) this.settle(id, { status: 'undeliverable', reason: e.message });
          this.hooks.drained?.();
          continue;
        }
        const reason = e instanceof AdmissionError ? e.message : `delivery failed: ${(e as Error).message}`;
        this.fail(reason);
        return;
      }
      this.pending.splice(0, batch.length);
      this.failures = 0;
      this.lastReason = undefined;
      for (const id of batch) this.settle(id, { status: 'accepted' });
      this.hooks.drained?.();
    }
  }

  private fail(reason: string): void {
    this.failures++;
    this.lastReason = reason;
    this.again = false;
    this.hooks.waiting(this.pending, reason);
    for (const id of this.pending) this.settle(id, { status: 'queued', reason });
    if (this.stopped) return;
    const delay = Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** Math.min(this.failures - 1, 20));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.kick();
    }, delay);
    this.timer.unref?.();
  }

  private settle(id: string, o: Outcome): void {
    const w = this.waiters.get(id);
    if (w) {
      this.waiters.delete(id);
      w(o);
    }
  }

  /** Stops retrying; waits for an admission in progress to finish. Pending ids stay journaled. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    for (const id of this.pending) this.settle(id, { status: 'queued', reason: this.lastReason ?? 'engine stopped' });
  }
}
