// No teams: the empty state says where it looked, and "Start a demo team" brings up a
// simulated team in a temporary root and switches to it.
import { test, expect } from './fixtures.js';

test('the empty state starts a demo team and switches to it', async ({ page, deck }, testInfo) => {
  await deck.open(page);
  const empty = page.getByTestId('empty-state');
  await expect(empty).toBeVisible();
  await expect(empty).toContainText(deck.teamsDir);
  await page.screenshot({ path: testInfo.outputPath('empty-state.png') });

  await page.getByTestId('start-demo').click();
  await expect(page.getByTestId('member-researcher')).toBeVisible();
  // The dot says what the activity line says (issue 28, item 7): a researcher idle by its transcript is not "active".
  const line = page.getByTestId('roster-activity-researcher');
  await expect(line).toHaveAttribute('data-kind', /working|waiting|idle/);
  const kind = await line.getAttribute('data-kind');
  await expect(page.getByTestId('dot-researcher')).toHaveAttribute('data-state', kind === 'idle' ? 'idle' : 'active');
  await expect(page.getByTestId('dot-implementer')).toHaveAttribute('data-state', 'idle');
  await expect(page.getByTestId('dot-tester')).toHaveAttribute('data-state', 'terminated');
  await page.screenshot({ path: testInfo.outputPath('demo-team.png') });
  expect(deck.pageProblems).toEqual([]);
});
