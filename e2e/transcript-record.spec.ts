// The team's record from Claude's transcripts (docs/claude-contract.md#record), through the
// browser host: the demo (written as Claude 2.1.332 writes a session: the history in the
// transcripts, every inbox pruned) opens on a populated feed and threads; and a team Teamdeck
// never saw, whose lead has exited (transcripts under <config>/projects, no team folder), is
// listed as ended, browsable and searchable.
import type { Page } from '@playwright/test';
import { createDemoTeam } from '../src/sim/demo.js';
import { writeHistory } from '../src/sim/history-gen.js';
import { test, expect } from './fixtures.js';

/** The demo's history, seen in the feed and in the lead's and the tester's threads. */
async function expectDemoHistory(page: Page, shot: (name: string) => string): Promise<void> {
  await expect(page.getByTestId('member-researcher')).toBeVisible();
  await page.getByTestId('open-feed').click();
  const feed = page.getByTestId('feed');
  // Teammate to teammate, the user's typed turn, an @name line, Teamdeck's question, answers.
  await expect(feed).toContainText('Does the upload client share the auth retry budget');
  await expect(feed).toContainText('How is it going? Keep it short.');
  await expect(feed).toContainText('Run the upload suite first, then the rest.');
  await expect(feed).toContainText('What happens when a refresh races a logout?');
  await expect(feed).toContainText('logout should cancel in-flight refreshes');
  // On screen, not only in the DOM: the newest message is painted where the feed opens.
  await expect(feed.getByText('logout should cancel in-flight refreshes').first()).toBeVisible();
  await page.screenshot({ path: shot('demo-feed.png') });

  // The lead's thread: the turn typed in its terminal, and its answer.
  await page.getByTestId('member-team-lead').click();
  const thread = page.locator('[data-testid="thread"][data-member="team-lead"]');
  await expect(thread).toContainText('How is it going? Keep it short.');
  await expect(thread).toContainText('Researcher found the cause');
  // The tester's: the @tester line and its answer.
  await page.getByTestId('member-tester').click();
  const tester = page.locator('[data-testid="thread"][data-member="tester"]');
  await expect(tester).toContainText('Run the upload suite first, then the rest.');
  await expect(tester).toContainText('212 passed, 0 failed');
  // On screen, not only in the DOM (the list shows its rows once it has scrolled to the newest).
  await expect(tester.getByText('212 passed, 0 failed').first()).toBeVisible();
  await page.screenshot({ path: shot('demo-thread.png') });
}

test('the demo as `npm start` and `teamdeck demo` make it opens on a populated feed and threads, from its transcripts', async ({ page, deck }, testInfo) => {
  // Written before the app starts, as `teamdeck demo` does ahead of `npm start`'s window.
  await createDemoTeam({ teamsDir: deck.teamsDir, cwd: deck.base });
  await deck.open(page);
  await expectDemoHistory(page, (n) => testInfo.outputPath(n));
  expect(deck.pageProblems).toEqual([]);
});

test('the demo started from the empty state opens on a populated feed and threads too', async ({ page, deck }, testInfo) => {
  await deck.open(page);
  await page.getByTestId('start-demo').click();
  await expectDemoHistory(page, (n) => testInfo.outputPath(n));
  expect(deck.pageProblems).toEqual([]);
});

test('a team Teamdeck never saw is imported from its transcripts: listed as ended, browsable and searchable', async ({ page, deck }, testInfo) => {
  // <config> is the teams folder's parent: the transcripts go to <config>/projects; no team folder.
  const history = writeHistory({ configDir: deck.base, sessions: 1, teammates: 2, bytes: 60_000, seed: 5, end: Date.now() - 3_600_000 });
  const s = history.sessions[0]!;
  await deck.createTeam('alpha', ['researcher']);
  await deck.open(page);

  const switcher = page.getByTestId('team-switcher');
  const option = switcher.locator('optgroup[label="Ended"] option', { hasText: s.team });
  await expect(option).toHaveCount(1);
  await switcher.selectOption((await option.getAttribute('value'))!);
  for (const name of ['team-lead', ...s.members]) await expect(page.getByTestId(`member-${name}`)).toBeVisible();

  await page.getByTestId('open-feed').click();
  const feed = page.getByTestId('feed');
  await expect(feed).toContainText('teammates and report back');
  expect(Number(await feed.getAttribute('data-count'))).toBeGreaterThanOrEqual(s.messages / 2);
  await page.screenshot({ path: testInfo.outputPath('imported-feed.png') });

  // The lead's thread holds the typed goal and the lead's answer; the first teammate's, the @name line.
  await page.getByTestId('member-team-lead').click();
  const lead = page.locator('[data-testid="thread"][data-member="team-lead"]');
  await expect(lead).toContainText('teammates and report back');
  await expect(lead).toContainText('Team is up:');
  await page.getByTestId(`member-${s.members[0]!}`).click();
  await expect(page.locator(`[data-testid="thread"][data-member="${s.members[0]!}"]`)).toContainText('Tell me first, before the lead.');
  await expect(page.getByTestId('compose-disabled')).toContainText(/ended/i);
  await page.screenshot({ path: testInfo.outputPath('imported-thread.png') });

  await page.keyboard.press('Control+f');
  await page.getByTestId('search-input').fill('"before the lead"');
  const hits = page.getByTestId('search-hit');
  await expect(hits.first()).toBeVisible();
  await expect(hits.first()).toContainText(s.members[0]!);
  await page.screenshot({ path: testInfo.outputPath('imported-search.png') });
  expect(deck.pageProblems).toEqual([]);
});
