// The browser host: serves the built renderer and the contract over a WebSocket, on 127.0.0.1
// only, to a browser that holds the per-run token. Plain Node (http + ws), no electron.
//
// Authentication. A random 32-byte token is printed in the URL (`/?token=...`). Every HTTP
// request and the WebSocket upgrade must carry it, either in the `token` query parameter or in
// the cookie `teamdeck_<port>` that the host sets on the first request that presented the
// query token (HttpOnly, SameSite=Strict, Path=/, session-only). The cookie is what lets the
// page's own script, style and font requests (which carry no query) through; the renderer's
// WebSocket client also sends the token in the query, from memory. Both are compared in
// constant time. Host and Origin must name 127.0.0.1 or localhost with this port, which stops
// DNS rebinding and other local sites (cookies are not port-scoped, Origin is).
//
// The page. index.html goes out in two parts: its head at once, so the browser fetches the
// script and the style while the engine works, then, before </body>, the first snapshot and the
// roster of the team the window opens first as JSON in a <script type="application/json">
// (src/shared/host-boot.ts): data the script reads, never markup, and no script the CSP would
// have to allow. The events emitted from that snapshot on are kept for the page under the
// boot's id and sent first on the socket that names it (`/ws?boot=<id>`), so none is lost
// between the snapshot and the socket; when they were not all kept the socket says `resync`.
// That team is read from the moment the snapshot is in (the head has gone out by then), while
// the browser loads the page's files: on a first run, 5,000 messages read from inboxes into the
// journal took some 300 ms, which the page waited for after its files had gone out. Its roster
// is asked for once the page's script and style have gone out (or BOOT_ASSETS_MS after the
// head): giving the window its first roster starts the engine's background work (the other
// teams read, the search index opened), which holds this event loop for a while, and the page
// must not wait behind it for its own files.
// Those files go out in one write each (up to ONE_WRITE_MAX), so a loop busy with the first
// team delays them once, not at every 64 KB of a stream.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import type { AppEvent, Result, Snapshot } from '../../shared/contract.js';
import { wsClientMessageSchema, type WsServerMessage } from '../../shared/contract-schema.js';
import { BOOT_ELEMENT_ID, firstTeam, scriptSafeJson, type HostBoot } from '../../shared/host-boot.js';
import type { RosterEntry } from '../../shared/types.js';

export const TOKEN_BYTES = 32;
export const WS_PATH = '/ws';
/** Text is bounded at 64 KiB of UTF-8; JSON escaping can grow it several times. */
export const MAX_WS_PAYLOAD = 1024 * 1024;
const MAX_BUFFERED = 16 * 1024 * 1024;
/**
 * How long the page's end waits for its first snapshot and roster; past it, the page goes without
 * and asks over its socket. Not short: that call would wait for the same read still under way,
 * and then behind the background work the engine starts once the roster is given.
 */
export const BOOT_WAIT_MS = 3_000;
/** Events kept for a page until its socket opens: at most this many, bytes, and milliseconds. */
export const BOOT_KEEP = { events: 2_000, bytes: 8 * 1024 * 1024, ms: 60_000 };
/** How long the roster waits for the page's script and style to be sent (a client may never ask). */
export const BOOT_ASSETS_MS = 400;
/** A static file up to this size is read whole and sent in one write; a larger one is streamed. */
const ONE_WRITE_MAX = 2 * 1024 * 1024;
/** Pages whose events are kept at once; a new one past this drops the oldest (it resyncs). */
const BOOT_KEEP_PAGES = 32;
const RESYNC = JSON.stringify({ t: 'resync' });

/** What the host needs from the API layer (ApiHandlers provides both). */
export interface HostHandlers {
  /** Validates and runs one untrusted call; never throws. */
  dispatch(name: unknown, args: unknown): Promise<Result<unknown>>;
  onEvent(listener: (event: AppEvent) => void): () => void;
  /** Starts reading the team the page opens first, before its roster is asked for. Never throws. */
  prepare?(team: string): void;
}

export interface HostOptions {
  handlers: HostHandlers;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Only loopback is ever bound; any other value is refused. */
  host?: '127.0.0.1';
  /** The built renderer (electron-vite's out/renderer). */
  rendererDir: string;
  /** For tests; normally a fresh random token per run. */
  token?: string;
  /** How long the page waits for its start-up data (default BOOT_WAIT_MS); 0 sends the page without. */
  bootWaitMs?: number;
}

export interface RunningHost {
  /** The URL to open, token included. */
  url: string;
  origin: string;
  /** The address actually bound (always 127.0.0.1). */
  address: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** The page may load only its own files and talk only to this host's WebSocket. */
export function hostContentSecurityPolicy(port: number): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

export function securityHeaders(port: number): Record<string, string> {
  return {
    'Content-Security-Policy': hostContentSecurityPolicy(port),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), usb=(), serial=(), hid=()',
    'Cache-Control': 'no-store',
  };
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Constant-time comparison; hashing first makes the lengths equal, so length does not leak either. */
export function tokenMatches(candidate: string | undefined, expected: string): boolean {
  if (typeof candidate !== 'string' || candidate.length === 0 || candidate.length > 512) return false;
  return timingSafeEqual(digest(candidate), digest(expected));
}

export function cookieName(port: number): string {
  return `teamdeck_${port}`;
}

function readCookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function parseRequestUrl(req: IncomingMessage): URL | undefined {
  const raw = req.url ?? '';
  // Only origin-form targets ("/path?query"); absolute-form and "*" are not for us.
  if (!raw.startsWith('/')) return undefined;
  try {
    return new URL(`http://127.0.0.1${raw}`);
  } catch {
    return undefined;
  }
}

export class HostGate {
  readonly allowedHosts: Set<string>;
  readonly allowedOrigins: Set<string>;

  constructor(
    readonly port: number,
    readonly token: string,
  ) {
    this.allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
    this.allowedOrigins = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  }

  /** Why a request must be refused, or undefined when it may proceed. `via` says how the token came. */
  check(req: IncomingMessage, url: URL): { refuse: string } | { via: 'query' | 'cookie' } {
    const host = req.headers.host?.toLowerCase();
    if (!host || !this.allowedHosts.has(host)) return { refuse: 'bad host' };
    const origin = req.headers.origin;
    // Browsers send Origin on every WebSocket handshake and cross-origin request; when present it must be ours.
    if (origin !== undefined && !this.allowedOrigins.has(origin.toLowerCase())) return { refuse: 'bad origin' };
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none' && req.headers['sec-fetch-mode'] !== 'navigate') {
      return { refuse: 'cross-site request' };
    }
    if (tokenMatches(url.searchParams.get('token') ?? undefined, this.token)) return { via: 'query' };
    if (tokenMatches(readCookie(req, cookieName(this.port)), this.token)) return { via: 'cookie' };
    return { refuse: 'missing or wrong token' };
  }
}

/** Resolves a URL path to a regular file inside root, or undefined (traversal, dotfiles, folders, symlinks out). */
export async function resolveStatic(rootReal: string, pathname: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const segments = decoded.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '..' || s === '.' || s.startsWith('.'))) return undefined;
  if (segments.length === 0) segments.push('index.html');
  const full = resolve(rootReal, ...segments);
  const rel = relative(rootReal, full);
  if (rel === '' || rel.startsWith('..' + sep) || rel === '..' || isAbsolute(rel)) return undefined;
  try {
    const real = await realpath(full);
    const relReal = relative(rootReal, real);
    if (relReal === '' || relReal.startsWith('..' + sep) || relReal === '..' || isAbsolute(relReal)) return undefined;
    const st = await stat(real);
    return st.isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

/** The scripts and styles a page's head loads, as request paths (`./assets/x.js` -> `/assets/x.js`). */
export function headAssets(head: string): string[] {
  const out: string[] = [];
  for (const m of head.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="(\.?\/[^"?#]+)"/g)) {
    const path = m[1]!.replace(/^\.\//, '/');
    if (/\.(m?js|css)$/.test(path)) out.push(path);
  }
  return out;
}

function sendText(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)) });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

function refuseUpgrade(socket: Duplex, status: '403 Forbidden' | '404 Not Found'): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

export async function startHost(opts: HostOptions): Promise<RunningHost> {
  const bindHost = opts.host ?? '127.0.0.1';
  if (bindHost !== '127.0.0.1') throw new Error('the browser host binds 127.0.0.1 only');
  const token = opts.token ?? randomBytes(TOKEN_BYTES).toString('base64url');
  const rendererDir = resolve(opts.rendererDir);
  // Known once the port is bound; requests cannot arrive before that.
  const bound: { gate?: HostGate; headers: Record<string, string> } = { headers: {} };

  const bootWaitMs = opts.bootWaitMs ?? BOOT_WAIT_MS;

  /** Events emitted since a page's boot snapshot, as frames, until its socket takes them. */
  interface Kept {
    frames: string[];
    bytes: number;
    overflow: boolean;
    stop(): void;
  }
  const kept = new Map<string, Kept>();

  function keepEvents(id: string): Kept {
    if (kept.size >= BOOT_KEEP_PAGES) kept.values().next().value?.stop();
    const k: Kept = {
      frames: [],
      bytes: 0,
      overflow: false,
      stop: () => {
        off();
        clearTimeout(timer);
        kept.delete(id);
      },
    };
    const off = opts.handlers.onEvent((event) => {
      // A terminal's output is not replayed: a pane attaches with the screen as it is then.
      if (event.type === 'terminal-output' || k.overflow) return;
      const frame = JSON.stringify({ t: 'event', event } satisfies WsServerMessage);
      if (k.frames.length >= BOOT_KEEP.events || k.bytes + frame.length > BOOT_KEEP.bytes) {
        k.overflow = true;
        k.frames = [];
        return;
      }
      k.frames.push(frame);
      k.bytes += frame.length;
    });
    const timer = setTimeout(() => k.stop(), BOOT_KEEP.ms);
    timer.unref();
    kept.set(id, k);
    return k;
  }

  /** Pages waiting for their files to be sent: the paths still to go. */
  const assetWaiters = new Set<{ pending: Set<string>; done(): void }>();

  function assetsSent(paths: string[], maxMs: number): Promise<void> {
    if (paths.length === 0) return Promise.resolve();
    return new Promise((resolveSent) => {
      const w = {
        pending: new Set(paths),
        done: () => {
          assetWaiters.delete(w);
          clearTimeout(timer);
          resolveSent();
        },
      };
      const timer = setTimeout(w.done, maxMs);
      timer.unref();
      assetWaiters.add(w);
    });
  }

  function noteSent(pathname: string): void {
    for (const w of [...assetWaiters]) {
      w.pending.delete(pathname);
      if (w.pending.size === 0) w.done();
    }
  }

  /** The first snapshot and roster for a page, or undefined when they are not there in time. */
  async function bootData(assets: string[]): Promise<HostBoot | undefined> {
    if (bootWaitMs <= 0) return undefined;
    const id = randomBytes(16).toString('base64url');
    // Before the snapshot is asked for: what happens while it is read is replayed on top of it.
    const k = keepEvents(id);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), bootWaitMs)));
    const ask = <T>(name: string, args: unknown[]) =>
      Promise.race([opts.handlers.dispatch(name, args).catch((): Result<unknown> => ({ ok: false, error: { code: 'internal', message: 'internal error' } })), late]) as Promise<Result<T> | 'late'>;
    try {
      const snap = await ask<Snapshot>('getSnapshot', []);
      if (snap === 'late' || !snap.ok) {
        k.stop();
        return undefined;
      }
      const team = firstTeam(snap.value.teams);
      if (team !== undefined) {
        try {
          opts.handlers.prepare?.(team);
        } catch {
          // Only a head start: the roster below reads the team anyway.
        }
        await Promise.race([assetsSent(assets, BOOT_ASSETS_MS), late]);
      }
      const roster = team === undefined ? undefined : await ask<RosterEntry[]>('getRoster', [team]);
      return { id, snapshot: snap.value, ...(team !== undefined && roster !== undefined && roster !== 'late' && roster.ok ? { roster: { team, entries: roster.value } } : {}) };
    } finally {
      clearTimeout(timer);
    }
  }

  /** index.html: its head at once, then the start-up data before </body> (see the top of this file). */
  async function sendIndex(res: ServerResponse, headers: Record<string, string>, file: string): Promise<void> {
    const html = await readFile(file, 'utf8');
    const end = html.lastIndexOf('</body>');
    res.writeHead(200, { ...headers, 'Content-Type': CONTENT_TYPES['.html']! });
    if (end < 0 || res.req.method === 'HEAD') return void res.end(res.req.method === 'HEAD' ? undefined : html);
    const head = html.slice(0, end);
    res.write(head);
    const boot = await bootData(headAssets(head));
    if (res.destroyed) {
      if (boot) kept.get(boot.id)?.stop();
      return;
    }
    res.end(`${boot ? `<script type="application/json" id="${BOOT_ELEMENT_ID}">${scriptSafeJson(boot)}</script>` : ''}${html.slice(end)}`);
  }

  const server = createServer((req, res) => {
    void handleHttp(req, res).catch(() => {
      if (!res.headersSent) sendText(res, 500, bound.headers, 'internal error');
      else res.destroy();
    });
  });

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { gate, headers } = bound;
    const url = parseRequestUrl(req);
    if (!gate || !url) return sendText(res, 400, headers, 'bad request');
    const verdict = gate.check(req, url);
    if ('refuse' in verdict) return sendText(res, 403, headers, 'forbidden');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return sendText(res, 405, headers, 'method not allowed');
    }
    const extra: Record<string, string> = {};
    if (verdict.via === 'query') {
      extra['Set-Cookie'] = `${cookieName(gate.port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;
    }
    let rootReal: string;
    try {
      rootReal = await realpath(rendererDir);
    } catch {
      return sendText(res, 503, { ...headers, ...extra }, 'The renderer is not built yet: run `npm run build`, then reload.');
    }
    const file = await resolveStatic(rootReal, url.pathname);
    if (!file) return sendText(res, 404, { ...headers, ...extra }, 'not found');
    if (file === join(rootReal, 'index.html')) return sendIndex(res, { ...headers, ...extra }, file);
    const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    const size = (await stat(file)).size;
    if (size <= ONE_WRITE_MAX && req.method !== 'HEAD') {
      // The renderer's own files (a few hundred KB): one read, one write (see the top of the file).
      const body = await readFile(file);
      res.writeHead(200, { ...headers, ...extra, 'Content-Type': type, 'Content-Length': String(body.length) });
      res.once('finish', () => noteSent(url.pathname));
      return void res.end(body);
    }
    res.writeHead(200, { ...headers, ...extra, 'Content-Type': type, 'Content-Length': String(size) });
    if (req.method === 'HEAD') return void res.end();
    res.once('finish', () => noteSent(url.pathname));
    const stream = createReadStream(file);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_WS_PAYLOAD });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const { gate } = bound;
    const url = parseRequestUrl(req);
    if (!gate || !url) return refuseUpgrade(socket, '403 Forbidden');
    if ('refuse' in gate.check(req, url)) return refuseUpgrade(socket, '403 Forbidden');
    if (url.pathname !== WS_PATH) return refuseUpgrade(socket, '404 Not Found');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req, url.searchParams.get('boot')));
  });

  wss.on('connection', (ws: WebSocket, _req: IncomingMessage, boot: string | null) => {
    const sendFrame = (frame: string) => {
      if (ws.readyState !== WebSocket.OPEN) return;
      // A client that stopped reading is dropped rather than buffered without bound.
      if (ws.bufferedAmount > MAX_BUFFERED) return ws.terminate();
      ws.send(frame);
    };
    const send = (msg: WsServerMessage) => sendFrame(JSON.stringify(msg));
    const off = opts.handlers.onEvent((event) => send({ t: 'event', event }));
    if (boot !== null) {
      // In the same turn as the subscription above: each event goes exactly once, in order.
      const k = kept.get(boot);
      if (!k || k.overflow) sendFrame(RESYNC);
      else for (const frame of k.frames) sendFrame(frame);
      k?.stop();
    }
    let alive = true;
    ws.on('pong', () => (alive = true));
    const heartbeat = setInterval(() => {
      if (!alive) return ws.terminate();
      alive = false;
      ws.ping();
    }, 30_000);
    heartbeat.unref();
    ws.on('close', () => {
      off();
      clearInterval(heartbeat);
    });
    ws.on('error', () => ws.terminate());
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary) return ws.close(1003, 'text frames only');
      let json: unknown;
      try {
        json = JSON.parse(data.toString());
      } catch {
        return ws.close(1007, 'not JSON');
      }
      const env = wsClientMessageSchema.safeParse(json);
      if (!env.success) return ws.close(1008, 'bad envelope');
      const { id, name, args } = env.data;
      void opts.handlers
        .dispatch(name, args)
        .catch((): Result<unknown> => ({ ok: false, error: { code: 'internal', message: 'internal error' } }))
        .then((result) => send({ t: 'result', id, result }));
    });
  });

  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(opts.port ?? 0, bindHost, () => {
      server.off('error', rejectListen);
      resolveListen();
    });
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the host did not bind a TCP port');
  const port = address.port;
  bound.gate = new HostGate(port, token);
  bound.headers = securityHeaders(port);
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/?token=${token}`,
    origin,
    address: address.address,
    port,
    token,
    close: async () => {
      for (const k of [...kept.values()]) k.stop();
      for (const c of wss.clients) c.terminate();
      wss.close();
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
    },
  };
}
