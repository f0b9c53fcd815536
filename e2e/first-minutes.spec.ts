// Issue 28, the first five minutes, in the window: every view and dialog at 800x560, 900x600
// and 1600x1000 with every control on screen or reachable by scrolling and none overlapping
// (checked by geometry, e2e/helpers/layout.ts), member names never cut while the toolbar keeps
// its width, no stray separator; and the window's side of items 4, 6, 8 and 15 (line breaks in
// the bubble, the length counter, one name for the user, the theme switch and the caret).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { startSimulation, type Simulation } from '../src/sim/main.js';
import { test, expect } from './fixtures.js';
import { writeTasks, type TaskFile } from './helpers/claude-rows.js';
import { cutText, layoutProblems } from './helpers/layout.js';

let sim: Simulation | undefined;
test.afterEach(async () => {
  await sim?.crash().catch(() => {});
  sim = undefined;
});

const SIZES = [
  { width: 800, height: 560 },
  { width: 900, height: 600 },
  { width: 1600, height: 1000 },
] as const;

const task = (id: string, subject: string, status: TaskFile['status'], extra: Partial<TaskFile> = {}): TaskFile => ({
  id,
  subject,
  description: `${subject}: the details.`,
  status,
  blocks: [],
  blockedBy: [],
  ...extra,
});

async function shot(page: Page, info: TestInfo, name: string): Promise<void> {
  await page.screenshot({ path: info.outputPath(`${name}.png`) });
}

/** The view's controls all reachable and apart; a screenshot either way. */
async function laidOut(page: Page, info: TestInfo, name: string, scope = 'body'): Promise<void> {
  await shot(page, info, name);
  expect(await layoutProblems(page, scope), name).toEqual([]);
}

for (const size of SIZES) {
  test(`every view and dialog at ${size.width}x${size.height}`, async ({ page, deck }, info) => {
    const tag = `${size.width}x${size.height}`;
    await page.setViewportSize(size);
    sim = await startSimulation({
      teamsDir: deck.teamsDir,
      era: 'current',
      members: ['researcher', 'implementer', 'tester'],
      pollMs: 100,
      leadPollMs: 200,
      workMs: [100, 200],
      seed: 28,
      cwd: join(deck.base, 'a-project-folder-with-a-rather-long-name', 'and-a-subfolder'),
    });
    await writeTasks(sim, [
      task('1', 'Map the logout flow', 'completed', { owner: 'researcher', blocks: ['2'] }),
      task('2', 'Cancel the refresh timer on logout', 'in_progress', { owner: 'implementer', blockedBy: ['1'] }),
      task('3', 'Run the end-to-end suite against the staging server', 'pending', { owner: 'tester', blockedBy: ['2'] }),
    ]);
    await deck.open(page);

    // Item 15: the caret is in the compose box on first load.
    await expect(page.getByTestId('compose')).toBeFocused();

    // Roster.
    await expect(page.getByTestId('member-researcher')).toBeVisible();
    await laidOut(page, info, `${tag}-roster`, 'aside');
    expect(await cutText(page, 'aside [data-testid^="member-"] span.truncate'), 'roster names').toEqual([]);

    // Thread: a message with a line break (item 4).
    await page.getByTestId('member-researcher').click();
    const compose = page.getByTestId('compose');
    await compose.fill('');
    await compose.pressSequentially('first line');
    await compose.press('Shift+Enter');
    await compose.pressSequentially('second line');
    await compose.press('Enter');
    const bubble = page.locator('[data-testid^="msg-"][data-status]', { hasText: 'first line' });
    await expect(bubble).toBeVisible();
    await expect(bubble.locator('.md br')).toHaveCount(1);
    await expect(page.getByTestId('member-header').locator('h1')).toHaveText('researcher');
    expect(await cutText(page, '[data-testid="member-header"] h1'), 'header name').toEqual([]);
    // No separator before nothing: the meta line starts with a word.
    const meta = await page.getByTestId('member-meta').innerText();
    expect(meta.trim()).not.toMatch(/^·|·$/);
    await laidOut(page, info, `${tag}-thread`);

    // Item 6: the length counter, and Send refused before it is pressed.
    await compose.fill('x'.repeat(70_000));
    await expect(page.getByTestId('compose-length')).toHaveText('70,000 / 65,536 bytes: too long to send; the limit is 65,536 bytes');
    await expect(page.getByTestId('send')).toBeDisabled();
    await compose.press('Enter');
    await expect(page.getByTestId('send-error')).toHaveCount(0);
    await shot(page, info, `${tag}-compose-too-long`);
    await compose.fill('');
    await expect(page.getByTestId('compose-length')).toHaveCount(0);

    // Activity.
    await page.getByTestId('pane-activity').click();
    await expect(page.getByTestId('timeline-item').first()).toBeVisible();
    // Item 8: the message the user sent is "from you" here too, never from Teamdeck's sender name.
    await expect(page.getByTestId('timeline-from').filter({ hasText: 'from you' })).toHaveCount(1);
    await expect(page.getByTestId('timeline-from').filter({ hasText: 'from teamdeck' })).toHaveCount(0);
    await laidOut(page, info, `${tag}-activity`);
    await page.getByTestId('pane-thread').click();

    // Feed, with its filter and Export, and the export menu open (item 8: "you" at either end).
    await page.getByTestId('feed-button').click();
    await expect(page.getByTestId('feed')).toBeVisible();
    await expect(page.locator('[data-testid^="feed-msg-"][data-status]', { hasText: 'first line' })).toContainText(/you\s*→\s*researcher/);
    // On screen, not only in the DOM.
    await expect(page.locator('[data-testid^="feed-msg-"][data-status]', { hasText: 'first line' })).toBeVisible();
    await expect(page.getByTestId('feed')).not.toContainText('→teamdeck');
    await laidOut(page, info, `${tag}-feed`);
    await page.getByTestId('export-button').click();
    await expect(page.getByTestId('export-menu')).toBeVisible();
    await laidOut(page, info, `${tag}-export`);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('export-menu')).toBeHidden();

    // Tasks.
    await page.getByTestId('open-tasks').click();
    await expect(page.getByTestId('tasks')).toHaveAttribute('data-count', '3');
    await laidOut(page, info, `${tag}-tasks`);

    // Needs you.
    await page.getByTestId('needs-button').click();
    await expect(page.getByTestId('needs-panel')).toBeVisible();
    await laidOut(page, info, `${tag}-needs`, '[data-testid="needs-panel"]');
    await page.getByTestId('needs-close').click();

    // Search.
    await page.keyboard.press('Control+f');
    await page.getByTestId('search-input').fill('line');
    await expect(page.getByTestId('search-hit').first()).toBeVisible();
    await laidOut(page, info, `${tag}-search`, '[data-testid="search-panel"]');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('search-panel')).toBeHidden();

    // Settings: taller than a small window; its body scrolls and Save stays in view.
    await page.getByTestId('open-settings').click();
    await expect(page.getByTestId('settings')).toBeVisible();
    await laidOut(page, info, `${tag}-settings`, '[data-testid="settings"]');
    // The prices, opened: their box and button fit too.
    await page.getByTestId('settings-prices').locator('summary').click();
    await expect(page.getByLabel('Price overrides (JSON)')).toBeVisible();
    await laidOut(page, info, `${tag}-settings-prices`, '[data-testid="settings"]');
    const save = page.getByTestId('settings').getByRole('button', { name: 'Save', exact: true });
    await expect(save).toBeInViewport({ ratio: 1 });
    await page.getByTestId('settings').getByRole('button', { name: 'Cancel' }).click();

    // Launch.
    await page.keyboard.press('Control+Shift+L');
    await expect(page.getByTestId('launch-dialog')).toBeVisible();
    await laidOut(page, info, `${tag}-launch`, '[data-testid="launch-dialog"]');
    await expect(page.getByTestId('launch-submit')).toBeInViewport({ ratio: 1 });
    await page.keyboard.press('Escape');
    expect(deck.pageProblems).toEqual([]);
  });
}

test('launch says claude is missing before the form (item 10); the theme switch: dark, light or the system, kept across a reload (item 15)', async ({ page, deck }, info) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await deck.createTeam('alpha', ['researcher']);
  // A claude that is not there, whatever this machine's PATH holds.
  const missing = join(deck.base, 'no-such-claude');
  await mkdir(deck.stateDir, { recursive: true });
  await writeFile(join(deck.stateDir, 'settings.json'), JSON.stringify({ claudePath: missing }));
  await deck.open(page);
  const bodyColour = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await bodyColour();
  // Launching says before the form that claude is not found here, with the way to Settings to fix it.
  await expect(page.getByTestId('launch-unavailable-note')).toContainText(`Launching a team is not available here: the claude path in Settings (${missing}) does not exist; fix it in Settings.`);
  await page.getByTestId('launch-open-settings').click();
  await page.getByTestId('settings-theme-dark').check({ force: true });
  await page.getByTestId('settings').getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await bodyColour()).not.toBe(light);
  await shot(page, info, 'theme-dark');
  await page.reload();
  await expect(page.getByTestId('app')).toHaveAttribute('data-phase', 'ready');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  // Light on a dark system; then the system's own again.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-theme-light').check({ force: true });
  await page.getByTestId('settings').getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  expect(await bodyColour()).toBe(light);
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-theme-system').check({ force: true });
  await page.getByTestId('settings').getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /.*/);
  expect(await bodyColour()).not.toBe(light);
});
