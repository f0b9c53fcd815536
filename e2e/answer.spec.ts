// Answering the team from the window, end to end through the browser host: a teammate's
// permission prompt in the needs queue with Allow / Always allow / Deny, answered by keys the
// engine presses in the lead's hosted terminal once its screen shows exactly that prompt; the
// lead's Stop button (Esc while its turn runs), a teammate's Stop that says why it cannot; a
// teammate's plan shown whole with Approve / Reject, typed to the lead as the user. The lead is a
// stand-in that draws Claude's screens (e2e/helpers/dialog-lead.mjs); the team around it is a
// simulated current-era team whose files say what Claude's would. The real Claude is in
// test/claude/answer.test.ts.
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { tmuxSocketName } from '../src/engine/terminals/tmux-client.js';
import { reclaimLead } from '../src/sim/claude-config.js';
import { procStart } from '../src/sim/lead-session.js';
import { startSimulation, type Simulation } from '../src/sim/main.js';
import { toolUseId } from '../src/sim/transcript.js';
import { REPO, test, expect, iso } from './fixtures.js';
import { teammateTranscriptPath, toolRows } from './helpers/claude-rows.js';

const STAND_IN = join(REPO, 'e2e', 'helpers', 'dialog-lead.mjs');
const SHOTS = join(REPO, 'test-results', 'screenshots');
const run = promisify(execFile);

let sim: Simulation | undefined;
let tmuxServer: string | undefined;
test.afterEach(async () => {
  await sim?.crash().catch(() => {});
  sim = undefined;
  if (tmuxServer) await run('tmux', ['-L', tmuxServer, 'kill-server']).catch(() => undefined);
  tmuxServer = undefined;
});

test('a permission prompt answered from the needs queue, Stop on the lead, a plan approved from the window', async ({ page, deck }) => {
  await mkdir(SHOTS, { recursive: true });
  sim = await startSimulation({ teamsDir: deck.teamsDir, era: 'current', members: ['researcher'], pollMs: 100, leadPollMs: 200, workMs: [200, 300], seed: 29 });
  const lead = sim.lead!;
  tmuxServer = tmuxSocketName(deck.stateDir);
  await deck.open(page);

  // The lead's terminal: the stand-in, launched by the window as `claude` would be.
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-claude-path').fill(STAND_IN);
  await page.getByTestId('settings').getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('settings')).toBeHidden();
  await expect(page.getByTestId('launch-open')).toBeVisible();
  await page.keyboard.press('Control+Shift+L');
  const dialog = page.getByTestId('launch-dialog');
  await dialog.getByTestId('launch-cwd').fill(deck.base);
  await dialog.getByTestId('launch-cwd').press('Enter');
  await expect(page.getByTestId('terminal-pane').locator('.xterm-rows')).toContainText('Do you want to proceed?', { timeout: 20_000 });
  const panes = await run('tmux', ['-L', tmuxServer, 'list-panes', '-a', '-F', '#{pane_pid}']);
  const pid = Number(panes.stdout.trim());
  expect(pid).toBeGreaterThan(1);

  // The team's lead is that process (as Claude writes it): config.leadProcess and its sessions file.
  const now = Date.now();
  await reclaimLead(join(sim.teamDir, 'config.json'), pid, now);
  // The simulator's own file stays, as a killed lead's does: Teamdeck follows config.leadProcess.pid.
  const simSession = JSON.parse(await readFile(join(sim.configDir!, 'sessions', `${process.pid}.json`), 'utf8')) as Record<string, unknown>;
  const sessionFile = join(sim.configDir!, 'sessions', `${pid}.json`);
  const setStatus = (patch: Record<string, unknown>) => writeFile(sessionFile, JSON.stringify({ ...simSession, pid, procStart: procStart(pid), ...patch, updatedAt: Date.now(), statusUpdatedAt: Date.now() }));
  // The researcher's Bash asks: its call is in flight, the lead waits for a permission answer.
  const path = await teammateTranscriptPath(sim, 'researcher');
  const rows = toolRows(sim, path!);
  await rows.call('Bash', { command: 'rm -rf build/', description: 'Clean the build' }, now - 500);
  await setStatus({ status: 'waiting', waitingFor: 'permission prompt' });

  await page.getByTestId('needs-button').click();
  const item = page.getByTestId('needs-panel').locator('[data-testid="need"][data-kind="permission"]');
  await expect(item.getByTestId('need-title')).toContainText('researcher waits for a permission answer');
  await expect(item.getByTestId('need-ask')).toHaveText('Bash: rm -rf build/');
  await expect(item.getByTestId('need-allow')).toBeVisible();
  await expect(item.getByTestId('need-deny')).toBeVisible();
  await page.screenshot({ path: join(SHOTS, 'answer-needs-item.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(SHOTS, 'answer-needs-item-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 800, height: 560 });
  await page.screenshot({ path: join(SHOTS, 'answer-needs-item-800x560.png') });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Allow: the engine reads the dialog, checks it is the researcher's rm -rf build/, presses Enter.
  await item.getByTestId('need-allow').click();
  const screen = page.getByTestId('terminal-pane').locator('.xterm-rows');
  await expect(screen).toContainText('answered: Yes', { timeout: 20_000 }).catch(async (e: Error) => {
    throw new Error(`${e.message}\nthe item says: ${await item.innerText()}`);
  });
  await page.getByTestId('needs-close').click();
  await expect(screen).toContainText('esc to interrupt');
  // Claude's files follow the answer: the lead runs a long command of its own; the item goes.
  await setStatus({ status: 'busy', waitingFor: undefined });
  await lead.transcript.assistant([{ type: 'tool_use', id: toolUseId(), name: 'Bash', input: { command: 'tail -f app.log' } }], Date.now());
  await expect(page.getByTestId('needs-count')).toHaveCount(0, { timeout: 20_000 });

  // The feed says what was done, from where.
  await page.getByTestId('feed-button').click();
  await expect(page.getByTestId('feed')).toContainText("You allowed researcher's Bash command: rm -rf build/, from the browser");

  // Stop: on the lead, Esc in its terminal while its turn runs; the activity says who stopped it.
  await page.getByTestId('member-team-lead').click();
  await page.getByTestId('pane-thread').click();
  const stop = page.getByTestId('stop-button');
  await expect(stop).toBeEnabled();
  await page.screenshot({ path: join(SHOTS, 'answer-stop-button.png') });
  await stop.click();
  // Esc went in and the stand-in's status line lost "esc to interrupt": no refusal shown.
  await expect(stop).toHaveText('Stop', { timeout: 10_000 });
  await expect(page.getByTestId('stop-error')).toHaveCount(0);
  // As Claude records an Esc during a tool call (docs/claude-contract.md#interrupts).
  await lead.transcript.harness('[Request interrupted by user for tool use]', Date.now());
  await setStatus({ status: 'idle' });
  await expect(page.getByTestId('activity-line')).toContainText('stopped by you', { timeout: 15_000 });
  await page.screenshot({ path: join(SHOTS, 'answer-stopped-by-you.png') });
  await page.getByTestId('pane-terminal').click();
  await expect(screen).toContainText('● interrupted');
  await page.getByTestId('pane-thread').click();

  // A teammate's turn: no safe key exists in Claude's lead terminal; the button says so, off.
  await page.getByTestId('member-researcher').click();
  await expect(page.getByTestId('stop-button')).toBeDisabled();
  await expect(page.getByTestId('stop-unavailable')).toContainText('no safe way');
  await page.screenshot({ path: join(SHOTS, 'answer-teammate-stop-off.png') });

  // A plan waits for the lead: shown whole in the queue, approved as the user, typed to the lead.
  const plan = '1. Read src/auth.ts\n2. Add a failing test for the expired token\n3. Fix the check in refresh()';
  await deck.append(sim.teamId, 'team-lead', {
    from: 'researcher',
    text: JSON.stringify({ type: 'plan_approval_request', from: 'researcher', timestamp: iso(Date.now()), planFilePath: '/tmp/plan.md', planContent: plan, requestId: 'plan-29@researcher' }),
    timestamp: iso(Date.now()),
    read: false,
  });
  await page.getByTestId('needs-button').click();
  const planItem = page.getByTestId('needs-panel').locator('[data-testid="need"][data-kind="plan-approval"]');
  await expect(planItem.getByTestId('need-plan-text')).toHaveText(plan);
  await planItem.getByTestId('need-plan-feedback').fill('Keep the fix small.');
  await page.screenshot({ path: join(SHOTS, 'answer-plan.png') });
  await planItem.getByTestId('need-plan-approve').click();
  await page.getByTestId('needs-close').click();
  await page.getByTestId('member-team-lead').click();
  await page.getByTestId('pane-terminal').click();
  await expect(screen).toContainText("typed: I approve researcher's plan (request plan-29@researcher)", { timeout: 15_000 });
  expect(deck.pageProblems).toEqual([]);
});
