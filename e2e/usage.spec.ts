// The Usage view (docs/usage.md#window): a simulated current-era team whose researcher's
// transcript gains a reply written as three rows of one message (Claude's way, §19) with a
// model priced in `<state>/prices.json`; the view shows the researcher's tokens and cost live,
// counted once, and the roster its spend; a team budget below the spend puts a budget item in
// the needs queue; the all-teams view lists the day. Screenshots light and dark, and at 800×560.
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startSimulation, type Simulation } from '../src/sim/main.js';
import { test, expect } from './fixtures.js';
import { teammateTranscriptPath } from './helpers/claude-rows.js';

const MODEL = 'claude-e2e-usage';
let sim: Simulation | undefined;
test.afterEach(async () => {
  await sim?.crash().catch(() => {});
  sim = undefined;
});

/** One model reply of `blocks` content blocks, as Claude writes it: a row per block, one id, the whole usage on each. */
function replyRows(id: string, blocks: number, usage: { input: number; output: number }, at: number): string {
  return Array.from({ length: blocks }, (_, i) =>
    JSON.stringify({
      type: 'assistant',
      uuid: `${id}-${i}`,
      timestamp: new Date(at).toISOString(),
      isSidechain: true,
      message: { id, type: 'message', role: 'assistant', model: MODEL, content: [{ type: 'text', text: `part ${i + 1}` }], usage: { input_tokens: usage.input, output_tokens: usage.output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } },
    }),
  ).join('\n') + '\n';
}

test('the Usage view counts a three-row reply once, live; a budget below the spend is a need', async ({ page, deck }, testInfo) => {
  sim = await startSimulation({ teamsDir: deck.teamsDir, era: 'current', members: ['researcher'], pollMs: 100, leadPollMs: 200, workMs: [200, 300], seed: 30 });
  await mkdir(deck.stateDir, { recursive: true });
  // $2 per million input tokens, $10 per million output: the reply below costs $2 + $1.
  await writeFile(join(deck.stateDir, 'prices.json'), JSON.stringify({ [MODEL]: { inputPerMTok: 2, outputPerMTok: 10, cacheWritePerMTok: 0, cacheReadPerMTok: 0 } }));
  await deck.open(page);
  const path = await expect.poll(() => teammateTranscriptPath(sim!, 'researcher'), { timeout: 20_000 }).toBeTruthy().then(() => teammateTranscriptPath(sim!, 'researcher'));

  await page.getByTestId('open-usage').click();
  await expect(page.getByTestId('usage-view')).toBeVisible();
  await appendFile(path!, replyRows('msg_e2e_1', 3, { input: 1_000_000, output: 100_000 }, Date.now()));
  const row = page.locator('[data-testid="usage-row"][data-member="researcher"]');
  await expect(row).toContainText(MODEL);
  // Counted once: three rows of one message are 1,000,000 input tokens (and the simulated
  // member's own few dozen), not 3,000,000.
  await expect(row).toContainText(/1,000,0\d\d/);
  await expect(row).not.toContainText('3,000,0');
  await expect(row.getByTestId('usage-cost')).toHaveText(/^\$3\.0\d$/);
  await expect(page.getByTestId('spend-researcher')).toHaveText(/^\$3\.0\d$/);
  await expect(page.getByTestId('usage-chart').locator('canvas')).toHaveCount(1);

  // A second reply shows without a reload.
  await appendFile(path!, replyRows('msg_e2e_2', 1, { input: 500_000, output: 0 }, Date.now()));
  await expect(row).toContainText(/1,500,0\d\d/);
  await expect(row.getByTestId('usage-cost')).toHaveText(/^\$4\.0\d$/);
  await page.screenshot({ path: testInfo.outputPath('usage-team-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.getByTestId('usage-chart').locator('canvas')).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath('usage-team-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });

  // A budget below what the team spent: a need, right away.
  const budget = page.getByTestId('team-budget');
  await budget.getByRole('textbox').fill('3.5');
  await budget.getByRole('button', { name: 'Set' }).click();
  await expect(page.getByTestId('team-budget-current')).toHaveText('$3.50');
  await expect(page.getByTestId('needs-count')).toHaveText('1');
  await page.getByTestId('needs-button').click();
  const item = page.getByTestId('needs-panel').locator('[data-testid="need"][data-kind="budget"]');
  await expect(item).toContainText(`${sim.teamId} has spent $4`);
  await expect(item).toContainText('of its $3.50 budget');
  await page.screenshot({ path: testInfo.outputPath('usage-budget-need.png') });
  // The item opens the team's Usage view.
  await page.keyboard.press('Escape');
  await page.getByTestId('open-feed').click();
  await expect(page.getByTestId('usage-view')).toHaveCount(0);
  await page.getByTestId('needs-button').click();
  await item.getByTestId('need-action').click();
  await expect(page.getByTestId('usage-view')).toBeVisible();

  // Every team per day, at the smallest window size.
  await page.setViewportSize({ width: 800, height: 560 });
  await page.getByTestId('usage-scope-all').click();
  await expect(page.getByTestId('usage-day')).toHaveCount(1);
  await expect(page.getByTestId('usage-teams')).toContainText(sim.teamId);
  await expect(page.getByTestId('usage-days-chart').locator('canvas')).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath('usage-all-800x560-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: testInfo.outputPath('usage-all-800x560-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByTestId('usage-scope-team').click();
  await expect(page.getByTestId('usage-table')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('usage-team-800x560.png') });
  expect(deck.pageProblems).toEqual([]);
});
