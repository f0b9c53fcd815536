#!/usr/bin/env node
// `npm start`: builds the app and opens it. With no team in the teams folder it starts the demo
// team first (in a temporary folder, never in ~/.claude). Where the Electron binary cannot be
// had (no download possible), it serves the same window to a browser on 127.0.0.1 instead.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

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

/** The Electron executable, without triggering a download when it is missing. */
function electronBinary() {
  try {
    const dir = join(require.resolve('electron/package.json'), '..');
    const name = existsSync(join(dir, 'path.txt')) ? readFileSync(join(dir, 'path.txt'), 'utf8').trim() : undefined;
    if (process.env.ELECTRON_OVERRIDE_DIST_PATH) return join(process.env.ELECTRON_OVERRIDE_DIST_PATH, name || 'electron');
    if (name && existsSync(join(dir, 'dist', name))) return join(dir, 'dist', name);
    // Not there yet: Electron's own installer fetches it on first use.
    process.stdout.write('Fetching the Electron binary (first start only)...\n');
    const r = spawnSync(process.execPath, [join(dir, 'install.js')], { encoding: 'utf8' });
    if (r.status !== 0) {
      const why = `${r.stderr ?? ''}${r.stdout ?? ''}`.split('\n').find((l) => l.trim()) ?? `exit ${r.status}`;
      process.stdout.write(`Could not fetch the Electron binary (${why.trim()}).\n`);
      return undefined;
    }
    const again = readFileSync(join(dir, 'path.txt'), 'utf8').trim();
    return existsSync(join(dir, 'dist', again)) ? join(dir, 'dist', again) : undefined;
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

const electron = browserOnly ? undefined : electronBinary();
if (electron) {
  process.stdout.write(`Opening Teamdeck on ${root}\n`);
  // The CLI finds the app's engine by its teams folder; the demo's is not the default one.
  process.stdout.write(`From another terminal: npx teamdeck teams${env.TEAMDECK_TEAMS_DIR ? ` --teams-dir ${root}` : ''}\n`);
  const app = spawn(electron, ['.', ...args.filter((a) => a !== '--browser')], { stdio: 'inherit', env });
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
