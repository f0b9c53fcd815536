import { afterEach, describe, expect, it, vi } from 'vitest';
import { timingSafeEqual } from 'node:crypto';
import { request } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { CALL_NAMES, CALLS, type AppEvent, type Result } from '../shared/contract.js';
import { validateCall } from '../shared/contract-schema.js';
import { sampleArgs } from '../../test/helpers/call-samples.js';
import { useTempDirs } from '../../test/helpers/tmp.js';
import { BOOT_ASSETS_MS, BOOT_KEEP, headAssets } from './index-page.js';
import { hostContentSecurityPolicy, startHost, tokenMatches, type HostHandlers, type RunningHost } from './server.js';

/** A refused request: 403, or 401 where the app's own address says how to get in. */
const REFUSED = [401, 403];

// The real timingSafeEqual, watched: the token check must go through it (constant time).
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  return { ...real, timingSafeEqual: vi.fn(real.timingSafeEqual) };
});

const tempDir = useTempDirs();
const running: RunningHost[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((h) => h.close()));
});

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP GET with exactly the headers given (Host included), so Host and Origin can be forged. */
function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers }, setHost: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function fakeHandlers() {
  const listeners = new Set<(e: AppEvent) => void>();
  const calls: { name: unknown; args: unknown }[] = [];
  const handlers: HostHandlers & { emit(e: AppEvent): void; calls: typeof calls; listeners: typeof listeners } = {
    calls,
    listeners,
    dispatch: async (name, args): Promise<Result<unknown>> => {
      calls.push({ name, args });
      if (name === 'getRoster') return { ok: true, value: [{ name: 'researcher', args }] };
      return { ok: false, error: { code: 'invalid', message: 'unknown call' } };
    },
    onEvent: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    emit: (e) => {
      for (const l of listeners) l(e);
    },
  };
  return handlers;
}

async function host(opts: { rendererDir?: string } = {}) {
  const base = await tempDir();
  const rendererDir = opts.rendererDir ?? join(base, 'renderer');
  await mkdir(join(rendererDir, 'assets'), { recursive: true });
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Teamdeck</title><script type="module" src="/assets/app.js"></script>');
  await writeFile(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(base, 'secret.txt'), 'TOP SECRET');
  const handlers = fakeHandlers();
  const h = await startHost({ handlers, port: 0, host: '127.0.0.1', rendererDir });
  running.push(h);
  return { h, handlers, base, rendererDir, q: `token=${h.token}` };
}

describe('startHost', () => {
  it('binds 127.0.0.1 only, on a free port, and prints a URL with a 32-byte token', async () => {
    const { h } = await host();
    expect(h.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(h.token, 'base64url')).toHaveLength(32);
    expect(h.port).toBeGreaterThan(0);
    expect(h.address).toBe('127.0.0.1');
    // Not reachable on any other interface of this machine.
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i && i.family === 'IPv4' && !i.internal)
      .map((i) => i!.address);
    for (const ip of others) {
      await expect(
        new Promise((resolve, reject) => {
          const s = connect({ host: ip, port: h.port }, () => resolve('connected'));
          s.on('error', (e: NodeJS.ErrnoException) => reject(e));
          s.setTimeout(2_000, () => reject(new Error('timeout')));
        }),
      ).rejects.toThrow();
    }
    await expect(startHost({ handlers: fakeHandlers(), rendererDir: '/x', host: '0.0.0.0' as '127.0.0.1' })).rejects.toThrow(/127\.0\.0\.1/);
  });

  it('refuses every request without the token, with a bad token, a bad Host or a bad Origin', async () => {
    const { h, q } = await host();
    // The app's own address says how to get in (issue 28, item 11), without the token; anything else is a bare refusal.
    for (const path of ['/', '/index.html', '/?token=' + 'A'.repeat(43), `/?token=${h.token}x`]) {
      const r = await get(h.port, path);
      expect(r.status, path).toBe(401);
      expect(r.body, path).toContain("Teamdeck needs the link with this run's access token.");
      expect(r.body, path).toContain(`http://127.0.0.1:${h.port}/?token=…`);
      expect(r.body, path).not.toContain(h.token);
    }
    expect((await get(h.port, '/assets/app.js')).status).toBe(403);
    expect((await get(h.port, '/nope')).status).toBe(403);
    expect((await get(h.port, `/?${q}`, { host: `evil.example:${h.port}` })).status).toBe(403);
    expect((await get(h.port, `/?${q}`, { host: '127.0.0.1' })).status).toBe(403);
    expect((await get(h.port, `/?${q}`, { host: `127.0.0.1:${h.port + 1}` })).status).toBe(403);
    expect((await get(h.port, `/?${q}`, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await get(h.port, `/?${q}`, { origin: `http://127.0.0.1:${h.port + 1}` })).status).toBe(403);
    expect((await get(h.port, `/?${q}`, { origin: 'null' })).status).toBe(403);
    expect((await get(h.port, `/?${q}`, { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' })).status).toBe(403);
    expect((await get(h.port, `/?${q}`, { host: `localhost:${h.port}`, origin: `http://localhost:${h.port}` })).status).toBe(200);
  });

  it('serves the renderer with the security headers and an HttpOnly SameSite=Strict cookie for assets', async () => {
    const { h, q } = await host();
    const page = await get(h.port, `/?${q}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Teamdeck</title>');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const cookie = String(page.headers['set-cookie']);
    expect(cookie).toContain(`teamdeck_${h.port}=${h.token}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const asset = await get(h.port, '/assets/app.js', { cookie: `other=1; teamdeck_${h.port}=${h.token}` });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/^text\/javascript/);
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
    expect(asset.headers['set-cookie']).toBeUndefined();
    expect((await get(h.port, '/assets/app.js', { cookie: `teamdeck_${h.port}=wrong` })).status).toBe(403);
    // Refusals carry the headers too.
    expect((await get(h.port, '/')).headers['x-frame-options']).toBe('DENY');
  });

  it('sends a file whole and exact, in one write or, past 2 MB, streamed; HEAD gives the length alone', async () => {
    const { h, rendererDir } = await host();
    const cookie = { cookie: `teamdeck_${h.port}=${h.token}` };
    const small = 'a'.repeat(300_000);
    const big = 'b'.repeat(3 * 1024 * 1024 - 7) + 'ending';
    await writeFile(join(rendererDir, 'assets', 'small.js'), small);
    await writeFile(join(rendererDir, 'assets', 'big.js'), big);
    for (const [name, text] of [['small.js', small], ['big.js', big]] as const) {
      const r = await get(h.port, `/assets/${name}`, cookie);
      expect(r.status).toBe(200);
      expect(r.headers['content-length']).toBe(String(text.length));
      expect(r.body === text).toBe(true);
      const head = await get(h.port, `/assets/${name}`, cookie, 'HEAD');
      expect([head.status, head.headers['content-length'], head.body]).toEqual([200, String(text.length), '']);
    }
  });

  it('lists no folders and refuses traversal, dotfiles and symlinks out of the renderer', async () => {
    const { h, q, base, rendererDir } = await host();
    await symlink(join(base, 'secret.txt'), join(rendererDir, 'link.txt'));
    await writeFile(join(rendererDir, '.env'), 'X=1');
    for (const p of [
      '/assets/',
      '/assets',
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e%5csecret.txt',
      '/link.txt',
      '/.env',
      '/index.html%00.js',
      '/%E0%A4%A',
    ]) {
      const r = await get(h.port, `${p}?${q}`);
      expect(r.status, p).toBe(404);
      expect(r.body, p).not.toContain('TOP SECRET');
    }
    const abs = await get(h.port, `http://127.0.0.1:${h.port}/secret.txt?${q}`);
    expect(abs.status).toBe(400);
    expect((await get(h.port, `/?${q}`, {}, 'POST')).status).toBe(405);
  });

  it('says the renderer is not built instead of failing', async () => {
    const base = await tempDir();
    const h = await startHost({ handlers: fakeHandlers(), rendererDir: join(base, 'missing') });
    running.push(h);
    const r = await get(h.port, `/?token=${h.token}`);
    expect(r.status).toBe(503);
    expect(r.body).toMatch(/npm run build/);
  });
});

function openWs(h: RunningHost, opts: { token?: string; origin?: string; path?: string; headers?: Record<string, string> } = {}): Promise<WebSocket> {
  const url = `ws://127.0.0.1:${h.port}${opts.path ?? '/ws'}${opts.token === undefined ? `?token=${h.token}` : opts.token ? `?token=${opts.token}` : ''}`;
  const ws = new WebSocket(url, { origin: opts.origin, headers: opts.headers });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`status ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

describe('WebSocket', () => {
  it('refuses upgrades without the token, with a foreign Origin or Host, or on another path', async () => {
    const { h } = await host();
    await expect(openWs(h, { token: '' })).rejects.toThrow(/403/);
    await expect(openWs(h, { token: 'nope' })).rejects.toThrow(/403/);
    await expect(openWs(h, { origin: 'http://evil.example' })).rejects.toThrow(/403/);
    await expect(openWs(h, { origin: `http://localhost:${h.port + 1}` })).rejects.toThrow(/403/);
    await expect(openWs(h, { headers: { host: `rebind.example:${h.port}` } })).rejects.toThrow(/403/);
    await expect(openWs(h, { path: '/other' })).rejects.toThrow(/404/);
    const ok = await openWs(h, { origin: `http://127.0.0.1:${h.port}` });
    ok.close();
    const viaCookie = await openWs(h, { token: '', origin: `http://localhost:${h.port}`, headers: { cookie: `teamdeck_${h.port}=${h.token}` } });
    viaCookie.close();
  });

  it('answers a call by id, with the arguments passed through for validation, and pushes events', async () => {
    const { h, handlers } = await host();
    const ws = await openWs(h);
    const messages: unknown[] = [];
    const next = () => new Promise<unknown>((r) => ws.once('message', (d) => r(JSON.parse(String(d)))));
    let p = next();
    ws.send(JSON.stringify({ t: 'call', id: 7, name: 'getRoster', args: ['demo'] }));
    messages.push(await p);
    expect(messages[0]).toEqual({ t: 'result', id: 7, result: { ok: true, value: [{ name: 'researcher', args: ['demo'] }] } });
    expect(handlers.calls).toEqual([{ name: 'getRoster', args: ['demo'] }]);
    p = next();
    handlers.emit({ type: 'queued-count', count: 3 });
    expect(await p).toEqual({ t: 'event', event: { type: 'queued-count', count: 3 } });
    ws.close();
  });

  it('serves every call in the table, its arguments valid after the JSON trip and answered by id', async () => {
    const base = await tempDir();
    const h = await startHost({
      port: 0,
      rendererDir: join(base, 'renderer'),
      handlers: {
        dispatch: async (name, args) => {
          const v = validateCall(name, args);
          return v.ok ? { ok: true, value: { name: v.name, args: v.args } } : { ok: false, error: v.error };
        },
        onEvent: () => () => {},
      },
    });
    running.push(h);
    const ws = await openWs(h);
    const answers = new Map<number, unknown>();
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as { id: number; result: unknown };
      answers.set(m.id, m.result);
    });
    CALL_NAMES.forEach((name, id) => ws.send(JSON.stringify({ t: 'call', id, name, args: sampleArgs(CALLS[name].args) })));
    await vi.waitFor(() => expect(answers.size).toBe(CALL_NAMES.length));
    CALL_NAMES.forEach((name, id) => expect(answers.get(id), name).toEqual({ ok: true, value: { name, args: sampleArgs(CALLS[name].args) } }));
    ws.close();
  });

  it('closes the connection on a malformed envelope', async () => {
    const { h } = await host();
    const ws = await openWs(h);
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.send(JSON.stringify({ t: 'call', id: 'x', name: 'getRoster', args: [] }));
    expect(await closed).toBe(1008);
  });
});

describe('tokenMatches', () => {
  it('compares in constant time and rejects empty or oversized candidates', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true);
    expect(tokenMatches('abd', 'abc')).toBe(false);
    expect(tokenMatches('', 'abc')).toBe(false);
    expect(tokenMatches(undefined, 'abc')).toBe(false);
    expect(tokenMatches('a'.repeat(10_000), 'abc')).toBe(false);
  });
});

/** A raw request line and headers on a plain socket, for what http.request will not send (no Host). */
function rawStatus(port: number, head: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port }, () => s.write(head));
    let data = '';
    s.setEncoding('utf8');
    s.on('data', (d: string) => (data += d));
    s.on('end', () => resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(data)?.[1] ?? 0)));
    s.on('error', reject);
    s.setTimeout(5_000, () => reject(new Error('timeout')));
  });
}

/** The CSP as a map from directive to its sources. */
function directives(csp: string): Map<string, string[]> {
  return new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name!, sources]));
}

describe('host hardening', () => {
  it('listens on IPv4 loopback only: not on ::1 either', async () => {
    const { h } = await host();
    await expect(
      new Promise((resolve, reject) => {
        const s = connect({ host: '::1', port: h.port }, () => {
          s.destroy();
          resolve('connected');
        });
        s.on('error', reject);
        s.setTimeout(2_000, () => reject(new Error('timeout')));
      }),
    ).rejects.toThrow();
  });

  it('needs the token for every method and path, from the query or its own cookie only', async () => {
    // 401 is the app's own address saying how to get in; either way nothing of the app is served.
    const { h } = await host();
    const near = [h.token.slice(0, -1), `${h.token.slice(0, -1)}${h.token.endsWith('A') ? 'B' : 'A'}`, h.token.toUpperCase() === h.token ? h.token.toLowerCase() : h.token.toUpperCase(), ` ${h.token}`];
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']) {
      for (const path of ['/', '/index.html', '/assets/app.js', '/assets/', '/ws', '/nope', '/%2e%2e/secret.txt']) {
        expect((await get(h.port, path, {}, method)).status, `${method} ${path}`).toBeOneOf(REFUSED);
      }
    }
    for (const t of near) expect((await get(h.port, `/?token=${encodeURIComponent(t)}`)).status, t).toBeOneOf(REFUSED);
    // Not from other places a token might be looked for.
    expect((await get(h.port, `/${h.token}`)).status).toBeOneOf(REFUSED);
    expect((await get(h.port, '/', { authorization: `Bearer ${h.token}` })).status).toBeOneOf(REFUSED);
    expect((await get(h.port, '/', { 'x-teamdeck-token': h.token })).status).toBeOneOf(REFUSED);
    expect((await get(h.port, '/', { cookie: `teamdeck_${h.port + 1}=${h.token}` })).status).toBeOneOf(REFUSED);
    expect((await get(h.port, '/', { cookie: `token=${h.token}` })).status).toBeOneOf(REFUSED);
    expect((await get(h.port, `/?Token=${h.token}`)).status).toBeOneOf(REFUSED);
    // Without a Host header (HTTP/1.0) nothing is served either, token or not.
    expect(await rawStatus(h.port, `GET /?token=${h.token} HTTP/1.0\r\n\r\n`)).toBeOneOf(REFUSED);
  });

  it('compares tokens in constant time: every check runs timingSafeEqual on equal-length digests', async () => {
    const { h } = await host();
    const spy = vi.mocked(timingSafeEqual);
    spy.mockClear();
    for (const candidate of ['x', h.token.slice(0, 10), 'y'.repeat(200), h.token]) tokenMatches(candidate, h.token);
    expect(spy).toHaveBeenCalledTimes(4);
    for (const [a, b] of spy.mock.calls) {
      expect((a as Buffer).length).toBe(32);
      expect((b as Buffer).length).toBe(32);
    }
    spy.mockClear();
    expect((await get(h.port, '/?token=short')).status).toBeOneOf(REFUSED);
    expect((await get(h.port, `/?token=${h.token}`)).status).toBe(200);
    expect(spy.mock.calls.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses DNS-rebinding Hosts and foreign Origins over HTTP and the WebSocket', async () => {
    const { h, q } = await host();
    const hosts = [
      `evil.com:${h.port}`,
      'evil.com',
      `127.0.0.1.evil.com:${h.port}`,
      `localhost.evil.com:${h.port}`,
      `127.0.0.1.:${h.port}`,
      `localhost.:${h.port}`,
      `[::1]:${h.port}`,
      `0.0.0.0:${h.port}`,
      `127.0.0.2:${h.port}`,
      `127.1:${h.port}`,
      `2130706433:${h.port}`,
      `127.0.0.1:${h.port}@evil.com`,
      `127.0.0.1:0${h.port}`,
      '',
    ];
    for (const host of hosts) {
      expect((await get(h.port, `/?${q}`, { host })).status, `Host ${host}`).toBe(403);
      // (An empty Host is replaced by the client library; the raw request above covers a missing one.)
      if (host) await expect(openWs(h, { headers: { host } }), `WebSocket Host ${host}`).rejects.toThrow(/403/);
    }
    const origins = [
      'http://evil.com',
      `http://evil.com:${h.port}`,
      `http://127.0.0.1:${h.port}.evil.com`,
      `https://127.0.0.1:${h.port}`,
      `ws://127.0.0.1:${h.port}`,
      `http://[::1]:${h.port}`,
      `file://`,
      'null',
    ];
    for (const origin of origins) {
      expect((await get(h.port, `/?${q}`, { origin })).status, `Origin ${origin}`).toBe(403);
      await expect(openWs(h, { origin }), `WebSocket Origin ${origin}`).rejects.toThrow(/403/);
    }
  });

  it('lists no folder, even one that exists and has files', async () => {
    const { h, q } = await host();
    for (const p of ['/assets', '/assets/', '/assets//', '/./assets/', '/assets/.']) {
      const r = await get(h.port, `${p}?${q}`);
      expect(r.status, p).toBe(404);
      expect(r.body, p).not.toContain('app.js');
    }
  });

  it('sends the exact CSP, nosniff and no-framing headers on every answer', async () => {
    const { h, q } = await host();
    const base = await tempDir();
    const unbuilt = await startHost({ handlers: fakeHandlers(), rendererDir: join(base, 'missing') });
    running.push(unbuilt);
    const answers = [
      ['page', await get(h.port, `/?${q}`), h.port],
      ['asset', await get(h.port, `/assets/app.js?${q}`), h.port],
      ['head', await get(h.port, `/?${q}`, {}, 'HEAD'), h.port],
      ['refused', await get(h.port, '/'), h.port],
      ['not found', await get(h.port, `/nope?${q}`), h.port],
      ['method', await get(h.port, `/?${q}`, {}, 'POST'), h.port],
      ['not built', await get(unbuilt.port, `/?token=${unbuilt.token}`), unbuilt.port],
    ] as const;
    for (const [what, r, port] of answers) {
      expect(r.headers['content-security-policy'], what).toBe(hostContentSecurityPolicy(port));
      expect(r.headers['x-content-type-options'], what).toBe('nosniff');
      expect(r.headers['x-frame-options'], what).toBe('DENY');
    }
    const csp = directives(hostContentSecurityPolicy(h.port));
    expect([...csp.keys()].sort()).toEqual(['base-uri', 'connect-src', 'default-src', 'font-src', 'form-action', 'frame-ancestors', 'img-src', 'object-src', 'script-src', 'style-src']);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('style-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('form-action')).toEqual(["'none'"]);
    expect(csp.get('connect-src')).toEqual(["'self'", `ws://127.0.0.1:${h.port}`, `ws://localhost:${h.port}`]);
    expect(hostContentSecurityPolicy(h.port)).not.toMatch(/unsafe-|\*|https?:|blob:|wss:/);
  });
});

describe("the page's start-up data", () => {
  const PAGE = '<!doctype html><html><head><script type="module" crossorigin src="./assets/app.js"></script><link rel="icon" href="data:,"><link rel="stylesheet" crossorigin href="./assets/app.css"></head><body><div id="root"></div></body></html>';
  const EVIL = '</script><script>alert(1)</script><!--';

  /** Handlers whose snapshot lists one team, whose roster names a member EVIL, and whose answers the test may hold. */
  function bootHandlers(hold: { snapshot?: Promise<void>; prepare?: Promise<void> } = {}) {
    const h = fakeHandlers();
    h.dispatch = async (name, args) => {
      h.calls.push({ name, args });
      if (name === 'getSnapshot') {
        await hold.snapshot;
        return { ok: true, value: { teamsRoot: '/teams', teams: [{ id: 'ended-one', state: 'ended' }, { id: 'alpha', state: 'running' }], now: 1 } };
      }
      if (name === 'getRoster') return { ok: true, value: [{ name: EVIL }] };
      return { ok: false, error: { code: 'invalid', message: 'unknown call' } };
    };
    h.prepare = async (team) => {
      h.calls.push({ name: 'prepare', args: [team] });
      await hold.prepare;
    };
    return h;
  }

  async function bootHost(handlers: HostHandlers, opts: { bootWaitMs?: number } = {}) {
    const rendererDir = join(await tempDir(), 'renderer');
    await mkdir(join(rendererDir, 'assets'), { recursive: true });
    await writeFile(join(rendererDir, 'index.html'), PAGE);
    await writeFile(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
    await writeFile(join(rendererDir, 'assets', 'app.css'), 'body{}');
    const h = await startHost({ handlers, rendererDir, ...opts });
    running.push(h);
    return h;
  }

  /** The page's head as soon as it comes, and the whole page once it ends. */
  function page(port: number, path: string): Promise<{ head: string; whole: Promise<string> }> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}` }, setHost: false }, (res) => {
        let body = '';
        let sent = false;
        res.setEncoding('utf8');
        const whole = new Promise<string>((done) => res.on('end', () => done(body)));
        res.on('data', (c: string) => {
          body += c;
          if (!sent) resolve({ head: body, whole });
          sent = true;
        });
      });
      req.on('error', reject);
      req.end();
    });
  }

  /** A socket naming the boot, with every frame it gets from the first one on. */
  async function bootSocket(h: RunningHost, id: string): Promise<{ ws: WebSocket; frames: unknown[] }> {
    const ws = new WebSocket(`ws://127.0.0.1:${h.port}/ws?boot=${id}&token=${h.token}`);
    const frames: unknown[] = [];
    ws.on('message', (d) => frames.push(JSON.parse(String(d))));
    await new Promise((r, j) => {
      ws.once('open', r);
      ws.once('error', j);
    });
    return { ws, frames };
  }

  const settle = () => new Promise((r) => setTimeout(r, 50));

  function bootOf(html: string): { id: string; snapshot: { teams: unknown[] }; roster?: { team: string; entries: { name: string }[] } } | undefined {
    const m = /<script type="application\/json" id="teamdeck-boot">(.*?)<\/script><\/body>/s.exec(html);
    return m ? JSON.parse(m[1]!) : undefined;
  }

  it('sends the head at once, and the snapshot and first roster as inert JSON before </body>, the roster asked once the page has its files', async () => {
    // The team is still being read when the page asks.
    const handlers = bootHandlers({ prepare: new Promise(() => {}) });
    const h = await bootHost(handlers);
    const q = `token=${h.token}`;
    const { head, whole } = await page(h.port, `/?${q}`);
    expect(head).toContain('<script type="module" crossorigin src="./assets/app.js">');
    await new Promise((r) => setTimeout(r, 50));
    // The first team is read ahead at once; its roster (which starts the engine's background
    // work) waits for the page's own files.
    expect(handlers.calls).toEqual([
      { name: 'getSnapshot', args: [] },
      { name: 'prepare', args: ['alpha'] },
    ]);
    expect((await get(h.port, `/assets/app.js?${q}`)).status).toBe(200);
    expect((await get(h.port, `/assets/app.css?${q}`)).status).toBe(200);
    const html = await whole;
    expect(handlers.calls).toEqual([
      { name: 'getSnapshot', args: [] },
      { name: 'prepare', args: ['alpha'] },
      { name: 'getRoster', args: ['alpha'] },
    ]);
    // Nothing in the data can end the element: the member's name stays text.
    expect(html).not.toContain(EVIL);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    const boot = bootOf(html)!;
    expect(boot.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(boot.snapshot.teams).toHaveLength(2);
    expect(boot.roster).toEqual({ team: 'alpha', entries: [{ name: EVIL }] });
    expect(html.endsWith('</body></html>')).toBe(true);
  });

  it('gives the roster of a team read before the page came (primed) at once, not after the page has its files', async () => {
    const handlers = bootHandlers();
    // A page that waited for its files (which it never fetches here) would go without its roster:
    // its start-up data waits less than BOOT_ASSETS_MS.
    const h = await bootHost(handlers, { bootWaitMs: BOOT_ASSETS_MS - 50 });
    await h.primeFirstPage(5_000);
    expect(handlers.calls).toEqual([
      { name: 'getSnapshot', args: [] },
      { name: 'prepare', args: ['alpha'] },
    ]);
    const { whole } = await page(h.port, `/?token=${h.token}`);
    expect(bootOf(await whole)?.roster?.team).toBe('alpha');
    expect(handlers.calls.map((c) => c.name)).toEqual(['getSnapshot', 'prepare', 'getSnapshot', 'prepare', 'getRoster']);
  });

  it('gives up priming after its time, a team still being read', async () => {
    const handlers = bootHandlers({ prepare: new Promise(() => {}) });
    const h = await bootHost(handlers);
    const t0 = performance.now();
    await h.primeFirstPage(100);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(95);
    expect(handlers.calls.map((c) => c.name)).toEqual(['getSnapshot', 'prepare']);
  });

  it('asks for the roster anyway when the page never fetches its files', async () => {
    const handlers = bootHandlers({ prepare: new Promise(() => {}) });
    // (Unlike a primed team's: with less time than BOOT_ASSETS_MS this page goes without.)
    const without = await bootHost(bootHandlers({ prepare: new Promise(() => {}) }), { bootWaitMs: BOOT_ASSETS_MS - 50 });
    expect(bootOf(await (await page(without.port, `/?token=${without.token}`)).whole)?.roster).toBeUndefined();
    const h = await bootHost(handlers);
    const { whole } = await page(h.port, `/?token=${h.token}`);
    expect(bootOf(await whole)?.roster?.team).toBe('alpha');
  });

  it('waits seconds for a slow first roster rather than send the page without it (asked over the socket, it would come later still)', async () => {
    const handlers = bootHandlers();
    const answer = handlers.dispatch;
    handlers.dispatch = async (name, args) => {
      if (name === 'getRoster') await new Promise((r) => setTimeout(r, 1_200));
      return answer(name, args);
    };
    const h = await bootHost(handlers);
    const { whole } = await page(h.port, `/?token=${h.token}`);
    expect(bootOf(await whole)?.roster?.team).toBe('alpha');
  });

  it('sends the page without the data when the snapshot is late', async () => {
    const handlers = bootHandlers({ snapshot: new Promise(() => {}) });
    const h = await bootHost(handlers, { bootWaitMs: 50 });
    const { whole } = await page(h.port, `/?token=${h.token}`);
    const html = await whole;
    expect(bootOf(html)).toBeUndefined();
    expect(html).toBe(PAGE);
  });

  it('replays the events since the snapshot on the socket that names the boot, first, once, in order; others resync', async () => {
    let release!: () => void;
    const handlers = bootHandlers({ snapshot: new Promise<void>((r) => (release = r)) });
    const h = await bootHost(handlers);
    const { whole } = await page(h.port, `/?token=${h.token}`);
    // Emitted while the snapshot is read: replayed on top of it, as the store does with held events.
    handlers.emit({ type: 'queued-count', count: 1 });
    release();
    const boot = bootOf(await whole)!;
    handlers.emit({ type: 'terminal-output', id: 't1', data: 'x' });
    handlers.emit({ type: 'queued-count', count: 2 });
    const { ws, frames } = await bootSocket(h, boot.id);
    await settle();
    handlers.emit({ type: 'queued-count', count: 3 });
    await settle();
    // The terminal's output is not kept (a pane attaches with the screen as it is); live events follow.
    expect(frames).toEqual([1, 2, 3].map((count) => ({ t: 'event', event: { type: 'queued-count', count } })));
    ws.close();
    // The boot's events went to that socket; the same id again, or one never given, resyncs.
    for (const id of [boot.id, 'unknown']) {
      const again = await bootSocket(h, id);
      await settle();
      expect(again.frames).toEqual([{ t: 'resync' }]);
      again.ws.close();
    }
  });

  it('says resync when more events came than are kept', async () => {
    const handlers = bootHandlers();
    const h = await bootHost(handlers);
    const { whole } = await page(h.port, `/?token=${h.token}`);
    const boot = bootOf(await whole)!;
    for (let i = 0; i <= BOOT_KEEP.events; i++) handlers.emit({ type: 'queued-count', count: i });
    const { ws, frames } = await bootSocket(h, boot.id);
    await settle();
    expect(frames).toEqual([{ t: 'resync' }]);
    ws.close();
  });
});

describe('headAssets', () => {
  it("lists the head's scripts and styles as request paths, not icons, other links or the app's preloaded code", () => {
    expect(
      headAssets(
        '<script type="module" crossorigin src="./assets/index-a1.js"></script><link rel="icon" href="data:,"><link rel="stylesheet" href="/assets/index-b2.css"><link rel="help" href="./help.html"><link rel="modulepreload" crossorigin href="./assets/start-c3.js">',
      ),
    ).toEqual(['/assets/index-a1.js', '/assets/index-b2.css']);
  });
});
