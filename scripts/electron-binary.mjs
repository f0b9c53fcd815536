// The Electron executable for `npm start`, without a download on every start. Electron fetches
// its binary lazily (its install.js) on first use; where that fetch fails (no network to its
// host), the failure is remembered, so later starts go straight to the browser window and say
// how to try again, instead of waiting on the same failed fetch each time.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** How to ask for a new attempt, in the words every message uses. */
export const RETRY_HINT = 'npm start -- --fetch-electron';

/**
 * `electronDir`: node_modules/electron. `marker`: the file that remembers a failed fetch.
 * `retry`: fetch again even if one failed before. `say`: one line to the user.
 * Returns the executable's path, or undefined with the reason said.
 */
export function electronBinary({ electronDir, marker, retry = false, env = process.env, say = (l) => process.stdout.write(l + '\n') }) {
  const name = existsSync(join(electronDir, 'path.txt')) ? readFileSync(join(electronDir, 'path.txt'), 'utf8').trim() : undefined;
  if (env.ELECTRON_OVERRIDE_DIST_PATH) return join(env.ELECTRON_OVERRIDE_DIST_PATH, name || 'electron');
  if (name && existsSync(join(electronDir, 'dist', name))) return join(electronDir, 'dist', name);
  if (!retry && existsSync(marker)) {
    let failed = {};
    try {
      failed = JSON.parse(readFileSync(marker, 'utf8'));
    } catch {
      // An unreadable note still means a fetch failed here before.
    }
    say(`The Electron binary could not be fetched on ${failed.at ?? 'an earlier start'}${failed.why ? ` (${failed.why})` : ''}; not trying again. To try again: ${RETRY_HINT}`);
    return undefined;
  }
  say('Fetching the Electron binary (once; later starts use it)...');
  const r = spawnSync(process.execPath, [join(electronDir, 'install.js')], { encoding: 'utf8', env });
  const path = existsSync(join(electronDir, 'path.txt')) ? readFileSync(join(electronDir, 'path.txt'), 'utf8').trim() : undefined;
  if (r.status === 0 && path && existsSync(join(electronDir, 'dist', path))) {
    rmSync(marker, { force: true });
    return join(electronDir, 'dist', path);
  }
  const why = (`${r.stderr ?? ''}${r.stdout ?? ''}`.split('\n').find((l) => l.trim()) ?? `exit ${r.status}`).trim();
  mkdirSync(dirname(marker), { recursive: true });
  writeFileSync(marker, JSON.stringify({ at: new Date().toISOString(), why }) + '\n');
  say(`Could not fetch the Electron binary (${why}). Later starts will not try again; to try again: ${RETRY_HINT}`);
  return undefined;
}
