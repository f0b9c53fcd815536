#!/usr/bin/env node
// `npm start`: builds the app and opens it. With no team in the teams folder it starts the demo
// team first (in a temporary folder, never in ~/.claude). Where the Electron binary cannot be
// had (no download possible), it serves the same window to a browser on 127.0.0.1 instead.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { electronBinary } from './electron-binary.mjs';

const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const browserOnly = args.includes('--browser');

function teamsRoot() {
  const explicit = flag('--teams-dir');
  if (explicit) return resolve(explicit);
  if (process.env.TEAMDECK_TEAMS_DIR) return resolve(process.env.TEAMDECK_TEAMS_DIR);
  if (process.env.CLAUDE_CONFIG_DIR) return resolve(process.env.CLAUDE_CONFIG_DIR, 'teams');
  return join(homedir(), '.claude', 'teams');
}

function hasTeam(root) {
  try {
    return readdirSync(root).some((n) => {
      const dir = join(root, n);
      try {
        return statSync(dir).isDirectory() && (existsSync(join(dir, 'config.json')) || existsSync(join(dir, 'inboxes')));
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** The Electron executable; a fetch that failed once is not retried on every start. */
function findElectron() {
  try {
    const electronDir = join(require.resolve('electron/package.json'), '..');
    // Beside Electron, so that a fresh install (which may well fetch it) forgets the failure.
    const marker = join(electronDir, '..', '.cache', 'teamdeck', 'electron-fetch-failed.json');
    return electronBinary({ electronDir, marker, retry: args.includes('--fetch-electron') });
  } catch {
    return undefined;
  }
}

const children = [];
function stopAll() {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
}
process.on('SIGINT', () => {
  stopAll();
  process.exit(130);
});
process.on('SIGTERM', () => {
  stopAll();
  process.exit(143);
});

process.stdout.write('Building Teamdeck...\n');
const built = (cmd, argv) => spawnSync(cmd, argv, { stdio: ['ignore', 'ignore', 'inherit'] }).status === 0;
// The app, then the `teamdeck` command this script runs (the demo team, the browser host).
if (!built('npx', ['electron-vite', 'build']) || !built(process.execPath, ['scripts/build-cli.mjs', '--quiet'])) {
  process.stderr.write('The build failed; see the errors above.\n');
  process.exit(1);
}

const env = { ...process.env };
let root = teamsRoot();
if (!hasTeam(root)) {
  const demoBase = mkdtempSync(join(tmpdir(), 'teamdeck-demo-'));
  const demoRoot = join(demoBase, 'teams');
  process.stdout.write(`No team found in ${root}: starting the demo team in ${demoRoot}\n`);
  const demo = spawn(process.execPath, ['bin/teamdeck.mjs', 'demo', '--teams-dir', demoRoot, '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(demo);
  await new Promise((ok, fail) => {
    const rl = createInterface({ input: demo.stdout });
    rl.on('line', (line) => {
      if (line.includes('"kind":"demo"')) ok();
    });
    demo.once('exit', (code) => fail(new Error(`the demo team stopped (exit ${code})`)));
  });
  root = demoRoot;
  env.TEAMDECK_TEAMS_DIR = demoRoot;
  // The demo keeps its own journal, apart from the user's.
  env.TEAMDECK_STATE_DIR = join(demoBase, 'state');
}

const electron = browserOnly ? undefined : findElectron();
if (electron) {
  process.stdout.write(`Opening Teamdeck on ${root}\n`);
  // The CLI finds the app's engine by its teams folder; the demo's is not the default one.
  process.stdout.write(`From another terminal: npx teamdeck teams${env.TEAMDECK_TEAMS_DIR ? ` --teams-dir ${root}` : ''}\n`);
  const app = spawn(electron, ['.', ...args.filter((a) => a !== '--browser' && a !== '--fetch-electron')], { stdio: 'inherit', env });
  children.push(app);
  app.on('exit', (code) => {
    stopAll();
    process.exit(code ?? 0);
  });
} else {
  if (!browserOnly) process.stdout.write('The Electron binary is not available here; serving the same window to your browser instead.\n');
  const host = spawn(process.execPath, ['bin/teamdeck.mjs', 'serve', ...(flag('--port') ? ['--port', flag('--port')] : [])], { stdio: 'inherit', env });
  children.push(host);
  host.on('exit', (code) => {
    stopAll();
    process.exit(code ?? 0);
  });
}
