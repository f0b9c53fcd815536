// Keystrokes and pastes on their way from a terminal pane to the host. The contract takes at most
// MAX_TERMINAL_INPUT characters a call, so a large paste is split (never inside a surrogate
// pair); calls go one at a time, in order, and whatever is typed while one is in flight leaves
// together in the next, so a fast typist or a big paste never reorders bytes.

/** Where the piece of `data` that starts at `at` ends: at most `max` units, never between a surrogate pair's halves. */
function pieceEnd(data: string, at: number, max: number): number {
  if (data.length - at <= max) return data.length;
  const end = at + max;
  const last = data.charCodeAt(end - 1);
  // A high surrogate as the last unit would be cut from its low half: leave it for the next piece.
  return last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}

/** Splits `data` into pieces of at most `max` UTF-16 units, keeping surrogate pairs whole. */
export function chunkInput(data: string, max: number): string[] {
  if (max < 2) throw new Error('chunkInput: max must be at least 2');
  const out: string[] = [];
  for (let at = 0; at < data.length; ) {
    const end = pieceEnd(data, at, max);
    out.push(data.slice(at, end));
    at = end;
  }
  return out;
}

export interface InputQueue {
  /** Queues input; sent after everything queued before it. */
  push(data: string): void;
  /** Resolves once everything queued so far was handed to `send` and answered. */
  idle(): Promise<void>;
  /** Drops what has not been sent yet; later pushes are ignored. */
  close(): void;
}

/**
 * `send` is awaited before the next call. A failed call (it resolves with an error) is reported
 * through `onError` and the queue goes on: later keystrokes are still the user's intent.
 */
export function createInputQueue(
  send: (data: string) => Promise<{ ok: boolean; error?: { message: string } }>,
  opts: { max: number; onError?: (message: string) => void },
): InputQueue {
  if (opts.max < 2) throw new Error('createInputQueue: max must be at least 2');
  let pending = '';
  let running: Promise<void> | undefined;
  let closed = false;

  const drain = async () => {
    while (pending && !closed) {
      // Take what fits in one call, and no more: the rest waits for the next round.
      const end = pieceEnd(pending, 0, opts.max);
      const head = pending.slice(0, end);
      pending = pending.slice(end);
      try {
        const r = await send(head);
        if (!r.ok) opts.onError?.(r.error?.message ?? 'the terminal did not take the input');
      } catch (e) {
        opts.onError?.(e instanceof Error ? e.message : String(e));
      }
    }
  };

  const kick = () => {
    if (running || closed || !pending) return;
    running = drain().finally(() => {
      running = undefined;
      // Input that arrived between the last call's answer and here.
      kick();
    });
  };

  return {
    push(data) {
      if (closed || !data) return;
      pending += data;
      kick();
    },
    async idle() {
      while (running) await running;
    },
    close() {
      closed = true;
      pending = '';
    },
  };
}
