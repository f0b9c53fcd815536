// The needs-you queue across teams: messages written to an inbox no member reads
// (inboxes/ghost.json on a simulated current-era team) show as an item with how long they have
// waited; Ctrl/Cmd+Shift+N opens the queue and Esc closes it; the stranded messages can be read
// in the feed; "Send to…" picks the member they were meant for and opens the normal compose box
// to it; when the inbox is emptied the item clears itself and the count goes away. A teammate's
// tool call that waits for a permission answer (the lead's sessions file says `waiting`) is an
// item that opens the lead's thread, and the members' activity lines say who waits.
import { readFile, writeFile } from 'node:fs/promises';
import { startSimulation, type Simulation } from '../src/sim/main.js';
import { test, expect, iso, sentRow } from './fixtures.js';
import { teammateTranscriptPath, toolRows } from './helpers/claude-rows.js';

let sim: Simulation | undefined;
test.afterEach(async () => {
  await sim?.crash().catch(() => {});
  sim = undefined;
});

test('an orphan inbox in the needs queue: waited for, sent on to the right member, then cleared', async ({ page, deck }, testInfo) => {
  sim = await startSimulation({ teamsDir: deck.teamsDir, era: 'current', members: ['researcher'], pollMs: 100, leadPollMs: 200, workMs: [200, 300], seed: 41 });
  const now = Date.now();
  await deck.append(sim.teamId, 'ghost', { from: 'team-lead', text: 'Please review the logout fix.', summary: 'review request', timestamp: iso(now - 5 * 60_000), read: false });
  await deck.append(sim.teamId, 'ghost', { from: 'team-lead', text: 'And the remember-me cookie.', timestamp: iso(now - 4 * 60_000), read: false });
  await deck.open(page);

  await expect(page.getByTestId('needs-count')).toHaveText('1');
  await page.keyboard.press('Control+Shift+N');
  const panel = page.getByTestId('needs-panel');
  await expect(panel).toBeVisible();
  const item = panel.locator('[data-testid="need"][data-kind="orphan-inbox"]');
  await expect(item.getByTestId('need-title')).toContainText('ghost.json');
  await expect(item.getByTestId('need-title')).toContainText('2 messages');
  // How long it has waited, ticking.
  const waited = await item.getByTestId('need-waited').innerText();
  expect(waited).toMatch(/^waiting \d/);
  await expect.poll(() => item.getByTestId('need-waited').innerText(), { timeout: 5_000 }).not.toBe(waited);
  await item.getByTestId('need-action').click();
  await expect(item.getByTestId('send-to')).toBeVisible();
  await expect(item.getByTestId('send-to-researcher')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('needs-queue.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: testInfo.outputPath('needs-queue-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });

  // What was stranded there can be read in the feed, narrowed to that inbox.
  await item.getByTestId('send-to-read').click();
  await expect(panel).toHaveCount(0);
  await expect(page.getByTestId('feed')).toHaveAttribute('data-filter', 'ghost');
  await expect(page.getByTestId('feed')).toContainText('Please review the logout fix.');
  await expect(page.getByTestId('feed')).toContainText('And the remember-me cookie.');

  // The shortcut opens the queue again, Esc closes it, and once more.
  await page.keyboard.press('Control+Shift+N');
  await expect(panel).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await page.keyboard.press('Control+Shift+N');
  await expect(panel).toBeVisible();

  // Send to… researcher: its thread, with the compose box ready; the text goes through the normal send.
  await panel.locator('[data-kind="orphan-inbox"]').getByTestId('need-action').click();
  await panel.getByTestId('send-to-researcher').click();
  await expect(panel).toHaveCount(0);
  await expect(page.getByTestId('thread')).toHaveAttribute('data-member', 'researcher');
  await expect(page.getByTestId('compose')).toBeFocused();
  await expect(page.getByTestId('compose')).toHaveValue('');
  const text = 'Please review the logout fix, and the remember-me cookie.';
  await page.getByTestId('compose').fill(text);
  await page.getByTestId('compose').press('Enter');
  await expect(sentRow(page, text)).toHaveAttribute('data-status', /^(accepted|taken|seen|replied)$/);

  // The stranded messages are dealt with: emptying the inbox clears the item, wherever it was shown.
  await writeFile(deck.inbox(sim.teamId, 'ghost'), '[]');
  await expect(page.getByTestId('needs-count')).toHaveCount(0, { timeout: 20_000 });
  await page.getByTestId('needs-button').click();
  await expect(page.getByTestId('needs-empty')).toContainText('Nothing needs you right now.');
  await page.screenshot({ path: testInfo.outputPath('needs-empty.png') });
  expect(deck.pageProblems).toEqual([]);
});

/** Rewrites the lead's sessions file in place, as Claude does on every status change. */
async function setLeadStatus(sim: Simulation, patch: Record<string, unknown>): Promise<void> {
  const path = sim.lead!.sessionFile;
  const body = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
  await writeFile(path, JSON.stringify({ ...body, ...patch }));
}

test('a permission prompt in the lead’s terminal: who waits, for what, and where to answer', async ({ page, deck }, testInfo) => {
  sim = await startSimulation({ teamsDir: deck.teamsDir, era: 'current', members: ['researcher'], pollMs: 100, leadPollMs: 200, workMs: [200, 300], seed: 42 });
  await deck.open(page);
  await expect(page.getByTestId('roster-activity-researcher')).toHaveAttribute('data-kind', 'idle');
  const path = await teammateTranscriptPath(sim, 'researcher');
  const rows = toolRows(sim, path!);
  const now = Date.now();
  const call = await rows.call('Bash', { command: 'rm -rf build/', description: 'Clean the build' }, now - 2_000);
  await setLeadStatus(sim, { status: 'waiting', waitingFor: 'permission prompt', updatedAt: now - 1_500, statusUpdatedAt: now - 1_500 });

  await expect(page.getByTestId('needs-count')).toHaveText('1');
  await expect(page.getByTestId('roster-activity-researcher')).toContainText('needs permission');
  await page.getByTestId('needs-button').click();
  const item = page.getByTestId('needs-panel').locator('[data-testid="need"][data-kind="permission"]');
  await expect(item.getByTestId('need-title')).toContainText('researcher waits for a permission answer');
  await expect(item.getByTestId('need-title')).toContainText('rm -rf build/');
  await page.screenshot({ path: testInfo.outputPath('needs-permission.png') });

  // The answer is given in the lead's terminal: the item opens the lead's thread.
  await item.getByTestId('need-action').click();
  await expect(page.getByTestId('thread')).toHaveAttribute('data-member', 'team-lead');
  await expect(page.getByTestId('activity-line')).toHaveAttribute('data-kind', 'waiting');
  await expect(page.getByTestId('activity-line')).toContainText("waiting for a permission answer in the lead's terminal");
  await page.getByTestId('member-researcher').click();
  await expect(page.getByTestId('activity-line')).toContainText("waiting for a permission answer in the lead's terminal");
  await page.screenshot({ path: testInfo.outputPath('activity-waiting.png') });

  // Answered: the lead is busy again, the tool ran; the item clears and the member works on.
  await setLeadStatus(sim, { status: 'busy', waitingFor: undefined, updatedAt: Date.now(), statusUpdatedAt: Date.now() });
  await rows.result(call, '', Date.now());
  await expect(page.getByTestId('needs-count')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId('activity-line')).not.toHaveAttribute('data-kind', 'waiting');
  expect(deck.pageProblems).toEqual([]);
});
