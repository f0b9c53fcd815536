// A team's task board from Claude's task list files (`<config>/tasks/<team>/<id>.json`, as
// TaskCreate/TaskUpdate write them): empty at first with the reason it usually is; then columns
// by status, a card blocked by an open task, a file that does not parse named; a TaskUpdate that
// completes the blocker moves the card and unblocks the next, live.
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startSimulation, type Simulation } from '../src/sim/main.js';
import { test, expect } from './fixtures.js';
import { taskListDir, writeTasks, type TaskFile } from './helpers/claude-rows.js';

let sim: Simulation | undefined;
test.afterEach(async () => {
  await sim?.crash().catch(() => {});
  sim = undefined;
});

const task = (id: string, subject: string, status: TaskFile['status'], extra: Partial<TaskFile> = {}): TaskFile => ({
  id,
  subject,
  description: `${subject}: the details.`,
  status,
  blocks: [],
  blockedBy: [],
  ...extra,
});

test('the task board: why it is empty, then columns, a blocked card, a bad file, and live updates', async ({ page, deck }, testInfo) => {
  sim = await startSimulation({ teamsDir: deck.teamsDir, era: 'current', members: ['researcher', 'tester'], pollMs: 100, leadPollMs: 200, workMs: [200, 300], seed: 31 });
  await deck.open(page);
  await page.getByTestId('tasks-button').click();
  await expect(page.getByTestId('tasks-empty')).toContainText('CLAUDE_CODE_ENABLE_TODO_TOOLS=1');
  await expect(page.getByTestId('tasks-empty')).toContainText('turns its task tools off by default');
  await page.screenshot({ path: testInfo.outputPath('tasks-empty.png') });

  await writeTasks(
    sim,
    [
      task('1', 'Map the logout flow', 'completed', { owner: 'researcher', blocks: ['2'] }),
      task('2', 'Cancel the refresh timer on logout', 'in_progress', { owner: 'researcher', blockedBy: ['1'], blocks: ['3'] }),
      task('3', 'Run the e2e suite', 'pending', { owner: 'tester', blockedBy: ['2'] }),
      task('4', 'Check the remember-me cookie', 'pending'),
    ],
    { '5.json': '{"id":"5","subject":"half a file' },
  );

  await expect(page.getByTestId('tasks-column-completed').getByTestId('task-1')).toBeVisible();
  await expect(page.getByTestId('tasks-column-in_progress').getByTestId('task-2')).toContainText('@researcher');
  const blocked = page.getByTestId('tasks-column-pending').getByTestId('task-3');
  await expect(blocked).toHaveAttribute('data-blocked', 'true');
  await expect(blocked.getByTestId('task-blocked-by')).toHaveText('blocked by #2');
  await expect(page.getByTestId('task-2').getByTestId('task-blocks')).toHaveText('blocks #3');
  await expect(page.getByTestId('task-problem')).toContainText('5.json');
  await page.getByTestId('task-2').getByRole('button', { name: /Cancel the refresh timer/ }).click();
  await expect(page.getByTestId('task-2').getByTestId('task-description')).toContainText('the details');
  await page.screenshot({ path: testInfo.outputPath('tasks-board.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: testInfo.outputPath('tasks-board-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });

  // TaskUpdate completes #2 (a temp file renamed over it): the card moves and #3 is free.
  const dir = taskListDir(sim);
  const tmp = join(dir, '2.json.tmp.1');
  await writeFile(tmp, JSON.stringify(task('2', 'Cancel the refresh timer on logout', 'completed', { owner: 'researcher', blockedBy: ['1'], blocks: ['3'] })));
  await rename(tmp, join(dir, '2.json'));
  await expect(page.getByTestId('tasks-column-completed').getByTestId('task-2')).toBeVisible();
  await expect(page.getByTestId('task-3')).not.toHaveAttribute('data-blocked', 'true');

  // Esc goes back to the member.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('member-header')).toBeVisible();
  expect(deck.pageProblems).toEqual([]);
});
