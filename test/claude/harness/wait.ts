// Waiting on conditions with deadlines: Claude's timing is bounded by its polls (500 ms for
// in-process teammates, 1000 ms for the lead), so a fixed sleep is either slow or flaky.

export class WaitTimeout extends Error {
  override name = 'WaitTimeout';
}

export interface WaitOptions {
  /** What is being waited for, for the error message. */
  what: string;
  /** Milliseconds from now. */
  timeoutMs: number;
  /** Milliseconds between checks (default 20). */
  intervalMs?: number;
}

/**
 * Resolves with the first truthy value `check` returns, checking every `intervalMs` until
 * `timeoutMs` passes; then rejects with WaitTimeout. A check that throws counts as "not yet"
 * (files vanish and half-written JSON fails to parse while Claude works); its last error is
 * named in the timeout message.
 */
export async function waitFor<T>(check: () => T | undefined | null | false | Promise<T | undefined | null | false>, opts: WaitOptions): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  const interval = opts.intervalMs ?? 20;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() >= deadline) {
      const why = lastError ? ` (last error: ${(lastError as Error).message ?? String(lastError)})` : '';
      throw new WaitTimeout(`timed out after ${opts.timeoutMs} ms waiting for ${opts.what}${why}`);
    }
    await delay(Math.min(interval, Math.max(1, deadline - Date.now())));
  }
}

/** A plain pause, for the few places where Claude itself wants one (the TUI's paste window). */
export function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
