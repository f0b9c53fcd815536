// Search from the window (Ctrl+F): every team's messages, newest first, the matches marked with
// <mark> (hostile text stays text), the team filter, the empty state, keyboard choice, Enter
// opening the thread at the message, a message appended meanwhile found, Esc closing.
import { test, expect } from './fixtures.js';

test('Ctrl+F searches every team, highlights the matches and opens the thread at the message', async ({ page, deck }, testInfo) => {
  await deck.createTeam('alpha', ['researcher', 'tester']);
  await deck.createTeam('beta', ['writer']);
  const t = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
  // Older filler first, so the hit is far up a long thread.
  for (let i = 0; i < 60; i++) await deck.append('alpha', 'user', { from: 'researcher', text: `filler report ${i}`, timestamp: t(200 - i), read: false });
  await deck.append('alpha', 'user', { from: 'researcher', text: 'Found the flaky upload: <img src=x onerror=alert(1)> a race in the retry timer', timestamp: t(120), read: false });
  await deck.append('alpha', 'user', { from: 'researcher', text: 'newest filler', timestamp: t(1), read: false });
  await deck.append('beta', 'user', { from: 'writer', text: 'The retry chapter is drafted', timestamp: t(30), read: false });
  await deck.open(page);

  await page.keyboard.press('Control+f');
  const panel = page.getByTestId('search-panel');
  await expect(panel).toBeVisible();
  await expect(page.getByTestId('search-input')).toBeFocused();
  await page.getByTestId('search-input').fill('retry');
  const hits = page.getByTestId('search-hit');
  await expect(hits).toHaveCount(2);
  // Newest first: beta's message (30 minutes ago) before alpha's (2 hours ago).
  await expect(hits.nth(0)).toContainText('beta');
  await expect(hits.nth(0)).toContainText('writer → you');
  await expect(hits.nth(1)).toContainText('alpha');
  await expect(hits.nth(1).locator('mark')).toHaveText(['retry']);
  // The message's markup is text, never elements.
  await expect(hits.nth(1)).toContainText('<img src=x onerror=alert(1)>');
  await expect(panel.locator('img')).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('search-results.png') });

  // A phrase, and nothing found.
  await page.getByTestId('search-input').fill('"upload retry"');
  await expect(page.getByTestId('search-empty')).toHaveText('No messages match “"upload retry"”.');
  await page.getByTestId('search-input').fill('"retry timer"');
  await expect(hits).toHaveCount(1);
  await expect(hits.nth(0).locator('mark')).toHaveText(['retry timer']);

  // A message appended while the panel is open is found by the next search.
  await deck.append('beta', 'user', { from: 'writer', text: 'Another retry timer note', timestamp: t(0), read: false });
  await page.getByTestId('search-input').fill('retry  timer');
  await expect(hits).toHaveCount(2);
  await expect(hits.nth(0)).toContainText('Another retry timer note');

  // Only the open team (alpha is open first).
  await page.getByTestId('search-scope').selectOption('team');
  await expect(hits).toHaveCount(1);
  await expect(hits.nth(0)).toContainText('alpha');

  // Keyboard: Down then Up stay on the one hit; Enter opens researcher's thread scrolled to it.
  await page.getByTestId('search-input').press('ArrowDown');
  await page.getByTestId('search-input').press('ArrowUp');
  await expect(hits.nth(0)).toHaveAttribute('aria-selected', 'true');
  await page.getByTestId('search-input').press('Enter');
  await expect(panel).toHaveCount(0);
  // Visible with its text in one check: the highlight lasts 4 s, which two checks in turn can
  // straddle on a loaded machine.
  await expect(page.getByTestId('focused-message').filter({ hasText: 'a race in the retry timer' })).toBeVisible();
  await expect(page.getByRole('region', { name: /Conversation with researcher/ }).or(page.locator('section[aria-label="Conversation with researcher"]'))).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('search-opened.png') });

  // A click opens the other team's thread; Esc closes the panel.
  await page.keyboard.press('Control+f');
  await page.getByTestId('search-input').fill('chapter');
  await expect(hits).toHaveCount(1);
  await hits.nth(0).click();
  await expect(page.getByTestId('focused-message')).toContainText('The retry chapter is drafted');
  // Teammates' traffic opens the team's feed, scrolled to the message.
  await deck.append('alpha', 'tester', { from: 'researcher', text: 'Handing you the flaky upload repro', timestamp: t(90), read: true });
  await page.keyboard.press('Control+f');
  await page.getByTestId('search-input').fill('repro');
  await expect(hits).toHaveCount(1);
  await expect(hits.nth(0)).toContainText('researcher → tester');
  await hits.nth(0).click();
  await expect(page.getByTestId('feed')).toBeVisible();
  await expect(page.getByTestId('focused-message')).toContainText('Handing you the flaky upload repro');
  await page.keyboard.press('Control+f');
  await expect(panel).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  expect(deck.pageProblems).toEqual([]);
});

test('a query with nothing to search for says so', async ({ page, deck }) => {
  await deck.createTeam('alpha', ['researcher']);
  await deck.open(page);
  await page.keyboard.press('Control+f');
  await page.getByTestId('search-input').fill('"*"');
  await expect(page.getByTestId('search-error')).toContainText('nothing to search for');
});
