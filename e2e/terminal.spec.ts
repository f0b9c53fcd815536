// The hosted lead terminal, end to end: Settings points "claude" at a stand-in terminal program
// (e2e/helpers/echo-lead.mjs: it shows what reaches it), the launch dialog starts it in
// Teamdeck's own tmux server through the real core, and the xterm pane shows it. Typing arrives
// and echoes, a smaller window is fitted and the program is told its new size (SIGWINCH), a
// multi-line paste arrives whole inside bracketed-paste markers (the program asked for them),
// by the paste event and by Ctrl+Shift+V, and Ctrl+Shift+C copies the selection. Once a session
// team with the lead's pid appears (written here as Claude writes it), the team opens on the
// lead's Terminal tab, and its compose box says a message is typed into the terminal as you.
// Ctrl+D ends the program and the pane says so; Close removes it. All under the strict CSP, with
// no violation. This tests the terminal's mechanics, not Claude: the real binary has its own specs.
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { tmuxSocketName } from '../src/engine/terminals/tmux-client.js';
import { createTeam } from '../src/sim/simulator.js';
import { REPO, test, expect, sentRow } from './fixtures.js';

const STAND_IN = join(REPO, 'e2e', 'helpers', 'echo-lead.mjs');
const SHOTS = join(REPO, 'test-results', 'screenshots');
const run = promisify(execFile);

let tmuxServer: string | undefined;
test.afterEach(async () => {
  // The server keeps a lead (and a dead pane) on purpose: a spec's own one goes with it.
  if (tmuxServer) await run('tmux', ['-L', tmuxServer, 'kill-server']).catch(() => undefined);
  tmuxServer = undefined;
});

test('a launched lead in a hosted terminal: typing, resizing, paste and copy, its team’s Terminal tab, exit and close', async ({ page, deck }) => {
  await page.addInitScript(
    "window.__cspViolations = []; document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber));",
  );
  await mkdir(SHOTS, { recursive: true });
  tmuxServer = tmuxSocketName(deck.stateDir);
  await deck.open(page);
  await expect(page.getByTestId('empty-state')).toBeVisible();

  // Settings: the stand-in instead of claude from the PATH.
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-claude-path').fill(STAND_IN);
  await page.getByTestId('settings').getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('settings')).toBeHidden();
  await expect(page.getByTestId('launch-open')).toBeVisible();

  // The dialog from its shortcut; Enter in a field launches.
  await page.keyboard.press('Control+Shift+L');
  const dialog = page.getByTestId('launch-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('launch-cwd').fill(deck.base);
  await dialog.getByTestId('launch-prompt').fill('say hi');
  await dialog.getByTestId('launch-mode').selectOption('plan');
  await page.screenshot({ path: join(SHOTS, 'launch-dialog.png') });
  await dialog.getByTestId('launch-cwd').press('Enter');
  await expect(dialog).toBeHidden();

  // The new terminal, on its own until a team appears (this program makes none).
  const pane = page.getByTestId('terminal-pane');
  const screen = pane.locator('.xterm-rows');
  const size = pane.getByTestId('terminal-screen');
  await expect(page.getByTestId('terminal-view')).toBeVisible();
  await expect(screen).toContainText('echo-lead ready', { timeout: 20_000 });
  // What the host passed claude: the permission mode and the first prompt.
  await expect(screen).toContainText('args: --permission-mode plan -- say hi');
  // The program runs at the pane's size.
  const first = await size.getAttribute('data-size');
  expect(first).toMatch(/^\d+x\d+$/);
  await expect(screen).toContainText(`size ${first}`);
  await expect(page.getByTestId('team-switcher').locator('optgroup[label="Terminals"] option')).toHaveCount(1);

  // Typing: the pane took the focus when it opened.
  await page.keyboard.type('hello terminal');
  await page.keyboard.press('Enter');
  await expect(screen).toContainText('typed: hello terminal');
  await page.screenshot({ path: join(SHOTS, 'terminal-typing.png') });

  // A smaller window: fitted, and the program hears its new size.
  await page.setViewportSize({ width: 960, height: 640 });
  await expect(size).not.toHaveAttribute('data-size', first!);
  const second = (await size.getAttribute('data-size'))!;
  expect(Number(second.split('x')[0])).toBeLessThan(Number(first!.split('x')[0]));
  await expect(screen).toContainText(`size ${second}`);
  await page.screenshot({ path: join(SHOTS, 'terminal-resized.png') });

  // A multi-line paste through the paste event: one unit, inside the markers the program asked for.
  await page.evaluate(
    "(() => { const dt = new DataTransfer(); dt.setData('text/plain', 'first line\\nsecond line\\nthird line'); document.querySelector('[data-testid=terminal-pane] .xterm-helper-textarea').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true })); })()",
  );
  await expect(screen).toContainText('paste [3 lines, bracketed]: first line | second line | third line');
  await page.screenshot({ path: join(SHOTS, 'terminal-paste.png') });

  // Ctrl+Shift+V pastes the clipboard (once), and Ctrl+Shift+C copies what is selected.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate("navigator.clipboard.writeText('from the clipboard\\nline two')");
  await page.keyboard.press('Control+Shift+V');
  await expect(screen).toContainText('paste [2 lines, bracketed]: from the clipboard | line two');
  await expect(screen.getByText('from the clipboard | line two')).toHaveCount(1);
  const row = (await screen.locator(':scope > div').first().boundingBox())!;
  await page.mouse.move(row.x + 1, row.y + row.height / 2);
  await page.mouse.down();
  await page.mouse.move(row.x + 200, row.y + row.height / 2, { steps: 5 });
  await page.mouse.up();
  await page.keyboard.press('Control+Shift+C');
  await expect.poll(() => page.evaluate('navigator.clipboard.readText()')).toMatch(/^echo-lead/);

  // Claude makes the lead's session team (written here, with the pid running in the pane): the
  // team opens in place of the lone terminal, on its lead's Terminal tab.
  const panes = await run('tmux', ['-L', tmuxServer, 'list-panes', '-a', '-F', '#{pane_pid}']);
  const pid = Number(panes.stdout.trim());
  expect(pid).toBeGreaterThan(1);
  await createTeam({ teamsDir: deck.teamsDir, era: 'current', pid, members: ['researcher'], cwd: deck.base });
  await expect(page.getByTestId('pane-terminal')).toHaveAttribute('aria-selected', 'true', { timeout: 20_000 });
  await expect(screen).toContainText('paste [3 lines, bracketed]');
  await page.screenshot({ path: join(SHOTS, 'terminal-team-tab.png') });

  // Thread: the compose box says how a message goes, and a sent one says it was typed as you.
  await page.getByTestId('pane-thread').click();
  await expect(page.getByTestId('compose-arrival')).toContainText("typed into the lead's terminal");
  await expect(page.getByTestId('channel-terminal')).toHaveAttribute('aria-checked', 'true');
  await page.getByTestId('compose').fill('status, please');
  await page.getByTestId('compose').press('Enter');
  await expect(sentRow(page, 'status, please').getByTestId('sent-as')).toHaveText('typed as you');
  await expect(sentRow(page, 'status, please')).toBeInViewport();
  await page.screenshot({ path: join(SHOTS, 'terminal-channel.png') });
  // Back on the Terminal tab (remembered for this team): the keyboard goes to the program again.
  await page.getByTestId('pane-terminal').click();
  await expect(screen).toContainText('paste [2 lines');

  // Ctrl+D: the program exits with code 3; its screen stays, with when it exited and a Close button.
  await page.keyboard.press('Control+d');
  const exited = page.getByTestId('terminal-exited');
  await expect(exited).toContainText('The lead exited (code 3)', { timeout: 20_000 });
  await expect(screen).toContainText('bye');
  await page.screenshot({ path: join(SHOTS, 'terminal-exited.png') });
  await exited.getByTestId('terminal-close').click();
  // The terminal is gone; the team's history stays, without a Terminal tab.
  await expect(page.getByTestId('pane-terminal')).toHaveCount(0);
  await expect(page.getByTestId('pane-thread')).toHaveAttribute('aria-selected', 'true');

  expect(await page.evaluate('window.__cspViolations')).toEqual([]);
  expect(deck.pageProblems).toEqual([]);
});
