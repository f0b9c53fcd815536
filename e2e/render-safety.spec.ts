// Message text is shown as text (or sanitized markdown), never as HTML, in both directions.
import { test, expect, iso } from './fixtures.js';

const HTML = '<img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script> <b>bold?</b>';

test('HTML in messages renders as text: no img, no script, no handler runs', async ({ page, deck }) => {
  await deck.createTeam('alpha', ['researcher']);
  await deck.append('alpha', 'user', {
    from: 'researcher',
    text: `${HTML}\n\n[click me](javascript:window.__pwned=3) and ![pic](https://example.com/x.png)`,
    timestamp: iso(Date.now() - 5_000),
    read: false,
  });
  await deck.open(page);
  await page.getByTestId('member-researcher').click();
  const thread = page.getByTestId('thread');
  await expect(thread).toContainText('bold?');

  await page.getByTestId('compose').fill(HTML);
  await page.getByTestId('send').click();
  await expect(page.locator('[data-testid^="msg-"][data-status]', { hasText: 'bold?' })).toHaveAttribute('data-status', /accepted|read|replied/);

  await expect(thread).toContainText('<img src=x onerror=');
  expect(await thread.locator('img').count()).toBe(0);
  expect(await thread.locator('script').count()).toBe(0);
  expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
  expect(await page.evaluate('window.__pwned')).toBeUndefined();
  expect(deck.pageProblems).toEqual([]);
});
