#!/usr/bin/env node
// `npm run dev:web`: the window in a browser, with hot reload, over the real engine. It runs the
// demo team (the simulator, in a temporary folder, never in ~/.claude), `teamdeck serve` on it,
// and Vite's dev server for the renderer (the renderer config of electron.vite.config.ts, as
// `electron-vite dev` uses it), which forwards the page's /ws to the host. Open the URL it prints:
// like `teamdeck serve`'s, it carries the run's token; the dev server turns it into the host's
// cookie, so reloads keep working. Ctrl+C stops all three. Edits to the renderer reload at once;
// edits to the engine or the CLI take a restart.
//
//   node scripts/dev-web.mjs [--port N]    the dev server's port (default 5173, or the next free one)
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { resolveConfig } from 'electron-vite';
import { createServer, mergeConfig } from 'vite';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const TEAMDECK = join(REPO, 'bin', 'teamdeck.mjs');
const args = process.argv.slice(2);
const portArg = args.includes('--port') ? Number(args[args.indexOf('--port') + 1]) : 5173;

const children = [];
/** The temporary folder of this run (the demo team, the host's state). */
let base;
let vite;
let stopping = false;

async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  // On the way out: the children and the temp folder must still go, whatever vite says.
  await vite?.close().catch(() => {});
  await Promise.all(
    children.map((c) => (c.exitCode !== null || c.signalCode !== null ? undefined : new Promise((r) => (c.once('exit', r), c.kill('SIGTERM'))))),
  );
  // A temp folder left behind is the system's to clear; the exit code is what matters now.
  if (base) await rm(base, { recursive: true, force: true }).catch(() => {});
  process.exit(code);
}
process.on('SIGINT', () => void stopAll(130));
process.on('SIGTERM', () => void stopAll(143));

/** Runs `teamdeck <argv>` and resolves with the first stdout line `ready` accepts, parsed. */
function teamdeck(argv, ready) {
  const child = spawn(process.execPath, [TEAMDECK, ...argv], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      let msg;
      try {
        msg = JSON.parse(line);
      } catch {
        return;
      }
      if (ready(msg)) resolve(msg);
    });
    child.once('exit', (code) => {
      if (!stopping) {
        process.stderr.write(`teamdeck ${argv[0]} stopped (exit ${code}); stopping the rest.\n`);
        reject(new Error(`teamdeck ${argv[0]} exited`));
        void stopAll(1);
      }
    });
  });
}

// The engine and the simulator as the sources have them now (rebuilt only when they changed).
if (spawnSync(process.execPath, ['scripts/build-cli.mjs', '--quiet'], { cwd: REPO, stdio: 'inherit' }).status !== 0) process.exit(1);

base = await mkdtemp(join(tmpdir(), 'teamdeck-dev-'));
const teamsDir = join(base, 'teams');
await mkdir(teamsDir);
await teamdeck(['demo', '--teams-dir', teamsDir, '--json'], (m) => m.kind === 'demo');
// A state dir of its own: the demo never mixes into the user's journal, nor waits for its lock.
const host = await teamdeck(['serve', '--teams-dir', teamsDir, '--state-dir', join(base, 'state'), '--json'], (m) => m.event === 'ready');
const token = new URL(host.url).searchParams.get('token');
const hostOrigin = `http://127.0.0.1:${host.port}`;

const { config } = await resolveConfig({ root: REPO, mode: 'development' }, 'serve');
/** The port the dev server listens on, once it does. */
const devPort = () => vite?.httpServer?.address()?.port;
const devOrigins = () => new Set([`http://127.0.0.1:${devPort()}`, `http://localhost:${devPort()}`]);

vite = await createServer(
  mergeConfig(config.renderer, {
    server: {
      host: '127.0.0.1',
      port: portArg,
      proxy: {
        // The page's socket, to the host. The host takes only its own origin: the dev page's is
        // vouched for here; anything else goes through as it came, and is refused there.
        '^/ws(\\?.*)?$': {
          target: hostOrigin,
          ws: true,
          changeOrigin: true,
          configure(proxy) {
            proxy.on('proxyReqWs', (proxyReq, req) => {
              if (devOrigins().has(String(req.headers.origin ?? '').toLowerCase())) proxyReq.setHeader('origin', hostOrigin);
            });
          },
        },
      },
    },
    plugins: [
      {
        name: 'teamdeck-dev-token-cookie',
        configureServer(server) {
          // As the host does on its own page: the token in the URL once, then its cookie (cookies
          // are not scoped by port), which the forwarded socket carries after a reload.
          server.middlewares.use((req, res, next) => {
            const given = new URL(req.url ?? '/', 'http://dev').searchParams.get('token');
            if (given === token) res.setHeader('Set-Cookie', `teamdeck_${host.port}=${token}; HttpOnly; SameSite=Strict; Path=/`);
            next();
          });
        },
      },
    ],
  }),
);
await vite.listen();
process.stdout.write(
  [
    '',
    `Teamdeck (dev) on the demo team in ${teamsDir}, over the real engine.`,
    `Open http://127.0.0.1:${devPort()}/?token=${token}`,
    `From another terminal: npx teamdeck teams --teams-dir ${teamsDir}`,
    'The URL holds this run\'s access token; keep it private. Ctrl+C stops.',
    '',
  ].join('\n'),
);
