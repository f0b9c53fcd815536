// The real Electron shell, where its binary is installed. The binary is downloaded lazily on a
// user's machine; where it is absent (offline CI) this spec skips and says why, instead of
// letting a failed launch leave unhandled rejections behind.
import { _electron as electron } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CALL_NAMES } from '../src/shared/contract.js';
import { test, expect, REPO } from './fixtures.js';

/** Where Electron's own launcher would look (node_modules/electron/index.js), without downloading. */
function electronBinary(): { path: string } | { missing: string } {
  const pkg = join(REPO, 'node_modules', 'electron');
  const pathTxt = join(pkg, 'path.txt');
  const rel = existsSync(pathTxt) ? readFileSync(pathTxt, 'utf8').trim() : undefined;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const bin = join(override, rel || 'electron');
    return existsSync(bin) ? { path: bin } : { missing: `ELECTRON_OVERRIDE_DIST_PATH names ${bin}, which does not exist` };
  }
  if (!rel) return { missing: 'node_modules/electron/path.txt is missing: the Electron binary has not been downloaded' };
  const bin = join(pkg, 'dist', rel);
  return existsSync(bin) ? { path: bin } : { missing: `node_modules/electron/path.txt names ${bin}, which does not exist` };
}

const binary = electronBinary();
const built = existsSync(join(REPO, 'out', 'main', 'index.js')) && existsSync(join(REPO, 'out', 'preload', 'index.cjs'));

test('the Electron window is sandboxed, exposes only the contract, and shows the team', async ({ deck }) => {
  test.skip('missing' in binary, 'missing' in binary ? binary.missing : '');
  test.skip(!built, 'out/ is not built (npm run build)');
  if (!('path' in binary)) return;
  await deck.createTeam('alpha', ['researcher']);
  const app = await electron.launch({
    executablePath: binary.path,
    args: [REPO, '--teams-dir', deck.teamsDir, '--state-dir', deck.stateDir, ...(process.platform === 'linux' ? ['--no-sandbox'] : [])],
    env: { ...process.env, TEAMDECK_TEAMS_DIR: '', TEAMDECK_STATE_DIR: '', ELECTRON_RENDERER_URL: '' } as Record<string, string>,
  });
  try {
    const page = await app.firstWindow();
    await expect(page.getByTestId('app')).toHaveAttribute('data-phase', 'ready');
    await expect(page.getByTestId('member-researcher')).toBeVisible();

    const surface = (await page.evaluate('Object.keys(window.teamdeck).sort()')) as string[];
    expect(surface).toEqual([...CALL_NAMES, 'onEvent'].sort());
    expect(await page.evaluate('typeof require')).toBe('undefined');
    expect(await page.evaluate('typeof process')).toBe('undefined');
    expect(await page.evaluate('typeof window.ipcRenderer')).toBe('undefined');
    expect(await page.evaluate("window.open('https://example.com/')")).toBeNull();

    // The renderer runs sandboxed and isolated: the page sees no Node, and the preload's world is not its own.
    expect(await page.evaluate("typeof window.teamdeck.getSnapshot")).toBe('function');
    expect(await page.evaluate('Object.getOwnPropertyNames(window).includes("electron")')).toBe(false);

    // Navigation away is denied: the app page stays.
    const before = page.url();
    await page.evaluate("location.href = 'https://example.com/'");
    await expect.poll(() => page.url()).toBe(before);

    // A bad payload comes back as a Result, not an exception.
    expect(await page.evaluate("window.teamdeck.send({ team: 'alpha', to: 'researcher', text: 'x', from: 'team-lead' })")).toMatchObject({
      ok: false,
      error: { code: 'invalid' },
    });
  } finally {
    await app.close();
  }
});
