// What a member is doing, seen from its transcript: a current-era teammate (simulated) whose
// transcript gets Claude-shaped tool calls shows "working · Bash: npm test · 42 s" under its
// name and in the roster, ticking; its Activity view is its transcript as a timeline (the spawn
// prompt it received from the lead, its text, a tool call and its collapsed result, the call
// still running); a result and its last words arrive live and it goes idle. A legacy team's
// member has no transcript: its line comes from the config's isActive flag, and the Activity
// view says where transcripts would be.
import { startSimulation, type Simulation } from '../src/sim/main.js';
import { test, expect } from './fixtures.js';
import { teammateTranscriptPath, toolRows } from './helpers/claude-rows.js';

let sim: Simulation | undefined;
test.afterEach(async () => {
  await sim?.crash().catch(() => {});
  sim = undefined;
});

const SEC = 1000;

test('a teammate at work: the activity line ticks, and its Activity view follows its transcript live', async ({ page, deck }, testInfo) => {
  sim = await startSimulation({ teamsDir: deck.teamsDir, era: 'current', members: ['researcher'], pollMs: 100, leadPollMs: 200, workMs: [200, 300], seed: 21 });
  await deck.open(page);
  await page.getByTestId('member-researcher').click();
  // Its spawn turn has ended: it is idle, from its transcript.
  await expect(page.getByTestId('activity-line')).toHaveAttribute('data-kind', 'idle');
  await expect(page.getByTestId('activity-line')).toContainText('idle since');
  const path = await teammateTranscriptPath(sim, 'researcher');
  expect(path).toBeDefined();

  const rows = toolRows(sim, path!);
  const now = Date.now();
  const read = await rows.call('Read', { file_path: `${sim.lead!.cwd}/src/logout.ts` }, now - 45 * SEC, 'I will start with the logout handler.');
  const file = Array.from({ length: 30 }, (_, i) => `${String(i + 1).padStart(4)}\texport const step${i} = () => refresh(${i});`).join('\n');
  await rows.result(read, file, now - 44 * SEC);
  const bash = await rows.call('Bash', { command: 'npm test', description: 'Run the tests' }, now - 42 * SEC);

  const line = page.getByTestId('activity-line');
  await expect(line).toHaveAttribute('data-kind', 'working');
  await expect(line).toContainText('working · Bash: npm test');
  // The counter runs from the call's start, once a second.
  const first = await line.getByTestId('activity-elapsed').innerText();
  expect(first).toMatch(/^· (4\d|5\d) s$/);
  await expect.poll(() => line.getByTestId('activity-elapsed').innerText(), { timeout: 5_000 }).not.toBe(first);
  await expect(page.getByTestId('roster-activity-researcher')).toContainText('Bash: npm test');
  await expect(page.getByTestId('dot-researcher')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('activity-line.png') });

  // Thread | Activity: the transcript as a timeline.
  await page.getByTestId('pane-activity').click();
  const timeline = page.getByTestId('timeline');
  await expect(timeline.locator('[data-kind="received"]').first()).toContainText('from team-lead');
  await expect(timeline.locator('[data-kind="text"]', { hasText: 'I will start with the logout handler.' })).toBeVisible();
  await expect(timeline.locator('[data-kind="tool-call"]', { hasText: 'Read' })).toContainText('src/logout.ts');
  const result = timeline.locator('[data-kind="tool-result"]').first();
  await expect(result).toContainText('30 lines');
  await expect(result.getByTestId('timeline-result')).toHaveCount(0);
  await result.getByTestId('timeline-result-toggle').click();
  await expect(result.getByTestId('timeline-result')).toContainText('export const step29');
  await expect(timeline.locator('[data-kind="tool-call"]').last()).toContainText('npm test');
  await expect(timeline.getByTestId('timeline-running')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('activity-view.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: testInfo.outputPath('activity-view-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });

  // The call fails, the member says so and its turn ends: all of it arrives live.
  await rows.result(bash, '1 failing: logout › cancels the refresh timer', Date.now(), true);
  await rows.say('One test fails: the refresh timer survives logout. Fixing it next.', Date.now());
  await expect(timeline.locator('[data-kind="tool-result"]').last()).toContainText('error');
  await expect(timeline.locator('[data-kind="text"]').last()).toContainText('the refresh timer survives logout');
  await expect(line).toHaveAttribute('data-kind', 'idle');
  await expect(timeline.getByTestId('timeline-running')).toHaveCount(0);

  // The keyboard goes back to the thread.
  await page.keyboard.press('Control+Shift+A');
  await expect(page.getByTestId('thread')).toBeVisible();
  expect(deck.pageProblems).toEqual([]);
});

test('a legacy team: no transcript, and an Activity view that says where transcripts would be', async ({ page, deck }, testInfo) => {
  await deck.createTeam('alpha', ['researcher']);
  await deck.open(page);
  await page.getByTestId('member-researcher').click();
  // Without a transcript the line comes from the config (isActive), as the host judges it.
  await expect(page.getByTestId('activity-line')).toHaveAttribute('data-kind', /^(working|idle|unknown)$/);
  await page.getByTestId('pane-activity').click();
  await expect(page.getByTestId('timeline-empty')).toContainText('~/.claude/projects/');
  await expect(page.getByTestId('timeline-empty')).toContainText('legacy team');
  await page.screenshot({ path: testInfo.outputPath('activity-empty.png') });
  expect(deck.pageProblems).toEqual([]);
});
