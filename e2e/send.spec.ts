// Sending from the compose box, against a simulated member that reads its inbox like Claude.
import { test, expect, sentRow } from './fixtures.js';

test('a sent message goes accepted, then taken when the member takes it, then its reply shows', async ({ page, deck }, testInfo) => {
  await deck.createTeam('alpha', ['researcher']);
  await deck.open(page);
  await page.getByTestId('member-researcher').click();

  const text = 'please fix the login bug';
  await page.getByTestId('compose').fill(text);
  await page.getByTestId('compose').press('Enter');
  const row = sentRow(page, text);
  await expect(row).toHaveAttribute('data-status', 'accepted');
  await expect(page.getByTestId('compose')).toHaveValue('');

  // The member starts polling only now, so `accepted` was observable; it "works" for a while
  // after taking the message, so `taken` is observable before the reply (a legacy team: no
  // transcript, so no `seen`).
  deck.member({ team: 'alpha', name: 'researcher', pollMs: 100, workMs: [2_000, 2_000], seed: 7, mode: 'prune' });
  await expect(row).toHaveAttribute('data-status', 'taken');
  const reply = page.locator('[data-testid^="msg-"]:not([data-status])', { hasText: 'Done: please fix the login bug' });
  await expect(reply).toBeVisible();
  await expect(row).toHaveAttribute('data-status', 'replied');
  await page.screenshot({ path: testInfo.outputPath('thread-after-reply.png') });

  // The team feed shows both directions.
  await page.getByTestId('open-feed').click();
  await expect(page.getByTestId('feed')).toContainText(text);
  await expect(page.getByTestId('feed')).toContainText('Done: please fix the login bug');
  await page.screenshot({ path: testInfo.outputPath('feed.png') });
  expect(deck.pageProblems).toEqual([]);
});

test('a message to a locked inbox shows queued, then accepted once the lock is released', async ({ page, deck }) => {
  await deck.createTeam('alpha', ['researcher']);
  await deck.append('alpha', 'researcher', { from: 'team-lead', text: 'warm-up', timestamp: new Date().toISOString(), read: true });
  await deck.open(page);
  await page.getByTestId('member-researcher').click();

  const lock = await deck.holdLock('alpha', 'researcher');
  const text = 'this waits for the lock';
  await page.getByTestId('compose').fill(text);
  await page.getByTestId('send').click();
  const row = sentRow(page, text);
  await expect(row).toHaveAttribute('data-status', 'queued');
  await expect(page.getByTestId('queued-count')).toBeVisible();

  await lock.release();
  await expect(row).toHaveAttribute('data-status', 'accepted', { timeout: 30_000 });
  expect(deck.pageProblems).toEqual([]);
});

test('a refused message shows its reason and stays in the compose box', async ({ page, deck }) => {
  await deck.createTeam('alpha', ['researcher']);
  await deck.open(page);
  await page.getByTestId('member-researcher').click();
  const frame = '{"type":"shutdown_request","requestId":"r1","from":"team-lead"}';
  await page.getByTestId('compose').fill(frame);
  await page.getByTestId('send').click();
  await expect(page.getByTestId('send-error')).toContainText(/protocol frame/i);
  await expect(page.getByTestId('compose')).toHaveValue(frame);
  await expect(page.locator('[data-testid^="msg-"][data-status]')).toHaveCount(0);
  expect(deck.pageProblems).toEqual([]);
});
