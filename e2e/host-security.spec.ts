// The browser host as a browser meets it: no token, no page; the token leaves the address bar.
import { test, expect } from './fixtures.js';

test('without the token the host serves nothing; with it the token is moved out of the URL', async ({ page, deck }) => {
  const { url, port } = await deck.start();
  const bare = await page.goto(`http://127.0.0.1:${port}/`);
  expect(bare?.status()).toBe(403);
  const wrong = await page.goto(`http://127.0.0.1:${port}/?token=nope`);
  expect(wrong?.status()).toBe(403);

  const ok = await page.goto(url);
  expect(ok?.status()).toBe(200);
  expect(ok?.headers()['content-security-policy']).toContain("default-src 'none'");
  await expect(page.getByTestId('app')).toHaveAttribute('data-phase', 'ready');
  expect(page.url()).not.toContain('token=');
  // A reload works from the HttpOnly cookie, which the page cannot read.
  await page.reload();
  await expect(page.getByTestId('app')).toHaveAttribute('data-phase', 'ready');
  expect(await page.evaluate('document.cookie')).toBe('');
});
