// The roster's three dot states, from fixture times and a shutdown approval on disk.
import { test, expect, iso } from './fixtures.js';

const MIN = 60_000;

test('roster shows ACTIVE, IDLE and TERMINATED members', async ({ page, deck }, testInfo) => {
  const now = Date.now();
  await deck.createTeam('alpha', ['researcher', 'implementer', 'tester'], { now: () => now - 60 * MIN });
  // researcher answered 30 s ago: ACTIVE.
  await deck.append('alpha', 'user', { from: 'researcher', text: 'Found the bug in auth.ts', summary: 'Bug found', timestamp: iso(now - 30_000), read: false, color: 'blue' });
  // implementer was last heard from 20 minutes ago: IDLE.
  await deck.append('alpha', 'user', { from: 'implementer', text: 'Retries are in.', timestamp: iso(now - 20 * MIN), read: false, color: 'green' });
  // tester approved its shutdown: TERMINATED.
  const requestId = `shutdown-${now - 10 * MIN}@tester`;
  await deck.append('alpha', 'team-lead', {
    from: 'tester',
    text: JSON.stringify({ type: 'shutdown_approved', requestId, from: 'tester', timestamp: iso(now - 10 * MIN), paneId: 'in-process', backendType: 'in-process' }),
    timestamp: iso(now - 10 * MIN),
    read: false,
    color: 'yellow',
  });

  await deck.open(page);
  await expect(page.getByTestId('member-researcher')).toBeVisible();
  await expect(page.getByTestId('dot-researcher')).toHaveAttribute('data-state', 'active');
  await expect(page.getByTestId('dot-implementer')).toHaveAttribute('data-state', 'idle');
  await expect(page.getByTestId('dot-tester')).toHaveAttribute('data-state', 'terminated');
  await expect(page.getByTestId('member-tester')).toContainText('Terminated');
  // Screen readers get the state in words.
  await expect(page.getByTestId('dot-researcher')).toHaveAttribute('aria-label', 'researcher, active');
  await expect(page.getByTestId('dot-team-lead')).toBeVisible();

  // A terminated member's compose box is disabled, with the reason.
  await page.getByTestId('member-tester').click();
  await expect(page.getByTestId('compose')).toBeDisabled();
  await expect(page.getByTestId('compose-disabled')).toBeVisible();

  await page.getByTestId('member-researcher').click();
  await expect(page.getByTestId('thread')).toContainText('Found the bug in auth.ts');
  await page.screenshot({ path: testInfo.outputPath('roster-and-thread.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: testInfo.outputPath('roster-and-thread-dark.png'), fullPage: true });
  expect(deck.pageProblems).toEqual([]);
});
