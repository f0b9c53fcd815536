// A headless lead: `claude -p` speaking stream-json on stdin/stdout, with the same scratch
// home and environment as the interactive one.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { RunDir } from './home.js';
import { leadEnv } from './tmux-lead.js';
import { waitFor } from './wait.js';

export interface HeadlessLead {
  proc: ChildProcess;
  sessionId: string;
  /** Every stdout line that parsed as JSON, in order. */
  events: Array<Record<string, unknown>>;
  /** Sends a genuine user turn. */
  sendUser(text: string): void;
  waitForEvent(predicate: (e: Record<string, unknown>) => boolean, timeoutMs: number, what: string): Promise<Record<string, unknown>>;
  stderr(): string;
  /** Closes stdin and waits for the process to end (SIGKILL after timeoutMs). */
  close(timeoutMs?: number): Promise<number | null>;
}

export function startHeadless(opts: { binary: string; run: RunDir; apiUrl: string; env?: Record<string, string> }): HeadlessLead {
  const sessionId = randomUUID();
  const args = ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions', '--session-id', sessionId];
  const proc = spawn(opts.binary, args, { cwd: opts.run.proj, env: leadEnv(opts.run, opts.apiUrl, opts.env), stdio: ['pipe', 'pipe', 'pipe'] });
  const events: Array<Record<string, unknown>> = [];
  let err = '';
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    try {
      events.push(JSON.parse(line));
    } catch {
      // not an event line
    }
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return {
    proc,
    sessionId,
    events,
    sendUser: (text) => {
      proc.stdin!.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: text }, origin: { kind: 'human' }, uuid: randomUUID() })}\n`);
    },
    waitForEvent: (predicate, timeoutMs, what) => waitFor(() => events.find(predicate), { what, timeoutMs }),
    stderr: () => err,
    close: async (timeoutMs = 10_000) => {
      proc.stdin!.end();
      const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
