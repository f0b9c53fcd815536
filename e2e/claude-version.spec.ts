// Which Claude Code a team runs, in the window: the team's version under the switcher (quiet when
// tested, a note when newer), and Settings' "Check this setup", the host's doctor report. A
// simulated current-era team writes its lead's sessions file and transcripts as 2.1.332 does.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startSimulation, type Simulation } from '../src/sim/main.js';
import { test, expect } from './fixtures.js';

let sim: Simulation | undefined;
test.afterEach(async () => {
  await sim?.crash().catch(() => {});
  sim = undefined;
});

test("a team's Claude Code version under the switcher, and Settings' checks, at 800x560 light and dark", async ({ page, deck }, testInfo) => {
  sim = await startSimulation({ teamsDir: deck.teamsDir, era: 'current', members: ['researcher'], pollMs: 100, leadPollMs: 200, workMs: [500, 500], seed: 7 });
  await page.setViewportSize({ width: 800, height: 560 });
  await deck.open(page);
  const version = page.getByTestId('claude-version');
  await expect(version).toHaveText('Claude Code 2.1.332');
  await expect(version).toHaveAttribute('data-kind', 'proven');

  // The lead's sessions file now says a version newer than the tested range: a quiet note.
  const sessions = join(deck.base, 'sessions');
  const file = join(sessions, (await readdir(sessions)).find((n) => /^\d+\.json$/.test(n))!);
  await writeFile(file, JSON.stringify({ ...JSON.parse(await readFile(file, 'utf8')), version: '2.1.340' }));
  await expect(version).toHaveText('Claude Code 2.1.340: newer than Teamdeck was tested with (2.1.332–2.1.337)');
  await expect(version).toHaveAttribute('data-kind', 'newer');
  await page.screenshot({ path: testInfo.outputPath('claude-version-newer-light.png') });

  await page.getByTestId('open-settings').click();
  await page.getByTestId('doctor-run').click();
  await expect(page.getByTestId('doctor-summary')).toContainText('tested with 2.1.332–2.1.337');
  await expect(page.getByTestId('doctor-finding-engine')).toHaveAttribute('data-level', 'ok');
  await expect(page.getByTestId('doctor-finding-team-versions')).toContainText('newer than Teamdeck was tested with');
  await page.getByTestId('doctor').scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('doctor-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: testInfo.outputPath('doctor-dark.png') });
  await page.keyboard.press('Escape');
  await page.screenshot({ path: testInfo.outputPath('claude-version-newer-dark.png') });
  expect(deck.pageProblems).toEqual([]);
});
