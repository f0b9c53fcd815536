// What the browser scenarios share: the built renderer, `teamdeck serve` in its own process (as a
// user runs it), a Chromium driven by Playwright, a page-side recorder of when each test id first
// entered the DOM, and the clock offset between this process and the page.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync, accessSync, constants } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser, Page } from '@playwright/test';
import WebSocket from 'ws';

export const REPO = join(import.meta.dirname, '..');

/** Wall-clock milliseconds with sub-millisecond resolution, comparable with the page's. */
export const nowMs = () => performance.timeOrigin + performance.now();
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** Builds the renderer when out/renderer is missing or older than its sources. */
export function ensureRendererBuilt(): void {
  const index = join(REPO, 'out', 'renderer', 'index.html');
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  const sources = Math.max(newest(join(REPO, 'src', 'renderer')), newest(join(REPO, 'src', 'shared')));
  if (built >= sources) return;
  process.stderr.write('  building the renderer...\n');
  execFileSync(process.execPath, [join(REPO, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** TEAMDECK_CHROMIUM, else Playwright's own Chromium when installed, else a Chromium on PATH. */
export async function chromiumPath(): Promise<string | undefined> {
  if (process.env.TEAMDECK_CHROMIUM) return process.env.TEAMDECK_CHROMIUM;
  const { chromium } = await import('@playwright/test');
  try {
    const own = chromium.executablePath();
    if (own && existsSync(own)) return own;
  } catch {
    // no bundled browser
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']) {
      const p = join(dir, name);
      try {
        accessSync(p, constants.X_OK);
        return p;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

export async function launchBrowser(): Promise<Browser> {
  const { chromium } = await import('@playwright/test');
  const executablePath = await chromiumPath();
  if (!executablePath) throw new Error('no Chromium found: set TEAMDECK_CHROMIUM to a Chromium or Chrome binary');
  return chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

export interface Host {
  proc: ChildProcess;
  pid: number;
  url: string;
  port: number;
  token: string;
  /** When the process was spawned, and when it printed its ready line (nowMs clock). */
  spawnedAt: number;
  readyAt: number;
  stop(): Promise<void>;
}

/**
 * `teamdeck serve --json` on these folders, exactly as a user starts it; resolves on its ready line.
 * `repo` is the checkout whose command runs (another build, to compare with).
 */
export async function startHost(teamsDir: string, stateDir: string, extraArgs: string[] = [], repo = REPO): Promise<Host> {
  const env = { ...process.env };
  delete env.TEAMDECK_TEAMS_DIR;
  delete env.TEAMDECK_STATE_DIR;
  delete env.CLAUDE_CONFIG_DIR;
  const spawnedAt = nowMs();
  // BENCH_HOST_NODE_ARGS="--cpu-prof --cpu-prof-dir=prof" profiles the host process.
  const nodeArgs = (process.env.BENCH_HOST_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // The package's bin (package.json), which `teamdeck` and `npx teamdeck` run: bin/teamdeck.mjs,
  // the path scripts use, adds Node's ES module loader (some 20-30 ms) to every start. (An old
  // checkout, to compare with, may have only that one.)
  const bin = existsSync(join(repo, 'bin', 'teamdeck.cjs')) ? 'teamdeck.cjs' : 'teamdeck.mjs';
  const proc = spawn(process.execPath, [...nodeArgs, join(repo, 'bin', bin), 'serve', '--json', '--teams-dir', teamsDir, '--state-dir', stateDir, ...extraArgs], {
    cwd: repo,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const ready = await new Promise<{ url: string; port: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not get ready in 60 s; stderr: ${stderr}`)), 60_000);
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      if (!line.includes('"event":"ready"')) return;
      clearTimeout(timer);
      resolve(JSON.parse(line) as { url: string; port: number });
    });
    void exited.then(() => reject(new Error(`serve exited before it was ready; stderr: ${stderr}`)));
  });
  const readyAt = nowMs();
  return {
    proc,
    pid: proc.pid!,
    url: ready.url,
    port: ready.port,
    token: new URL(ready.url).searchParams.get('token')!,
    spawnedAt,
    readyAt,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}

/** Resident set size of a process in MB, and its peak, from Linux /proc; undefined elsewhere. */
export async function rssMb(pid: number): Promise<{ rss: number; peak: number } | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

/** The contract over the host's WebSocket, from this process: the same calls the page makes. */
export async function hostClient(host: Host): Promise<{ call<T>(name: string, ...args: unknown[]): Promise<T>; close(): void }> {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${encodeURIComponent(host.token)}`, { headers: { Origin: `http://127.0.0.1:${host.port}` } });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let next = 1;
  const waiting = new Map<number, (r: { ok: boolean; value?: unknown; error?: { message: string } }) => void>();
  ws.on('message', (data) => {
    const msg = JSON.parse(String(data)) as { t: string; id?: number; result?: { ok: boolean; value?: unknown; error?: { message: string } } };
    if (msg.t === 'result' && msg.id !== undefined) waiting.get(msg.id)?.(msg.result!);
  });
  return {
    call: <T>(name: string, ...args: unknown[]) =>
      new Promise<T>((resolve, reject) => {
        const id = next++;
        waiting.set(id, (r) => {
          waiting.delete(id);
          if (r.ok) resolve(r.value as T);
          else reject(new Error(r.error?.message ?? 'call failed'));
        });
        ws.send(JSON.stringify({ t: 'call', id, name, args }));
      }),
    close: () => ws.close(),
  };
}

/**
 * Installed before the app's own script: records, in page wall-clock time, when each
 * data-testid first entered the DOM (`dom`) and the end of the frame that painted it (`paint`,
 * a task queued from the next animation frame), when the live app was in the DOM (`live`: its
 * root with data-phase="ready", not the browser host's first screen), and every long task.
 */
export const RECORDER = `(() => {
  const w = window;
  const dom = new Map();
  const paint = new Map();
  const longtasks = [];
  w.__bench = { dom, paint, longtasks, live: undefined };
  const clock = () => performance.timeOrigin + performance.now();
  let fresh = [];
  const see = (el, t) => {
    const id = el.getAttribute('data-testid');
    if (id && !dom.has(id)) { dom.set(id, t); fresh.push(id); }
  };
  const flush = () => {
    if (!fresh.length) return;
    const ids = fresh; fresh = [];
    requestAnimationFrame(() => setTimeout(() => { const t = clock(); for (const id of ids) if (!paint.has(id)) paint.set(id, t); }, 0));
  };
  new MutationObserver((records) => {
    const t = clock();
    for (const r of records) for (const n of r.addedNodes) {
      if (n.nodeType !== 1) continue;
      if (n.hasAttribute('data-testid')) see(n, t);
      for (const el of n.querySelectorAll('[data-testid]')) see(el, t);
    }
    if (w.__bench.live === undefined && document.querySelector('[data-testid="app"][data-phase="ready"]')) w.__bench.live = t;
    flush();
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-phase'] });
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) longtasks.push({ start: performance.timeOrigin + e.startTime, duration: e.duration }); })
      .observe({ type: 'longtask', buffered: true });
  } catch {}
})();`;

export async function newBenchPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(RECORDER);
  const page = await context.newPage();
  page.on('pageerror', (e) => process.stderr.write(`  page error: ${e.message}\n`));
  return page;
}

/** Page clock minus this process's clock, from the round trip with the smallest delay. */
export async function clockOffset(page: Page, tries = 15): Promise<{ offset: number; uncertainty: number }> {
  let best = { offset: 0, uncertainty: Infinity };
  for (let i = 0; i < tries; i++) {
    const a = nowMs();
    const p = await page.evaluate(() => performance.timeOrigin + performance.now());
    const b = nowMs();
    if ((b - a) / 2 < best.uncertainty) best = { offset: p - (a + b) / 2, uncertainty: (b - a) / 2 };
  }
  return best;
}

/** Waits until the page records `testid`; returns its DOM and paint times in this process's clock. */
export async function seenAt(page: Page, testid: string, offset: number, timeoutMs = 15_000): Promise<{ dom: number; paint: number }> {
  const h = await page.waitForFunction(
    (id) => {
      const b = (globalThis as unknown as { __bench: { dom: Map<string, number>; paint: Map<string, number> } }).__bench;
      const p = b.paint.get(id);
      return p === undefined ? false : { dom: b.dom.get(id)!, paint: p };
    },
    testid,
    { timeout: timeoutMs, polling: 'raf' },
  );
  const v = (await h.jsonValue()) as { dom: number; paint: number };
  return { dom: v.dom - offset, paint: v.paint - offset };
}

/** Opens the app and waits for its ready signal. */
export async function openApp(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('[data-testid="app"][data-phase="ready"]', { timeout: 60_000 });
}

/** Waits until the page has had no long task for `quietMs` (loads settled), at most `maxMs`. */
export async function waitQuiet(page: Page, quietMs = 400, maxMs = 20_000): Promise<void> {
  await page.waitForFunction(
    (quiet) => {
      const b = (globalThis as unknown as { __bench: { longtasks: { start: number; duration: number }[] } }).__bench;
      const last = b.longtasks.at(-1);
      const now = performance.timeOrigin + performance.now();
      const w = globalThis as unknown as { __quietSince?: number };
      w.__quietSince ??= now;
      const since = Math.max(w.__quietSince, last ? last.start + last.duration : 0);
      return now - since >= quiet;
    },
    quietMs,
    { timeout: maxMs, polling: 50 },
  );
  await page.evaluate(() => delete (globalThis as unknown as { __quietSince?: number }).__quietSince);
}
