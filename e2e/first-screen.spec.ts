// The browser host's first screen: the roster is in the page's own markup and its style in the
// page's head, so it shows before the page's script has run (here, with no script at all), and
// the live app then takes its place.
import { createHash } from 'node:crypto';
import { test, expect, iso } from './fixtures.js';

test('the roster paints from the page alone, inert, and the live app replaces it', async ({ browser, page, deck }) => {
  const now = Date.now();
  await deck.createTeam('alpha', ['researcher', 'implementer'], { now: () => now - 3_600_000 });
  await deck.append('alpha', 'user', { from: 'researcher', text: 'Found the bug in auth.ts', timestamp: iso(now - 30_000), read: false, color: 'blue' });
  const { url } = await deck.start();

  // No JavaScript: what the page's HTML and style draw on their own.
  const still = await browser.newContext({ javaScriptEnabled: false });
  try {
    const p = await still.newPage();
    await p.goto(url);
    const app = p.getByTestId('app');
    await expect(app).toHaveAttribute('data-phase', 'first-screen');
    await expect(app).toHaveAttribute('inert', '');
    await expect(p.getByTestId('member-researcher')).toBeVisible();
    await expect(p.getByTestId('member-team-lead')).toHaveAttribute('aria-current', 'page');
    await expect(p.getByTestId('dot-researcher')).toHaveAttribute('data-state', 'active');
    // Laid out by the stylesheet: the sidebar beside the main area, the dot its 8 px.
    const dot = await p.getByTestId('dot-researcher').boundingBox();
    expect(dot?.width).toBe(8);
    const side = await p.locator('aside').boundingBox();
    expect(side?.width).toBe(256);
  } finally {
    await still.close();
  }

  // With the script: the page still comes with the first screen, and the live app replaces it:
  // one app root, the live one, which answers clicks.
  const answer = await page.request.get(url);
  const html = await answer.text();
  expect(html).toMatch(/<div id="root"><div data-testid="app" data-phase="first-screen" inert=""[^]*data-testid="member-researcher"/);
  // Its style is in its head, allowed by its hash and nothing wider, in the header's policy and the page's own.
  expect(html).not.toMatch(/rel="stylesheet"/);
  const css = /<style>([^]*?)<\/style>/.exec(html)?.[1] ?? '';
  expect(css.length).toBeGreaterThan(1_000);
  const hash = `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`;
  expect(/style-src ([^;]*)/.exec(answer.headers()['content-security-policy'] ?? '')?.[1]).toBe(`'self' ${hash}`);
  expect(/<meta\s+http-equiv="Content-Security-Policy"[^>]*style-src ([^;"]*)/.exec(html)?.[1]).toBe(`'self' ${hash}`);
  await deck.open(page);
  await expect(page.getByTestId('app')).toHaveCount(1);
  await expect(page.getByTestId('app')).not.toHaveAttribute('inert', /.*/);
  await page.getByTestId('member-researcher').click();
  await expect(page.getByTestId('thread')).toContainText('Found the bug in auth.ts');
  expect(deck.pageProblems).toEqual([]);
});

test("a page whose script cannot load the app's code says so instead of showing the first screen", async ({ page, deck }) => {
  await deck.createTeam('alpha', ['researcher']);
  const { url } = await deck.start();
  await page.route('**/assets/start-*.js', (route) => route.abort());
  await page.goto(url);
  await expect(page.getByText(/Teamdeck could not start this page/)).toBeVisible();
  await expect(page.getByTestId('app')).toHaveCount(0);
});
