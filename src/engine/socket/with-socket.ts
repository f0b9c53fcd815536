// For hosts that create and replace services themselves (ApiHandlers in the app and in
// `teamdeck serve` swap the service when the teams root changes or a demo starts): the same
// service, whose start() also serves the engine socket in its state dir and whose stop()
// closes it first, while the state lock is still held.
import type { TeamServiceApi } from '../service/service-types.js';
import { serveEngineSocket, type EngineSocketServer, type ServeOptions } from './server.js';

const defaultLog = (message: string, error?: unknown) =>
  console.error(`teamdeck: ${message}${error instanceof Error ? `: ${error.message}` : ''}`);

/**
 * Wraps `service` so that its lifecycle carries the socket. A socket that cannot be served is
 * logged and the engine runs on without it: other processes then fall back as before.
 */
export function withEngineSocket<S extends TeamServiceApi>(service: S, opts: ServeOptions = {}): S {
  const log = opts.log ?? defaultLog;
  let socket: EngineSocketServer | undefined;
  const start = async () => {
    await service.start();
    if (socket) return;
    try {
      socket = await serveEngineSocket(service, service.stateDir, { ...opts, log });
    } catch (e) {
      log(`other Teamdeck commands cannot reach this engine: serving its socket failed`, e);
    }
  };
  const stop = async () => {
    const s = socket;
    socket = undefined;
    await s?.close().catch((e) => log('closing the engine socket failed', e));
    await service.stop();
  };
  // A proxy rather than a class listing every method, so a method added to the facade later
  // passes through without touching this file.
  return new Proxy(service, {
    get(target, prop) {
      if (prop === 'start') return start;
      if (prop === 'stop') return stop;
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
