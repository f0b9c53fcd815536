// A team that Teamdeck itself launched: the stand-in API, a scratch home, a `teamdeck watch`
// engine (which hosts the lead terminals of its state dir) and `teamdeck launch` starting the
// real interactive lead in Teamdeck's own tmux server. The engine can be killed and started
// again while the lead runs on. Tests reach the lead's terminal the way the app does: through
// the engine (terminalInput), or read it with tmux on Teamdeck's own server.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngineSocketClient } from '../../../src/engine/socket/client.js';
import { tmuxSocketName } from '../../../src/engine/terminals/tmux-client.js';
import type { TerminalInfo } from '../../../src/shared/types.js';
import { LEAD_TOKEN, startApiStandin, type ApiStandin } from './api-standin.js';
import { claudeForTests } from './binary.js';
import { makeRunDir, type RunDir } from './home.js';
import { startObserver, type Observer } from './observer.js';
import { directiveScript, type Script } from './script.js';
import { startWatch, teamdeckCli, type TeamdeckCli, type WatchEngine } from './teamdeck-cli.js';
import { leadEnv } from './tmux-lead.js';
import { waitFor } from './wait.js';

export interface LaunchOptions {
  teammates?: string[];
  prompts?: Record<string, string>;
  scripts?: Record<string, Script>;
  /** `bypassPermissions` (no dialogs) by default; `default` asks in the lead's terminal. */
  permissionMode?: 'bypassPermissions' | 'default';
}

export interface LaunchedTeam {
  run: RunDir;
  api: ApiStandin;
  observer: Observer;
  cli: TeamdeckCli;
  engine: WatchEngine;
  stateDir: string;
  terminal: TerminalInfo;
  teamName: string;
  teamDir: string;
  leadPid: number;
  /** Kills the engine (SIGKILL by default) and starts a new one on the same state dir. */
  restartEngine(signal?: NodeJS.Signals): Promise<void>;
  /** The engine's socket, as the app's other clients reach it (terminalInput, terminals, channels). */
  client(): Promise<EngineSocketClient>;
  /** The lead's visible screen, read from Teamdeck's own tmux server. */
  screen(): string;
  /** Every row of the lead's transcript so far. */
  leadRows(): Record<string, unknown>[];
  leadAlive(): boolean;
  report(): string;
  stop(): Promise<void>;
}

/** Teamdeck's tmux server for a state dir: the engine's own naming, so a test kills exactly that server. */
export { tmuxSocketName as teamdeckTmuxName };

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

export async function startLaunchedTeam(opts: LaunchOptions = {}): Promise<LaunchedTeam> {
  const binary = claudeForTests();
  if ('skip' in binary) throw new Error(binary.skip);
  const teammates = opts.teammates ?? [];
  const api = await startApiStandin({ default: directiveScript({ prompts: opts.prompts }), ...opts.scripts });
  const run = makeRunDir('teamdeck-launch-');
  const observer = startObserver(run.configDir);
  const stateDir = join(run.run, 'state');
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  // The claude the app would run: a path in Settings.
  writeFileSync(join(stateDir, 'settings.json'), JSON.stringify({ claudePath: binary.path }));
  const manual = opts.permissionMode === 'default';
  // What a launched lead needs to run offline against the stand-in; Teamdeck passes its own
  // environment on to the leads it launches. tmux keeps its socket inside the run.
  const env: NodeJS.ProcessEnv = { ...leadEnv(run, api.url), TMUX_TMPDIR: run.run };
  if (manual) delete env.IS_SANDBOX;
  const paths = { teamsDir: run.teamsDir, stateDir, home: run.home, env };
  const cli = teamdeckCli(paths);
  let engine = await startWatch(paths);
  const tmuxName = tmuxSocketName(stateDir);
  const tmux = (args: string[]) => spawnSync('tmux', ['-L', tmuxName, ...args], { env: { ...process.env, TMUX_TMPDIR: run.run }, encoding: 'utf8', timeout: 10_000 });
  const launchedLead: { pid?: number } = {};
  const cleanup = async () => {
    observer.stop();
    await engine.stop().catch(() => {});
    tmux(['kill-server']);
    // The lead cleans up after its pty closes (SIGHUP): let it finish before the run folder goes.
    const lp = launchedLead.pid;
    if (lp !== undefined) await waitFor(() => !alive(lp), { what: 'the lead to exit', timeoutMs: 5_000 }).catch(() => undefined);
    await api.close();
    if (!process.env.TEAMDECK_CLAUDE_KEEP_RUN) run.remove();
  };
  const prompt = `${LEAD_TOKEN} Start the team. ${teammates.map((n) => `[[SPAWN:${n}]]`).join(' ')}`;
  let launched: { terminal: TerminalInfo; team?: string };
  try {
    const r = await cli.run(['launch', '--cwd', run.proj, '--permission-mode', manual ? 'default' : 'bypassPermissions', '--prompt', prompt, '--json'], { timeoutMs: 40_000 });
    if (r.code !== 0) throw new Error(`teamdeck launch exited ${r.code}: ${r.stderr.trim()} ${r.stdout.trim()}`);
    launched = JSON.parse(r.stdout) as { terminal: TerminalInfo; team?: string };
    if (!launched.team) throw new Error(`teamdeck launch did not name the team: ${r.stdout}`);
  } catch (e) {
    const screen = tmux(['capture-pane', '-p', '-a', '-t', '0']).stdout;
    await cleanup();
    throw new Error(`${(e as Error).message}\n--- screen ---\n${screen}\n${cli.report()}\n--- engine ---\n${engine.stderr()}`);
  }
  const teamName = launched.team;
  const teamDir = join(run.teamsDir, teamName);
  const terminal = launched.terminal;
  const pid = terminal.pid!;
  launchedLead.pid = pid;
  const screen = () => tmux(['capture-pane', '-p', '-t', terminal.id]).stdout;
  const configOf = () => JSON.parse(readFileSync(join(teamDir, 'config.json'), 'utf8')) as { leadSessionId: string; members: { name: string }[] };
  const leadRows = () => {
    let sessionId: string;
    try {
      sessionId = configOf().leadSessionId;
    } catch {
      return [];
    }
    const slug = run.proj.replace(/[^A-Za-z0-9]/g, '-');
    try {
      return readFileSync(join(run.projectsDir, slug, `${sessionId}.jsonl`), 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .flatMap((l) => {
          try {
            return [JSON.parse(l) as Record<string, unknown>];
          } catch {
            return [];
          }
        });
    } catch {
      return [];
    }
  };
  const team: LaunchedTeam = {
    run,
    api,
    observer,
    cli,
    get engine() {
      return engine;
    },
    stateDir,
    terminal,
    teamName,
    teamDir,
    leadPid: pid,
    restartEngine: async (signal = 'SIGKILL') => {
      process.kill(engine.pid, signal);
      await engine.stop();
      engine = await startWatch(paths);
    },
    client: async () => {
      const c = new EngineSocketClient({ stateDir, events: false });
      await c.start();
      return c;
    },
    screen,
    leadRows,
    leadAlive: () => alive(pid),
    report: () =>
      [
        `run dir: ${run.run}`,
        '--- lead screen ---',
        screen(),
        '--- engine stderr ---',
        engine.stderr().slice(-3000),
        cli.report(),
        '--- model requests ---',
        ...api.log.map((r) => `#${r.seq} ${r.agent} new: ${JSON.stringify(r.newText.slice(0, 300))} -> ${JSON.stringify(r.reply ?? r.status)}`),
      ].join('\n'),
    stop: cleanup,
  };
  try {
    if (teammates.length) {
      await waitFor(() => {
        try {
          const names = configOf().members.map((m) => m.name);
          return teammates.every((n) => names.includes(n));
        } catch {
          return false;
        }
      }, { what: `teammates ${teammates.join(', ')} in config.json`, timeoutMs: 20_000, intervalMs: 50 });
    }
  } catch (e) {
    const r = team.report();
    await cleanup();
    throw new Error(`${(e as Error).message}\n${r}`);
  }
  return team;
}
