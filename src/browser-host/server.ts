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
// The page, index.html, with its start-up data and first screen: index-page.ts. The page's own
// files go out in one write each (up to ONE_WRITE_MAX), so a loop busy with the first team delays
// them once, not at every 64 KB of a stream.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import type { Result, WsServerMessage } from '../shared/contract.js';
import { wsClientMessageSchema } from '../shared/contract-schema.js';
import type { FirstScreenRenderer } from './first-screen.js';
import type { HostHandlers } from './host-handlers.js';
import { BOOT_WAIT_MS, createIndexPage } from './index-page.js';

export type { HostHandlers } from './host-handlers.js';

export const TOKEN_BYTES = 32;
export const WS_PATH = '/ws';
/** Text is bounded at 64 KiB of UTF-8; JSON escaping can grow it several times. */
export const MAX_WS_PAYLOAD = 1024 * 1024;
const MAX_BUFFERED = 16 * 1024 * 1024;
/** A static file up to this size is read whole and sent in one write; a larger one is streamed. */
const ONE_WRITE_MAX = 2 * 1024 * 1024;
const RESYNC = JSON.stringify({ t: 'resync' });

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
  /** Renders the first screen into the page (first-screen.ts); without it, the script does. */
  firstScreen?: FirstScreenRenderer;
}

export interface RunningHost {
  /** The URL to open, token included. */
  url: string;
  origin: string;
  /** The address actually bound (always 127.0.0.1). */
  address: string;
  port: number;
  token: string;
  /** Readies what the first page needs (index-page.ts), for at most `maxMs`; never rejects. */
  primeFirstPage(maxMs: number): Promise<void>;
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
  check(req: IncomingMessage, url: URL): { refuse: string; noToken?: true } | { via: 'query' | 'cookie' } {
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
    return { refuse: 'missing or wrong token', noToken: true };
  }
}

/**
 * What the app's own address says to a browser without this run's token (a new profile, a
 * bookmark, a link from an earlier run): how to get in, not a bare "forbidden". It names no
 * token, and only a request that passed the host and origin checks gets it.
 */
export function needsTokenText(port: number): string {
  return [
    'Teamdeck needs the link with this run\'s access token.',
    '',
    `Open the link that \`teamdeck serve\` (or \`npm start\`) printed in its terminal: http://127.0.0.1:${port}/?token=…`,
    'Each start makes a new token, so this address without it, or a link from an earlier run, is refused;',
    'the port stays the same from one start to the next while it is free.',
    '',
  ].join('\n');
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

  const page = createIndexPage({
    handlers: opts.handlers,
    bootWaitMs: opts.bootWaitMs ?? BOOT_WAIT_MS,
    ...(opts.firstScreen ? { firstScreen: opts.firstScreen } : {}),
  });

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
    if ('refuse' in verdict) {
      const page = verdict.noToken && (req.method === 'GET' || req.method === 'HEAD') && (url.pathname === '/' || url.pathname === '/index.html');
      return page ? sendText(res, 401, headers, needsTokenText(gate.port)) : sendText(res, 403, headers, 'forbidden');
    }
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
    if (file === join(rootReal, 'index.html')) return page.send(res, { ...headers, ...extra }, file);
    const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    const size = (await stat(file)).size;
    if (size <= ONE_WRITE_MAX && req.method !== 'HEAD') {
      // The renderer's own files (a few hundred KB): one read, one write (see the top of the file).
      const body = await readFile(file);
      res.writeHead(200, { ...headers, ...extra, 'Content-Type': type, 'Content-Length': String(body.length) });
      res.once('finish', () => page.noteSent(url.pathname));
      return void res.end(body);
    }
    res.writeHead(200, { ...headers, ...extra, 'Content-Type': type, 'Content-Length': String(size) });
    if (req.method === 'HEAD') return void res.end();
    res.once('finish', () => page.noteSent(url.pathname));
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
      const frames = page.takeKept(boot);
      if (frames === 'resync') sendFrame(RESYNC);
      else for (const frame of frames) sendFrame(frame);
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
    primeFirstPage: (maxMs) => page.prime(maxMs),
    close: async () => {
      page.close();
      for (const c of wss.clients) c.terminate();
      wss.close();
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
    },
  };
}
