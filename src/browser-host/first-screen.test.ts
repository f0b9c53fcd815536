// The first screen in the browser host's page: rendered by the bundle the build writes (the
// tests' global setup builds it), from the same start-up data the page carries, into #root; a
// renderer that is missing or fails costs the page nothing but the first screen.
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Result, Snapshot } from '../shared/contract.js';
import { useTempDirs } from '../../test/helpers/tmp.js';
import { FIRST_SCREEN_FILE, firstScreenRenderer, type FirstScreenRenderer } from './first-screen.js';
import { startHost, type HostHandlers, type RunningHost } from './server.js';

const tempDir = useTempDirs();
const running: RunningHost[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((h) => h.close()));
});

const PAGE = '<!doctype html><html><head><link rel="stylesheet" href="./assets/app.css"></head><body><div id="root"></div></body></html>';
const EVIL = '</script><script>alert(1)</script><!--';

const SNAPSHOT = {
  teamsRoot: '/teams',
  rootSource: 'default',
  alsoLooked: [],
  watching: true,
  teams: [{ id: 'alpha', name: 'alpha', state: 'running', memberCount: 2, problems: [], era: 'current', sendAs: 'team-lead', leadReadsInbox: true, createdAt: 1, description: 'Ship it' }],
  terminals: [],
  launch: { available: false, reason: 'not here' },
  problems: [],
  settings: { teamsDir: '', idleMinutes: 5, notifications: true, senderName: 'teamdeck', needsNotifications: true, claudePath: '', answerFromTeamdeck: true },
  queuedCount: 0,
  now: Date.UTC(2026, 1, 9, 16),
  canStartDemo: false,
  // Typed as the contract's snapshot: a setting (or any field) added to it and missing here fails typecheck.
} satisfies Snapshot;
const ROSTER = [
  { name: 'team-lead', inboxName: 'team-lead', isLead: true, inConfig: true, state: 'idle', lastEventAt: SNAPSHOT.now - 60_000 },
  { name: EVIL, inboxName: 'x', isLead: false, inConfig: true, state: 'active', lastEventAt: SNAPSHOT.now - 5_000 },
];

const handlers: HostHandlers = {
  dispatch: async (name): Promise<Result<unknown>> => {
    if (name === 'getSnapshot') return { ok: true, value: SNAPSHOT };
    if (name === 'getRoster') return { ok: true, value: ROSTER };
    return { ok: false, error: { code: 'invalid', message: 'unknown call' } };
  },
  onEvent: () => () => {},
};

async function pageWith(firstScreen: FirstScreenRenderer | undefined): Promise<string> {
  const rendererDir = join(await tempDir(), 'renderer');
  await mkdir(join(rendererDir, 'assets'), { recursive: true });
  await writeFile(join(rendererDir, 'index.html'), PAGE);
  await writeFile(join(rendererDir, 'assets', 'app.css'), 'body{}');
  const h = await startHost({ handlers, rendererDir, ...(firstScreen ? { firstScreen } : {}) });
  running.push(h);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: h.port, path: `/?token=${h.token}`, headers: { host: `127.0.0.1:${h.port}` }, setHost: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
}

/** What is inside #root, and the start-up data after it. */
function parts(html: string): { root: string; boot: { roster?: { entries: { name: string }[] } } } {
  const m = /<div id="root">(.*)<\/div><script type="application\/json" id="teamdeck-boot">(.*?)<\/script><\/body><\/html>$/s.exec(html);
  if (!m) throw new Error(`not the page's shape: ${html.slice(0, 300)}`);
  return { root: m[1]!, boot: JSON.parse(m[2]!) };
}

describe("the page's first screen", () => {
  it('is the roster of the start-up data, rendered into #root before the data, inert, its texts escaped', async () => {
    const logged: string[] = [];
    const html = await pageWith(firstScreenRenderer({ log: (m, e) => logged.push(`${m}: ${(e as Error).message}`) }));
    const { root, boot } = parts(html);
    expect(boot.roster?.entries.map((e) => e.name)).toEqual(['team-lead', EVIL]);
    expect(root).toMatch(/^<div data-testid="app" data-phase="first-screen" inert=""/);
    expect(root).toContain('data-testid="member-team-lead" data-selected="true"');
    expect(root).toContain('Ship it');
    // The hostile name is text: one script element in the page (the data), no markup from it.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(root).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!--');
    expect(logged).toEqual([]);
  });

  it('without a renderer, or with one that fails, the page goes with an empty #root and its data; a failure is logged', async () => {
    expect(parts(await pageWith(undefined)).root).toBe('');
    const missing: string[] = [];
    expect(parts(await pageWith(firstScreenRenderer({ file: join(await tempDir(), 'none.cjs'), log: (m) => missing.push(m) }))).root).toBe('');
    expect(missing).toEqual([]);

    const broken = join(await tempDir(), 'broken.cjs');
    await writeFile(broken, "exports.warmFirstScreen = () => {}; exports.renderFirstScreen = () => { throw new Error('boom'); };");
    const logged: { m: string; e: unknown }[] = [];
    const { root, boot } = parts(await pageWith(firstScreenRenderer({ file: broken, log: (m, e) => logged.push({ m, e }) })));
    expect(root).toBe('');
    expect(boot.roster?.entries).toHaveLength(2);
    // The warm-up render and the page's own: both failed, both said so.
    expect(logged.map((l) => (l.e as Error).message)).toEqual(['boom', 'boom']);

    const notOne = join(await tempDir(), 'other.cjs');
    await writeFile(notOne, 'exports.something = 1;');
    const said: string[] = [];
    const r = firstScreenRenderer({ file: notOne, log: (m, e) => said.push(`${m}: ${(e as Error).message}`) });
    expect(parts(await pageWith(r)).root).toBe('');
    expect(said).toEqual([`cannot load the first screen; pages go without it: ${notOne} is not the first screen's renderer`]);
  });

  it('warms up with a throwaway render for the first page only', async () => {
    const counting = join(await tempDir(), 'counting.cjs');
    await writeFile(counting, "let n = 0; exports.warmFirstScreen = () => {}; exports.renderFirstScreen = (boot) => `<p>render ${++n} ${boot.roster ? 'with' : 'without'} roster</p>`;");
    const r = firstScreenRenderer({ file: counting });
    // The first page: the warm-up (no roster) was render 1, the page's own render 2.
    expect(parts(await pageWith(r)).root).toBe('<p>render 2 with roster</p>');
    // The next page: its own render only.
    expect(parts(await pageWith(r)).root).toBe('<p>render 3 with roster</p>');
  });

  it('is built next to the CLI bundle (out/cli/first-screen.cjs), and renders the roster', async () => {
    expect(existsSync(FIRST_SCREEN_FILE)).toBe(true);
    const r = firstScreenRenderer();
    r.warm();
    expect(r.render({ id: 'x', snapshot: SNAPSHOT as never, roster: { team: 'alpha', entries: ROSTER as never } })).toContain('data-testid="member-team-lead"');
  });
});
