// The built renderer under its own Content-Security-Policy (the meta tag in index.html, which
// is the main process's policy minus frame-ancestors, with the browser host's inlined style
// allowed by its hash) and the browser host's header policy:
// it starts, talks to the host over its WebSocket, renders and scrolls a long virtualized
// thread, a markdown message, the feed and the jump palette, and not one CSP violation is
// reported (securitypolicyviolation events are recorded from before the page's first script).
import { createHash } from 'node:crypto';
import { test, expect, iso } from './fixtures.js';

const META_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; object-src 'none'";

test('the renderer runs under the strict CSP with no violations', async ({ page, deck }) => {
  // (Page code as strings: this project's e2e files are typed without the DOM library.)
  await page.addInitScript(
    "window.__cspViolations = []; document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber));",
  );
  const now = Date.now();
  await deck.createTeam('alpha', ['researcher', 'implementer'], { now: () => now - 3_600_000 });
  // A thread long enough to be virtualized, with markdown in it.
  for (let i = 0; i < 150; i++) {
    await deck.append('alpha', 'user', {
      from: 'researcher',
      text: i % 10 === 0 ? `**Step ${i}**: see \`auth.ts\`\n\n- one\n- two\n\n[docs](https://example.com/docs)` : `Progress note ${i}: still working through the list.`,
      timestamp: iso(now - (150 - i) * 1_000),
      read: false,
      color: 'blue',
    });
  }

  await deck.open(page);
  // The browser host's page has its stylesheet inline: the policy allows that one text by its hash.
  const css = (await page.evaluate("[...document.querySelectorAll('style')].map((s) => s.textContent)")) as string[];
  expect(css).toHaveLength(1);
  const hash = `'sha256-${createHash('sha256').update(css[0]!, 'utf8').digest('base64')}'`;
  expect(await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toBe(META_CSP.replace("style-src 'self'", `style-src 'self' ${hash}`));
  await page.getByTestId('member-researcher').click();
  const thread = page.getByTestId('thread');
  await expect(thread).toContainText('Progress note 149');
  // Scroll through the virtualized list so rows mount and unmount (react-virtuoso sets sizes and offsets as styles).
  for (let i = 0; i < 6; i++) {
    await thread.hover();
    await page.mouse.wheel(0, -4_000);
  }
  await expect(thread).toContainText('Step 0');
  // The stylesheet applied (its hash let it in): the app is laid out, not unstyled.
  await expect(page.getByTestId('app')).not.toHaveCSS('display', 'inline');
  // The rest of the UI: a send over the WebSocket, the palette.
  await page.getByTestId('compose').fill('Looks good, thanks.');
  await page.getByTestId('send').click();
  await expect(page.locator('[data-testid^="msg-"][data-status]', { hasText: 'Looks good, thanks.' })).toHaveAttribute('data-status', /accepted|read|replied/);
  await page.keyboard.press('Control+k');
  await page.keyboard.press('Escape');

  expect(await page.evaluate('window.__cspViolations')).toEqual([]);
  expect(deck.pageProblems).toEqual([]);
});
