// The browser host as a browser meets it: no token, no page; the token leaves the address bar.
import { test, expect } from './fixtures.js';

test('without the token the host serves nothing; with it the token is moved out of the URL', async ({ page, deck }) => {
  const { url, port } = await deck.start();
  // The app's own address without this run's token: refused, with how to get in (no app, no token).
  for (const address of [`http://127.0.0.1:${port}/`, `http://127.0.0.1:${port}/?token=nope`]) {
    const r = await page.goto(address);
    expect(r?.status(), address).toBe(401);
    await expect(page.locator('body')).toContainText("Teamdeck needs the link with this run's access token.");
    await expect(page.getByTestId('app')).toHaveCount(0);
  }
  expect((await page.goto(`http://127.0.0.1:${port}/assets/nope.js`))?.status()).toBe(403);

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
