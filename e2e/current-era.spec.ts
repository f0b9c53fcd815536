// A team on today's Claude Code (a session-<8> team, simulated): a message is written as
// teamdeck and goes accepted -> taken -> seen -> replied, the answer is marked with where it
// was found, and when the lead exits (Claude deletes the folder) the team moves to Ended with
// its history and a compose box that says why nothing can be sent.
import { startSimulation, type Simulation } from '../src/sim/main.js';
import { test, expect, sentRow } from './fixtures.js';

let sim: Simulation | undefined;
test.afterEach(async () => {
  await sim?.crash().catch(() => {});
  sim = undefined;
});

test('a current-era team: written as teamdeck, seen in the transcript, answered; then it ends and stays browsable', async ({ page, deck }, testInfo) => {
  sim = await startSimulation({ teamsDir: deck.teamsDir, era: 'current', members: ['researcher'], pollMs: 100, leadPollMs: 200, workMs: [1_500, 1_500], seed: 11 });
  await deck.open(page);
  await page.getByTestId('member-researcher').click();
  await expect(page.getByTestId('compose-arrival')).toContainText('teamdeck');

  const text = 'what is the status of the login fix?';
  await page.getByTestId('compose').fill(text);
  await page.getByTestId('compose').press('Enter');
  const row = sentRow(page, text);
  await expect(row.getByTestId('sent-as')).toContainText('teamdeck');
  // Taken (pruned from its inbox) and seen (in its transcript) before its 1.5 s of work ends.
  await expect(row).toHaveAttribute('data-status', /^(taken|seen)$/);
  await expect(row).toHaveAttribute('data-status', 'seen');
  await expect(row).toHaveAttribute('data-status', 'replied', { timeout: 20_000 });
  const answer = page.getByTestId('answer-source').first();
  await expect(answer).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('current-thread.png') });

  // The lead exits: Claude renames the team folder away and removes it.
  await sim.stop();
  sim = undefined;
  await expect(page.getByTestId('compose-disabled')).toContainText(/ended/i, { timeout: 20_000 });
  await expect(page.getByTestId('compose')).toBeDisabled();
  // The history stays.
  await expect(sentRow(page, text)).toHaveAttribute('data-status', 'replied');
  await expect(page.getByTestId('dot-researcher')).toHaveAttribute('data-state', 'terminated');
  await page.screenshot({ path: testInfo.outputPath('ended-team.png') });
  expect(deck.pageProblems).toEqual([]);
});
