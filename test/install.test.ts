// Issue 28, item 13: what `npm install` and `npm start` say on a machine like this one. Every
// dependency's install script is reviewed (so npm names none as unreviewed), the Node version
// range is one this toolchain meets, and a failed Electron fetch is not retried on every start.
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
// @ts-expect-error: a plain .mjs script, run by `npm start`, with no type declarations.
import { electronBinary, RETRY_HINT } from '../scripts/electron-binary.mjs';
import { useTempDirs } from './helpers/tmp.js';

const root = new URL('..', import.meta.url);
const json = async (name: string) => JSON.parse(await readFile(new URL(name, root), 'utf8')) as Record<string, unknown>;

describe('install', () => {
  it('lists every dependency with an install script in allowScripts, and nothing else', async () => {
    const lock = (await json('package-lock.json')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = Object.entries(lock.packages)
      .filter(([, v]) => v.hasInstallScript)
      .map(([k]) => k.slice(k.lastIndexOf('node_modules/') + 'node_modules/'.length))
      .sort();
    const pkg = (await json('package.json')) as { allowScripts?: Record<string, boolean> };
    expect(Object.keys(pkg.allowScripts ?? {}).sort()).toEqual(withScripts);
  });

  it('asks for a Node this toolchain has (20.19 and later), and the running Node meets it', async () => {
    const pkg = (await json('package.json')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe('>=20.19');
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
    expect(major > 20 || (major === 20 && minor >= 19)).toBe(true);
  });
});

const tmp = useTempDirs();

describe('the Electron binary for npm start', () => {
  /** An electron package whose install.js fails (no network), counting its runs. */
  async function failingElectron() {
    const dir = await tmp();
    const electronDir = join(dir, 'node_modules', 'electron');
    await mkdir(electronDir, { recursive: true });
    const count = join(dir, 'runs');
    await writeFile(join(electronDir, 'install.js'), `require('fs').appendFileSync(${JSON.stringify(count)}, 'x'); console.error('getaddrinfo ENOTFOUND github.com'); process.exit(1);`);
    const runs = async () => (existsSync(count) ? (await readFile(count, 'utf8')).length : 0);
    return { electronDir, marker: join(dir, 'node_modules', '.cache', 'teamdeck', 'electron-fetch-failed.json'), runs };
  }

  it('tries the fetch once; later starts say it failed and how to retry, without fetching', async () => {
    const e = await failingElectron();
    const said: string[] = [];
    const env = { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: '' };
    expect(electronBinary({ ...e, env, say: (l: string) => said.push(l) })).toBeUndefined();
    expect(await e.runs()).toBe(1);
    expect(said.at(-1)).toBe(`Could not fetch the Electron binary (getaddrinfo ENOTFOUND github.com). Later starts will not try again; to try again: ${RETRY_HINT}`);
    for (let i = 0; i < 2; i++) expect(electronBinary({ ...e, env, say: (l: string) => said.push(l) })).toBeUndefined();
    expect(await e.runs()).toBe(1);
    expect(said.at(-1)).toMatch(/^The Electron binary could not be fetched on \d{4}-\d\d-\d\dT.* \(getaddrinfo ENOTFOUND github\.com\); not trying again\. To try again: npm start -- --fetch-electron$/);
    // Asked for, it tries again.
    electronBinary({ ...e, env, retry: true, say: () => {} });
    expect(await e.runs()).toBe(2);
  });

  it('uses a binary that is there without fetching anything', async () => {
    const e = await failingElectron();
    await writeFile(join(e.electronDir, 'path.txt'), 'electron');
    await mkdir(join(e.electronDir, 'dist'));
    await writeFile(join(e.electronDir, 'dist', 'electron'), '');
    expect(electronBinary({ ...e, env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: '' }, say: () => {} })).toBe(join(e.electronDir, 'dist', 'electron'));
    expect(await e.runs()).toBe(0);
  });
});
