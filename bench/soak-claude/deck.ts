// The soak's world: one scratch home with the scripted Messages API on 127.0.0.1, an observer
// of the team files, a state dir served by a `teamdeck watch` engine child that can be
// SIGKILLed and started again, the `teamdeck` command, and leads that `teamdeck launch` starts
// one after another in Teamdeck's own tmux server (the engine hosts their terminals). Built from
// the contract tests' harness pieces; unlike startLaunchedTeam it outlives any one team.
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngineSocketClient } from '../../src/engine/socket/client.js';
import type { TerminalInfo } from '../../src/shared/types.js';
import { startApiStandin, type ApiStandin } from '../../test/claude/harness/api-standin.js';
import { claudeForTests } from '../../test/claude/harness/binary.js';
import { makeRunDir, type RunDir } from '../../test/claude/harness/home.js';
import { teamdeckTmuxName } from '../../test/claude/harness/launched.js';
import { startObserver, type Observer } from '../../test/claude/harness/observer.js';
import type { Script } from '../../test/claude/harness/script.js';
import { startWatch, teamdeckCli, type TeamdeckCli, type WatchEngine } from '../../test/claude/harness/teamdeck-cli.js';
import { leadEnv } from '../../test/claude/harness/tmux-lead.js';
import { delay, waitFor } from '../../test/claude/harness/wait.js';

export interface DeckOptions {
  scripts: Record<string, Script>;
  /** TEAMDECK_BREAK for the engine and the command (a deliberately broken engine), if any. */
  breakEngine?: string;
}

export interface LaunchedLead {
  team: string;
  terminal: TerminalInfo;
  pid: number;
  launchedAt: number;
}

export interface Deck {
  run: RunDir;
  api: ApiStandin;
  observer: Observer;
  cli: TeamdeckCli;
  stateDir: string;
  /** The engine now running, if one is. */
  engine(): WatchEngine | undefined;
  /** Starts `teamdeck watch`, trying again while a one-shot command holds the state dir. */
  startEngine(): Promise<WatchEngine>;
  /** SIGKILL, and waits for the process to be gone. */
  killEngine(): Promise<void>;
  /** SIGTERM (the engine's clean stop). */
  stopEngine(): Promise<void>;
  /** A client of the running engine's socket. */
  client(): Promise<EngineSocketClient>;
  /** `teamdeck launch` with this first prompt; resolves once the team has every teammate in config.json. */
  launch(prompt: string, teammates: string[]): Promise<LaunchedLead>;
  /** tmux on Teamdeck's own server (where the launched leads run). */
  tmux(args: string[]): { status: number | null; stdout: string; stderr: string };
  /** The same without blocking (for polling a screen while sends are under way). */
  tmuxOut(args: string[]): Promise<string>;
  teamDir(team: string): string;
  inbox(team: string, member: string): string;
  /** Every engine of the run, in order: its pid, the delivery events it printed, its stderr. */
  engines(): Array<{ pid: number; events: WatchEngine['events']; stderr: string }>;
  close(opts: { keep: boolean }): Promise<void>;
}

export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

export async function openDeck(opts: DeckOptions): Promise<Deck> {
  const binary = claudeForTests();
  if ('skip' in binary) throw new Error(binary.skip);
  const api = await startApiStandin(opts.scripts);
  const run = makeRunDir('teamdeck-soak-claude-');
  const observer = startObserver(run.configDir);
  const stateDir = join(run.run, 'state');
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  writeFileSync(join(stateDir, 'settings.json'), JSON.stringify({ claudePath: binary.path }));
  // What a launched lead needs offline; Teamdeck passes its environment on to the leads it launches.
  const env: NodeJS.ProcessEnv = { ...leadEnv(run, api.url), TMUX_TMPDIR: run.run, ...(opts.breakEngine ? { TEAMDECK_BREAK: opts.breakEngine } : {}) };
  const paths = { teamsDir: run.teamsDir, stateDir, home: run.home, env };
  const cli = teamdeckCli(paths);
  const tmuxName = teamdeckTmuxName(stateDir);
  const tmuxEnv = { ...process.env, TMUX_TMPDIR: run.run };
  const tmux = (args: string[]) => {
    const r = spawnSync('tmux', ['-L', tmuxName, ...args], { env: tmuxEnv, encoding: 'utf8', timeout: 10_000 });
    return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
  };
  const tmuxOut = (args: string[]) =>
    new Promise<string>((resolve) => execFile('tmux', ['-L', tmuxName, ...args], { env: tmuxEnv, encoding: 'utf8', timeout: 10_000 }, (_e, stdout) => resolve(stdout ?? '')));
  let engine: WatchEngine | undefined;
  const all: WatchEngine[] = [];
  const leads: number[] = [];

  const startEngine = async (): Promise<WatchEngine> => {
    if (engine?.alive()) return engine;
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        engine = await startWatch(paths);
        all.push(engine);
        return engine;
      } catch (e) {
        // A one-shot `teamdeck send` may hold the state dir for a moment while no engine runs.
        if (Date.now() > deadline || !/busy|in use|lock/i.test((e as Error).message)) throw e;
        await delay(100);
      }
    }
  };

  const teamDir = (team: string) => join(run.teamsDir, team);
  const configMembers = (team: string): string[] | undefined => {
    try {
      return (JSON.parse(readFileSync(join(teamDir(team), 'config.json'), 'utf8')) as { members: { name: string }[] }).members.map((m) => m.name);
    } catch {
      return undefined;
    }
  };

  return {
    run,
    api,
    observer,
    cli,
    stateDir,
    engine: () => (engine?.alive() ? engine : undefined),
    startEngine,
    killEngine: async () => {
      const e = engine;
      if (!e?.alive()) return;
      process.kill(e.pid, 'SIGKILL');
      await e.stop();
    },
    stopEngine: async () => {
      await engine?.stop();
    },
    client: async () => {
      const c = new EngineSocketClient({ stateDir, events: false });
      await c.start();
      return c;
    },
    launch: async (prompt, teammates) => {
      const r = await cli.run(['launch', '--cwd', run.proj, '--permission-mode', 'bypassPermissions', '--prompt', prompt, '--json'], { timeoutMs: 60_000 });
      if (r.code !== 0) throw new Error(`teamdeck launch exited ${r.code}: ${r.stderr.trim()} ${r.stdout.trim()}`);
      const out = JSON.parse(r.stdout) as { terminal: TerminalInfo; team?: string };
      if (!out.team || out.terminal.pid === undefined) throw new Error(`teamdeck launch did not name the team and the lead: ${r.stdout}`);
      leads.push(out.terminal.pid);
      const team = out.team;
      await waitFor(() => teammates.every((n) => configMembers(team)?.includes(n)), {
        what: `teammates ${teammates.join(', ')} in ${team}'s config.json`,
        timeoutMs: 30_000,
        intervalMs: 50,
      });
      return { team, terminal: out.terminal, pid: out.terminal.pid, launchedAt: r.startedAt };
    },
    tmux,
    tmuxOut,
    teamDir,
    inbox: (team, member) => join(teamDir(team), 'inboxes', `${member}.json`),
    engines: () => all.map((e) => ({ pid: e.pid, events: e.events, stderr: e.stderr() })),
    close: async ({ keep }) => {
      observer.stop();
      // The run is over: an engine that fails to stop goes with the run's processes below.
      await engine?.stop().catch(() => undefined);
      // Teamdeck's tmux server outlives its engines by design: this run's goes now, leads with it.
      for (let i = 0; i < 3 && tmux(['list-sessions']).status === 0; i++) {
        tmux(['kill-server']);
        await delay(200);
      }
      // A lead cleans up after its pty closes (SIGHUP): let it finish before the folder goes.
      for (const pid of leads) {
        // Not gone within 5 s: killed just below.
        await waitFor(() => !alive(pid), { what: `lead ${pid} to exit`, timeoutMs: 5_000 }).catch(() => undefined);
        // Still there (this run launched it): it goes too.
        if (alive(pid)) process.kill(pid, 'SIGKILL');
      }
      await api.close();
      if (!keep) run.remove();
    },
  };
}
