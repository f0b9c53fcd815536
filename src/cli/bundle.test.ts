// The `teamdeck` command runs the built bundle (out/cli/teamdeck.cjs, see scripts/build-cli.mjs):
// no TypeScript compiled at run time, no module resolved from node_modules to list a roster, and
// every command in the registry loads under its own name. The package's bin (bin/teamdeck.cjs)
// and the path scripts and tests use (bin/teamdeck.mjs) are the same command.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pkg from '../../package.json' with { type: 'json' };
import { COMMANDS, loadCommand } from './main.js';
import { BIN as SCRIPT_BIN, cliEnv, runCli, type Done } from '../../test/helpers/cli-kit.js';

const PACKAGE_BIN = fileURLToPath(new URL(`../../${pkg.bin.teamdeck}`, import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'teamdeck-bundle-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function run(args: string[], nodeArgs: string[] = [], bin = PACKAGE_BIN): Promise<Done> {
  return runCli(args, { nodeArgs, bin, env: cliEnv(['NODE_OPTIONS']) });
}

/** Node flags that log every file the process loads, ES module or CommonJS, into `log`. */
async function loadLogger(log: string): Promise<string[]> {
  const hooks = join(dir, 'hooks.mjs');
  const register = join(dir, 'register.mjs');
  const preload = join(dir, 'preload.cjs');
  const logText = JSON.stringify(log);
  await writeFile(hooks, `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { if (url.startsWith('file:')) appendFileSync(${logText}, url + '\\n'); return next(url, context); }\n`);
  await writeFile(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  await writeFile(preload, `process.on('exit', () => require('node:fs').appendFileSync(${logText}, Object.keys(require.cache).map((f) => 'cjs:' + f + '\\n').join('')));\n`);
  return ['--import', pathToFileURL(register).href, '--require', preload];
}

describe('the teamdeck command', () => {
  it('lists a roster from the bundle alone: no .ts file, nothing from node_modules', async () => {
    const teams = join(dir, 'teams');
    const gen = await run(['gen', '--teams-dir', teams, '--messages', '50', '--members', '3', '--json']);
    expect(gen.code, gen.stderr).toBe(0);
    const team = (JSON.parse(gen.stdout) as { teams: { id: string }[] }).teams[0]!.id;

    const log = join(dir, 'loaded.txt');
    const r = await run(['roster', '--json', '--team', team, '--teams-dir', teams, '--state-dir', join(dir, 'state')], await loadLogger(log));
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { name: string }[]).map((m) => m.name)).toHaveLength(3);

    const loaded = (await readFile(log, 'utf8')).split('\n').filter(Boolean).filter((l) => !l.startsWith(`cjs:${dir}`) && !l.includes(encodeURI(dir)));
    expect(loaded).toContain(`cjs:${PACKAGE_BIN}`);
    expect(loaded.filter((l) => /\.[cm]?ts$/.test(l) || l.includes('/node_modules/'))).toEqual([]);
  });

  it('has every registered command under its own name, with a summary', async () => {
    expect(COMMANDS.size).toBeGreaterThan(10);
    for (const name of COMMANDS.keys()) {
      const c = await loadCommand(name);
      expect(c?.name).toBe(name);
      expect(c?.summary.length).toBeGreaterThan(10);
    }
    expect(await loadCommand('nope')).toBeUndefined();
    expect(await loadCommand('constructor')).toBeUndefined();
  });

  it('prints the full usage listing every command, and one command\'s help, from either path', async () => {
    expect(pkg.bin.teamdeck).toBe('bin/teamdeck.cjs');
    const all = await run(['--help'], [], SCRIPT_BIN);
    expect(all.code).toBe(0);
    for (const name of COMMANDS.keys()) expect(all.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    const one = await run(['roster', '--help'], [], SCRIPT_BIN);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('usage: teamdeck roster --team T');
  });
});

describe('the code cache of a command', () => {
  it('is written after a run that succeeded, never after one that failed (it would hold only part of the code, for good)', async () => {
    const cache = join(dir, 'cache');
    const env = { ...cliEnv(['NODE_OPTIONS']), TEAMDECK_CLI_CACHE_DIR: cache };
    const teams = join(dir, 'teams');
    await mkdir(teams);
    const failed = await runCli(['roster', '--teams-dir', teams, '--state-dir', join(dir, 'state'), '--team', 'nope'], { bin: PACKAGE_BIN, env });
    expect(failed.code).not.toBe(0);
    expect(await readdir(cache).catch(() => [])).toEqual([]);
    const listed = await runCli(['teams', '--json', '--teams-dir', teams, '--state-dir', join(dir, 'state')], { bin: PACKAGE_BIN, env });
    expect(listed.code, listed.stderr).toBe(0);
    expect((await readdir(cache)).filter((n) => n.startsWith('teams-') && n.endsWith('.v8'))).toHaveLength(1);
  });

  it('written by a run that loaded SQLite (which changes a V8 flag), is still one the next start accepts', async () => {
    const cache = join(dir, 'cache');
    const env = { ...cliEnv(['NODE_OPTIONS']), TEAMDECK_CLI_CACHE_DIR: cache };
    const teams = join(dir, 'teams');
    await mkdir(teams);
    const searched = await runCli(['search', 'anything', '--json', '--teams-dir', teams, '--state-dir', join(dir, 'state')], { bin: PACKAGE_BIN, env });
    expect(searched.code, searched.stderr).toBe(0);
    // SQLite was loaded: the index is there.
    expect(await readdir(join(dir, 'state', 'search'))).toContain('index.sqlite');
    const [file] = (await readdir(cache)).filter((n) => n.startsWith('search-') && n.endsWith('.v8'));
    expect(file).toBeDefined();
    // A fresh process, with V8's default flags as every start has: the same script bin/teamdeck.cjs compiles.
    const bundle = fileURLToPath(new URL('../../out/cli/teamdeck.cjs', import.meta.url));
    const check = `const fs = require('node:fs'), vm = require('node:vm');
      const src = fs.readFileSync(${JSON.stringify(bundle)}, 'latin1');
      const s = new vm.Script('(function (exports, require, module, __filename, __dirname) {' + src + '\\n})', { filename: ${JSON.stringify(bundle)}, cachedData: fs.readFileSync(${JSON.stringify(join(cache, file!))}) });
      process.stdout.write(String(s.cachedDataRejected));`;
    expect(execFileSync(process.execPath, ['-e', check], { encoding: 'utf8', env: cliEnv(['NODE_OPTIONS']) })).toBe('false');
  });
});

