// `teamdeck serve`: the app's renderer and contract in a browser, served on 127.0.0.1 only,
// behind a per-run token (see src/browser-host/server.ts for how requests are authenticated).
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { ApiHandlers } from '../engine/api/api-handlers.js';
import { resolveStateDir, resolveTeamsRoot } from '../engine/claude/paths.js';
import { StateDirBusyError } from '../engine/service/service-types.js';
import { SettingsStore } from '../engine/service/settings.js';
import { TeamService } from '../engine/service/team-service.js';
import { withEngineSocket } from '../engine/socket/with-socket.js';
import { startDemoTeam } from '../sim/demo-team.js';
import { firstScreenRenderer } from '../browser-host/first-screen.js';
import { lastPort, rememberPort } from '../browser-host/last-port.js';
import { startHost } from '../browser-host/server.js';
import { COMMON_HELP, UsageError, intOpt, noPositionals, parseCommandArgs, stringOpt } from './args.js';
import { processIo, type Io } from './io.js';

/** The longest the URL waits for the first team to be read (a huge one is read while the page waits). */
const PRIME_MAX_MS = 1_500;

export const SERVE_HELP = [
  'usage: teamdeck serve [--port N] [--teams-dir D] [--state-dir S] [--json]',
  '',
  'Serves the Teamdeck window to a browser on this machine (127.0.0.1 only) and prints its URL.',
  'The URL carries a one-time token: anyone with the URL can use the app, so keep it private.',
  '',
  '  --port N        port to listen on (default: the last run\'s while it is free, else any free port)',
  '  --renderer-dir D  the built renderer (default: out/renderer of this checkout)',
  ...COMMON_HELP,
  '',
  'With --json a single line {"event":"ready","url":...} is printed once the host is listening.',
].join('\n');

/** out/renderer next to this checkout's sources (src/cli/serve.ts -> ../../out/renderer). */
export function defaultRendererDir(): string {
  return process.env.TEAMDECK_RENDERER_DIR
    ? resolve(process.env.TEAMDECK_RENDERER_DIR)
    : fileURLToPath(new URL('../../out/renderer', import.meta.url));
}

/**
 * How to reach this engine from another terminal: any command given this teams folder goes
 * through it, whatever state dir it uses; without the folder it would look in the default one.
 */
async function cliHint(handlers: ApiHandlers): Promise<string> {
  const root = handlers.teamsRoot;
  const flag = root === resolveTeamsRoot({ env: {} }).root ? '' : ` --teams-dir ${shellWord(root)}`;
  const snap = await handlers.calls.getSnapshot().catch(() => undefined);
  const first = snap?.ok ? snap.value.teams.find((t) => t.state !== 'ended') : undefined;
  return `From another terminal: npx teamdeck ${first ? `roster --team ${shellWord(first.id)}` : 'teams'}${flag}`;
}

function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}

export async function runServe(argv: string[], io: Io = processIo()): Promise<number> {
  let port: number | undefined;
  let rendererDir: string;
  let parsed;
  try {
    parsed = parseCommandArgs(argv, { port: { type: 'string' }, 'renderer-dir': { type: 'string' } }, false);
    noPositionals(parsed);
    port = intOpt(parsed, 'port', 0);
    if (port !== undefined && port > 65_535) throw new UsageError('--port must be at most 65535');
    rendererDir = stringOpt(parsed, 'renderer-dir') ? resolve(stringOpt(parsed, 'renderer-dir')!) : defaultRendererDir();
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.err(`teamdeck serve: ${e.message}`);
    io.err(SERVE_HELP);
    return 2;
  }
  if (parsed.common.help) {
    io.out(SERVE_HELP);
    return 0;
  }
  const { common } = parsed;
  const stateDir = resolveStateDir({ stateDir: common.stateDir });
  const settings = await SettingsStore.open(stateDir);
  if (settings.problem) io.err(`note: ${settings.problem}`);

  // The lead terminals this host launches run in Teamdeck's tmux server (or a pty here).
  const { createTerminalHost } = await import('../engine/terminals/host.js');
  let handlers: ApiHandlers;
  try {
    handlers = await ApiHandlers.create({
      terminalHost: ({ stateDir: dir, claudePath }) => (o) => createTerminalHost({ stateDir: dir, claudePath, ...o }),
      stateDir,
      settings,
      teamsDirFlag: common.teamsDir,
      // The window shows as soon as the teams are found; their histories are read right after.
      createService: (o) => withEngineSocket(new TeamService({ ...o, openInBackground: true })),
      startDemo: () => startDemoTeam(),
      // Only an authenticated browser reaches these handlers (the host checks its token first).
      via: 'browser',
      log: (message, error) => io.err(`teamdeck serve: ${message}${error instanceof Error ? `: ${error.message}` : ''}`),
    });
  } catch (e) {
    if (e instanceof StateDirBusyError) {
      io.err(`teamdeck serve: ${e.message}`);
      io.err('Another Teamdeck (the app, or another `teamdeck serve`) owns this state dir; pass --state-dir to run a second one.');
      return 1;
    }
    throw e;
  }

  const firstScreen = firstScreenRenderer({ log: (message, error) => io.err(`teamdeck serve: ${message}: ${error instanceof Error ? error.message : String(error)}`) });
  // Without --port, last run's port while it is free: bookmarks and the open tab's address survive a restart.
  const remembered = port === undefined || port === 0 ? await lastPort() : undefined;
  let host;
  for (const tryPort of remembered ? [remembered, 0] : [port ?? 0]) {
    try {
      host = await startHost({ handlers, port: tryPort, host: '127.0.0.1', rendererDir, firstScreen });
      break;
    } catch (e) {
      if (tryPort === remembered && (e as NodeJS.ErrnoException).code === 'EADDRINUSE') continue;
      await handlers.close();
      io.err(`teamdeck serve: cannot listen on 127.0.0.1:${tryPort}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      return 1;
    }
  }
  if (!host) throw new Error('the browser host did not start');
  // Only a convenience for the next start.
  if (port === undefined || port === 0) await rememberPort(host.port).catch(() => {});

  // The URL is given once a page opened from it can show its first team at once: on two cores,
  // reading that team while the browser loaded the page took twice as long as before it.
  await host.primeFirstPage(PRIME_MAX_MS);
  if (common.json) {
    io.out(JSON.stringify({ event: 'ready', url: host.url, port: host.port, teamsRoot: handlers.teamsRoot, stateDir }));
  } else {
    io.out(`Teamdeck is serving ${handlers.teamsRoot}`);
    io.out(`Open ${host.url}`);
    io.out(await cliHint(handlers));
    io.out('The URL holds this run\'s access token; keep it private. Ctrl+C stops.');
  }

  const signal = await io.untilStopped();
  await host.close();
  await handlers.close();
  if (common.json) io.out(JSON.stringify({ event: 'stopped', signal }));
  return 0;
}
