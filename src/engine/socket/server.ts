// Serves a running engine's TeamServiceApi to other Teamdeck processes of the same user (the
// CLI beside the app), so they need not own the state dir themselves. Who may connect: the
// socket is 0600 in an owner-only folder, and the first line must carry the token from the
// 0600 info file in the state dir (Node cannot read SO_PEERCRED, so the file system is the
// check). Every request is validated before the service sees it; a bad request gets an answer
// and the server keeps serving.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, rmdir } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import type { ApiError } from '../../shared/contract.js';
import { argsErrorCode, describeArgsError } from '../../shared/contract-schema.js';
import { toApiError } from '../api/api-handlers.js';
import type { TeamServiceApi } from '../service/service-types.js';
import { registerEngine } from './registry.js';
import { chooseSocketPlace, clearStaleSocket, removeEngineInfo, removeSocketFile, writeEngineInfo, type SocketPlace } from './location.js';
import {
  ENGINE_METHODS,
  helloArgsSchema,
  isEngineMethod,
  LineReader,
  MAX_REQUEST_LINE_BYTES,
  PROTOCOL_VERSION,
  requestSchema,
  type EngineAnswer,
  type EngineMethod,
  type HelloValue,
} from './protocol.js';

export interface EngineSocketServer {
  /** The socket's path (or pipe name). */
  readonly path: string;
  /** Stops accepting, drops every client, removes the socket and the info file. */
  close(): Promise<void>;
}

export interface ServeOptions {
  env?: NodeJS.ProcessEnv;
  /** Concurrent clients (default 32); one more is told so and closed. */
  maxConnections?: number;
  /** A client that has not presented the token by then is closed (default 5 s). */
  helloTimeoutMs?: number;
  log?: (message: string, error?: unknown) => void;
}

/** Requests one client may have running at once. */
const MAX_IN_FLIGHT = 64;
/** A subscriber that lets this much of the event stream pile up unread is dropped. */
const MAX_BUFFERED_EVENT_BYTES = 64 * 1_048_576;
const isWindows = process.platform === 'win32';

/**
 * Starts serving `service` (already started: the caller holds the state lock, which is what
 * entitles it to replace a socket a crashed owner left behind).
 */
export async function serveEngineSocket(service: TeamServiceApi, stateDir = service.stateDir, opts: ServeOptions = {}): Promise<EngineSocketServer> {
  const log = opts.log ?? (() => {});
  await clearStaleSocket(stateDir);
  const place = await chooseSocketPlace(stateDir, opts.env);
  const token = randomBytes(32).toString('hex');
  const expected = digest(token);
  const maxConnections = opts.maxConnections ?? 32;
  const helloTimeoutMs = opts.helloTimeoutMs ?? 5_000;
  const clients = new Set<Socket>();
  const subscribers = new Set<Socket>();

  const server = createServer((sock) => accept(sock));
  server.on('error', (e) => log('engine socket error', e));
  try {
    await listenOwnerOnly(server, place.path);
    if (!isWindows) await chmod(place.path, 0o600);
    await writeEngineInfo(stateDir, { protocol: PROTOCOL_VERSION, pid: process.pid, path: place.path, token });
  } catch (e) {
    server.close();
    await removePlace(place);
    throw e;
  }
  // Commands given another state dir find this engine by its teams folder (a note they cannot
  // read only means they start their own view, as before).
  let unregister: () => Promise<void> = async () => {};
  try {
    unregister = await registerEngine(service.teamsRoot, stateDir, opts.env);
  } catch (e) {
    log('commands run with another state dir will not find this engine: noting it failed', e);
  }

  // One listener on the service; each event is serialized once for every subscriber.
  const offEvents = service.onEvent((event) => {
    if (subscribers.size === 0) return;
    let line: string;
    try {
      line = JSON.stringify({ event }) + '\n';
    } catch (e) {
      log('an event could not be serialized for the engine socket', e);
      return;
    }
    for (const s of subscribers) {
      if (s.writableLength > MAX_BUFFERED_EVENT_BYTES) s.destroy();
      else s.write(line);
    }
  });

  function accept(sock: Socket): void {
    sock.on('error', () => {});
    if (clients.size >= maxConnections) {
      sock.end(answerLine({ id: null, ok: false, error: { code: 'refused', message: `the engine serves at most ${maxConnections} clients at once` } }));
      return;
    }
    clients.add(sock);
    let authed = false;
    let inFlight = 0;
    const send = (a: EngineAnswer) => {
      if (!sock.destroyed && sock.writable) sock.write(answerLine(a));
    };
    const refuse = (id: number | null, code: ApiError['code'], message: string, close = false) => {
      send({ id, ok: false, error: { code, message } });
      if (close) {
        reader.stop();
        sock.end();
      }
    };
    const timer = setTimeout(() => refuse(null, 'refused', `no hello within ${helloTimeoutMs} ms`, true), helloTimeoutMs);
    timer.unref();
    const reader = new LineReader(
      MAX_REQUEST_LINE_BYTES,
      (line) => onLine(line),
      () => refuse(null, 'invalid', `request line longer than ${MAX_REQUEST_LINE_BYTES} bytes; closing this connection`, true),
    );
    sock.on('data', (chunk: Buffer) => reader.push(chunk));
    sock.on('close', () => {
      clearTimeout(timer);
      reader.stop();
      subscribers.delete(sock);
      clients.delete(sock);
    });

    function onLine(text: string): void {
      if (text.trim() === '') return;
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch {
        return refuse(null, 'invalid', 'a request must be one JSON object per line', !authed);
      }
      const rawId = (raw as { id?: unknown } | null)?.id;
      const id = typeof rawId === 'number' && Number.isSafeInteger(rawId) && rawId >= 0 ? rawId : null;
      const parsed = requestSchema.safeParse(raw);
      if (!parsed.success) return refuse(id, 'invalid', describeArgsError('request', parsed.error, 0), !authed);
      const req = parsed.data;
      if (!authed) return hello(req.id, req.method, req.args);
      if (req.method === 'hello') return refuse(req.id, 'invalid', 'hello: already done on this connection');
      if (req.method === 'subscribe') {
        if (req.args.length > 0) return refuse(req.id, 'invalid', 'subscribe: takes no arguments');
        subscribers.add(sock);
        return send({ id: req.id, ok: true, value: null });
      }
      if (!isEngineMethod(req.method)) return refuse(req.id, 'invalid', `unknown method ${JSON.stringify(req.method)}`);
      const method: EngineMethod = req.method;
      const schema = ENGINE_METHODS[method];
      const args = schema.safeParse(req.args);
      if (!args.success) return refuse(req.id, argsErrorCode(args.error), describeArgsError(method, args.error, schema.kinds.length));
      if (inFlight >= MAX_IN_FLIGHT) return refuse(req.id, 'refused', `at most ${MAX_IN_FLIGHT} requests may run at once on one connection`);
      inFlight++;
      void call(method, args.data as unknown[])
        .then(
          (value) => {
            // A value that is not JSON is an engine bug, not the client's: say so as internal.
            let line: string;
            try {
              // A method with no result (terminalInput) answers null: JSON has no undefined.
              line = answerLine({ id: req.id, ok: true, value: value ?? null });
            } catch (e) {
              log(`${method} over the engine socket: the answer is not JSON`, e);
              return refuse(req.id, 'internal', `${method}: the answer could not be encoded`);
            }
            if (!sock.destroyed && sock.writable) sock.write(line);
          },
          (e: unknown) => {
            const error = toApiError(e);
            if (error.code === 'internal') log(`${method} over the engine socket failed`, e);
            refuse(req.id, error.code, error.message);
          },
        )
        .finally(() => inFlight--);
    }

    function hello(id: number, method: string, rawArgs: unknown[]): void {
      if (method !== 'hello') return refuse(id, 'refused', 'the first request must be hello with the token', true);
      const a = helloArgsSchema.safeParse(rawArgs);
      if (!a.success) return refuse(id, 'refused', describeArgsError('hello', a.error, 1), true);
      const { token: presented, protocol } = a.data[0];
      if (!timingSafeEqual(digest(presented), expected)) return refuse(id, 'refused', 'wrong token', true);
      if (protocol !== PROTOCOL_VERSION) {
        return refuse(id, 'refused', `this engine speaks protocol ${PROTOCOL_VERSION}, not ${protocol}`, true);
      }
      authed = true;
      clearTimeout(timer);
      const value: HelloValue = { pid: process.pid, teamsRoot: service.teamsRoot, stateDir, protocol: PROTOCOL_VERSION };
      send({ id, ok: true, value });
    }
  }

  async function call(method: EngineMethod, args: unknown[]): Promise<unknown> {
    const fn = service[method] as (...a: unknown[]) => unknown;
    return await fn.apply(service, args);
  }

  let closing: Promise<void> | undefined;
  return {
    path: place.path,
    close: () =>
      (closing ??= (async () => {
        offEvents();
        const closed = new Promise<void>((r) => server.close(() => r()));
        for (const s of clients) s.destroy();
        await closed;
        await unregister().catch((e: unknown) => log('taking away the note that this engine serves its teams folder failed', e));
        await removeEngineInfo(stateDir, token);
        await removePlace(place);
      })()),
  };
}

/** Removes the socket file and the folder made for it, when the server failed to start or closes. */
async function removePlace(place: SocketPlace): Promise<void> {
  // Best effort: a socket file left behind is cleared by the next owner (clearStaleSocket).
  if (!isWindows) await removeSocketFile(place.path).catch(() => {});
  // An empty folder left in the runtime dir is harmless.
  if (place.ownDir) await rmdir(place.ownDir).catch(() => {});
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}

function answerLine(a: EngineAnswer): string {
  return JSON.stringify(a) + '\n';
}

/** Binds with a umask that makes the socket 0600 from its first moment (chmod follows anyway). */
async function listenOwnerOnly(server: Server, path: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    server.once('error', onError);
    let previous: number | undefined;
    try {
      // process.umask throws in worker threads; the owner-only folder and chmod still hold there.
      if (!isWindows) previous = process.umask(0o177);
    } catch {
      previous = undefined;
    }
    try {
      server.listen(path, () => {
        server.off('error', onError);
        resolve();
      });
    } finally {
      if (previous !== undefined) process.umask(previous);
    }
  });
}
