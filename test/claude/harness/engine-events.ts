// A listener on a running engine's socket (`teamdeck watch` serves one): every event it pushes,
// with when it arrived, and calls answered in milliseconds. A `teamdeck` command spends about a
// second starting before it asks the engine; this shows what the engine itself knew and when,
// so a latency bound can be checked to the millisecond beside the command's own answer.
// Wire (src/engine/socket/protocol.ts): newline-delimited JSON; the first request is
// `hello` with the token from `<state>/engine-socket.json`, then `subscribe` and method calls.
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { waitFor } from './wait.js';

export interface EngineEvent {
  /** Date.now() when the line arrived. */
  at: number;
  event: { type: string; team?: string; [k: string]: unknown };
}

export interface EngineListener {
  events: EngineEvent[];
  /** Events of one type (and team, when given), in order of arrival. */
  of(type: string, team?: string): EngineEvent[];
  /** One method call over the socket, with the window it took. */
  call<T>(method: string, args: unknown[]): Promise<{ value: T; startedAt: number; endedAt: number }>;
  close(): void;
}

export async function listenToEngine(stateDir: string, timeoutMs = 10_000): Promise<EngineListener> {
  const info = JSON.parse(readFileSync(join(stateDir, 'engine-socket.json'), 'utf8')) as { path: string; token: string; protocol: number };
  const sock: Socket = connect(info.path);
  const events: EngineEvent[] = [];
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let buf = '';
  let closed: Error | undefined;
  sock.setEncoding('utf8');
  sock.on('data', (chunk: string) => {
    buf += chunk;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (!line.trim()) continue;
      const at = Date.now();
      let msg: { id?: number | null; ok?: boolean; value?: unknown; error?: { message?: string }; event?: EngineEvent['event'] };
      try {
        msg = JSON.parse(line);
      } catch {
        continue;
      }
      if (msg.event) {
        events.push({ at, event: msg.event });
        continue;
      }
      const p = typeof msg.id === 'number' ? pending.get(msg.id) : undefined;
      if (!p) continue;
      pending.delete(msg.id!);
      if (msg.ok) p.resolve(msg.value);
      else p.reject(new Error(`engine refused: ${msg.error?.message ?? line}`));
    }
  });
  const fail = (e: Error) => {
    closed ??= e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  sock.on('error', (e) => fail(e));
  sock.on('close', () => fail(new Error('the engine socket closed')));
  const request = (method: string, args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      if (closed) return reject(closed);
      const id = nextId++;
      pending.set(id, { resolve, reject });
      sock.write(`${JSON.stringify({ id, method, args })}\n`);
    });
  await waitFor(() => !sock.connecting || closed, { what: 'the engine socket to connect', timeoutMs });
  if (closed) throw closed;
  await request('hello', [{ token: info.token, protocol: info.protocol }]);
  await request('subscribe', []);
  return {
    events,
    of: (type, team) => events.filter((e) => e.event.type === type && (team === undefined || e.event.team === team)),
    call: async <T>(method: string, args: unknown[]) => {
      const startedAt = Date.now();
      const value = (await request(method, args)) as T;
      return { value, startedAt, endedAt: Date.now() };
    },
    close: () => sock.destroy(),
  };
}
