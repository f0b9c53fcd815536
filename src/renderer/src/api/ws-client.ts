// The contract over the browser host's WebSocket: the same TeamdeckApi the Electron preload
// exposes, so the UI cannot tell the two apart. Calls carry ids and are answered by id; events
// are pushed. The socket reconnects with backoff; after a reconnect a fresh snapshot is pushed
// to listeners, because events sent while disconnected were missed. A page that came with the
// host's start-up data (src/shared/host-boot.ts) opens its first socket with that boot's id: the
// host sends the events since that snapshot first, or `resync` when it did not keep them all,
// and a fresh snapshot is pushed then as after a reconnect.
import { CALL_NAMES, withoutTrailingUndefined, type AppEvent, type CallName, type Result, type TeamdeckApi, type TeamdeckCalls, type WsClientMessage } from '../../../shared/contract';
import type { HostServerMessage } from '../../../shared/host-boot';

/** The subset of the DOM WebSocket this client uses (the `ws` package's client fits too). */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface WsClientOptions {
  /** ws://host:port/ws?token=... */
  url: string;
  createSocket?: (url: string) => SocketLike;
  /** First reconnect delay and its cap, in ms. */
  backoff?: { minMs: number; maxMs: number };
  /** Opens an http(s) link outside the app; in a browser that is a new tab without an opener. */
  openLink?: (url: string) => void;
  /** The id of the host's start-up data this page holds: the first socket asks for the events since. */
  boot?: string;
}

export interface WsClient extends TeamdeckApi {
  /** Stops reconnecting and closes the socket; pending calls fail. */
  close(): void;
  readonly connected: boolean;
}

const OPEN = 1;
const LOST: Result<never> = { ok: false, error: { code: 'internal', message: 'The connection to Teamdeck was lost before it answered.' } };

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.username === '' && u.password === '';
  } catch {
    return false;
  }
}

export function createWsClient(opts: WsClientOptions): WsClient {
  const createSocket = opts.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
  const { minMs, maxMs } = opts.backoff ?? { minMs: 250, maxMs: 5_000 };
  const listeners = new Set<(e: AppEvent) => void>();
  const pending = new Map<number, (r: Result<unknown>) => void>();
  /** Calls made while disconnected, sent in order once the socket opens. */
  const outbox: WsClientMessage[] = [];
  let nextId = 1;
  let socket: SocketLike | undefined;
  let attempts = 0;
  let everOpened = false;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const emit = (e: AppEvent) => {
    for (const l of [...listeners]) {
      try {
        l(e);
      } catch (err) {
        console.error('teamdeck: event listener failed', err);
      }
    }
  };

  function connect(): void {
    if (closed) return;
    const s = createSocket(everOpened || opts.boot === undefined ? opts.url : withQuery(opts.url, 'boot', opts.boot));
    socket = s;
    s.onopen = () => {
      const reconnected = everOpened;
      everOpened = true;
      attempts = 0;
      while (outbox.length > 0 && s.readyState === OPEN) s.send(JSON.stringify(outbox.shift()));
      if (reconnected) resync();
    };
    s.onmessage = (ev) => {
      if (typeof ev.data !== 'string') return;
      let msg: HostServerMessage;
      try {
        msg = JSON.parse(ev.data) as HostServerMessage;
      } catch {
        return;
      }
      if (msg.t === 'result') {
        const done = pending.get(msg.id);
        pending.delete(msg.id);
        done?.(msg.result);
      } else if (msg.t === 'event') {
        emit(msg.event);
      } else if (msg.t === 'resync') {
        resync();
      }
    };
    s.onerror = () => {
      // onclose follows and handles the retry.
    };
    s.onclose = () => {
      if (socket !== s) return;
      socket = undefined;
      // Calls already sent have no answer coming; calls still in the outbox will go after reconnecting.
      const queued = new Set(outbox.map((m) => m.id));
      for (const [id, done] of [...pending]) {
        if (queued.has(id)) continue;
        pending.delete(id);
        done(LOST);
      }
      if (closed) return;
      const delay = Math.min(maxMs, minMs * 2 ** attempts) * (0.75 + Math.random() * 0.5);
      attempts++;
      timer = setTimeout(connect, delay);
    };
  }

  /** Events were missed: listeners get a fresh snapshot. */
  function resync(): void {
    void calls.getSnapshot().then((r) => {
      if (r.ok) emit({ type: 'snapshot', snapshot: r.value });
    });
  }

  function invoke(name: CallName, args: unknown[]): Promise<Result<unknown>> {
    if (closed) return Promise.resolve(LOST);
    const id = nextId++;
    const msg: WsClientMessage = { t: 'call', id, name, args };
    return new Promise((resolve) => {
      pending.set(id, resolve);
      if (socket && socket.readyState === OPEN) socket.send(JSON.stringify(msg));
      else outbox.push(msg);
    });
  }

  // One function per call in the contract's table. Optional arguments left out are not sent:
  // JSON would send a trailing undefined as null, which the host's strict schemas refuse.
  const calls = Object.fromEntries(CALL_NAMES.map((name) => [name, (...args: unknown[]) => invoke(name, withoutTrailingUndefined(args))])) as TeamdeckCalls;

  connect();

  return {
    ...calls,
    // The browser is the system browser here: open the link in a new tab with no opener.
    openExternal: async (url) => {
      if (typeof url !== 'string' || !isHttpUrl(url)) {
        return { ok: false, error: { code: 'invalid', message: 'openExternal: only http and https links open' } };
      }
      (opts.openLink ?? ((u: string) => void window.open(u, '_blank', 'noopener,noreferrer')))(new URL(url).href);
      return { ok: true, value: null };
    },
    onEvent: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    close: () => {
      closed = true;
      if (timer) clearTimeout(timer);
      const s = socket;
      socket = undefined;
      s?.close(1000, 'client closed');
      for (const [id, done] of [...pending]) {
        pending.delete(id);
        done(LOST);
      }
      outbox.length = 0;
    },
    get connected() {
      return socket?.readyState === OPEN;
    },
  };
}

function withQuery(url: string, key: string, value: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}${key}=${encodeURIComponent(value)}`;
}

/** The host's WebSocket URL for a page served by it; the token goes in the query, from memory. */
export function hostSocketUrl(loc: { protocol: string; host: string }, token: string | undefined): string {
  const scheme = loc.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${loc.host}/ws${token ? `?token=${encodeURIComponent(token)}` : ''}`;
}
