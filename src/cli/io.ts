// Where the CLI writes and how a long-running command learns it should stop. main() takes an
// Io so commands never reach for process.stdout or signals themselves.

export interface Io {
  /** One line (or several) to stdout; a newline is added. */
  out(text: string): void;
  /** One line to stderr; a newline is added. */
  err(text: string): void;
  /**
   * Resolves with the signal name once the user asks a long-running command to stop.
   * `cancel` ends the wait (resolving 'cancelled') when the command finishes on its own.
   */
  untilStopped(cancel?: AbortSignal): Promise<string>;
  /** Reads all of stdin (for `send -`). */
  readStdin(): Promise<string>;
}

export function processIo(): Io {
  // A closed pipe (`teamdeck tail | head`) must end the command quietly, not crash it.
  let closed = false;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') closed = true;
  });
  return {
    out: (text) => {
      if (!closed) process.stdout.write(text + '\n');
    },
    err: (text) => {
      process.stderr.write(text + '\n');
    },
    untilStopped: (cancel) =>
      new Promise((resolve) => {
        const finish = (how: string) => {
          process.off('SIGINT', on);
          process.off('SIGTERM', on);
          cancel?.removeEventListener('abort', onCancel);
          resolve(how);
        };
        const on = (sig: NodeJS.Signals) => finish(sig);
        const onCancel = () => finish('cancelled');
        process.on('SIGINT', on);
        process.on('SIGTERM', on);
        if (cancel?.aborted) finish('cancelled');
        else cancel?.addEventListener('abort', onCancel, { once: true });
      }),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(String(c)));
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}
