// The interactive team lead in a terminal of its own: a private tmux server (`tmux -L`, its
// socket inside the run folder), so tests never touch a developer's tmux, and Claude Code
// gets the pty it needs to create a session team (a `-p` lead gets none).
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inputBox as leadInputBox } from '../../../src/engine/claude/lead-screen.js';
import { DUMMY_API_KEY, type RunDir } from './home.js';
import { delay, waitFor } from './wait.js';

export interface LeadOptions {
  binary: string;
  run: RunDir;
  apiUrl: string;
  /** Fixes the team name: `session-<first 8 chars>`. Random by default. */
  sessionId?: string;
  /** Added to (or overriding) the environment below, e.g. CLAUDE_CODE_ENABLE_TODO_TOOLS. */
  env?: Record<string, string>;
  /**
   * `bypass` (the default): `--dangerously-skip-permissions`, no permission dialogs for the lead
   * or its teammates. `default`: `--permission-mode default` ("manual mode on"), so tool uses
   * that need permission, the teammates' included, ask in the lead's terminal; no IS_SANDBOX.
   * `plan`: `--permission-mode plan` ("plan mode on"): teammates the lead spawns must have their
   * plans approved by the lead.
   */
  permissionMode?: 'bypass' | 'default' | 'plan';
  /**
   * `in-process` (the default): teammates run inside the lead's process. `tmux`: each teammate
   * is a `claude` process of its own in a pane the lead splits off its own, in this tmux server.
   */
  teammateMode?: 'in-process' | 'tmux';
}

export interface Lead {
  sessionId: string;
  teamName: string;
  /** The private tmux server's name (`tmux -L <name>`). */
  tmuxName: string;
  /** The lead's pid (= config.leadProcess.pid, sessions/<pid>.json). */
  pid: number;
  /** The tmux server's pid. */
  tmuxPid: number;
  /** The pane's shell (the lead's parent). */
  shellPid: number;
  /** The lead's pane (`%<n>`): every key and capture targets it, so panes split off for teammates never get them. */
  paneId: string;
  /** Runs a tmux command against this run's private server (e.g. `list-panes`), returning its output. */
  tmux(args: string[]): string;
  debugLog: string;
  /** Types a genuine user turn: the text literally, a pause for the TUI's paste window, Enter. */
  type(text: string): Promise<void>;
  /**
   * Pastes `text` as one bracketed paste (`tmux load-buffer` + `paste-buffer -p`, the way a
   * terminal host delivers a multi-line message), then, unless `submit` is false, Enter after
   * `pauseMs` (250 by default; 0-100 ms also submitted the paste whole in every try).
   */
  paste(text: string, opts?: { submit?: boolean; pauseMs?: number }): Promise<void>;
  /** Sends text literally (`send-keys -l`), no Enter: e.g. a half-typed draft. */
  typeRaw(text: string): void;
  /** Types /exit and waits for the process to end. */
  exit(timeoutMs?: number): Promise<void>;
  /** Sends a signal to the lead, after checking the pid is still the process this run started. */
  signal(sig: NodeJS.Signals): void;
  alive(): boolean;
  waitForExit(timeoutMs: number): Promise<void>;
  /**
   * How the lead ended, as the pane's shell saw it (`$?`: the exit code, or 128 + n when a
   * signal n ended it); undefined while it runs. tmux's own pane_dead_status is not used: tmux
   * 3.3a sometimes marks the pane dead without ever reporting a status.
   */
  exitStatus(): number | undefined;
  /** The screen and its scrollback, for failure reports. */
  capture(): string;
  /** The visible screen only (cheap enough to poll, e.g. for a dialog). */
  screen(): string;
  /** Presses keys in the lead's pane, as tmux names them (`1`, `Enter`, `Escape`): e.g. answering a dialog. */
  keys(...keys: string[]): void;
  /** Ends the lead if it still runs, kills the private tmux server last, removes the run folder. */
  cleanup(opts?: { keepRunDir?: boolean }): Promise<void>;
}

/** The lead's environment, built from scratch: nothing leaks in from the developer's shell. */
export function leadEnv(run: RunDir, apiUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOME: run.home,
    TMPDIR: run.tmp,
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: DUMMY_API_KEY,
    CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS: '1',
    // Else --dangerously-skip-permissions refuses to run as root (CI runs as root).
    IS_SANDBOX: '1',
    // Else SendMessage and others are deferred behind ToolSearch and fail when called directly.
    ENABLE_TOOL_SEARCH: 'false',
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    PATH: '/usr/local/bin:/usr/bin:/bin',
    ...extra,
  };
}

function procCmdline(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return undefined;
  }
}

/** The pid of `parent`'s child whose command line starts with `binary`. */
function childRunning(parent: number, binary: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent && procCmdline(Number(entry))?.startsWith(binary)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

function procAlive(pid: number): boolean {
  try {
    // A zombie still has a /proc entry; its state is Z.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The lead's input box: the screen lines between the last two horizontal rules ('' when none): Teamdeck's own rule. */
export function inputBox(screen: string): string {
  return leadInputBox(screen) ?? '';
}

export async function startLead(opts: LeadOptions): Promise<Lead> {
  const { run, binary } = opts;
  const sessionId = opts.sessionId ?? randomUUID();
  const teamName = `session-${sessionId.slice(0, 8)}`;
  const tmuxName = `teamdeck-${randomBytes(6).toString('hex')}`;
  const debugLog = join(run.run, 'lead-debug.log');
  const mode = opts.permissionMode ?? 'bypass';
  const manual = mode !== 'bypass';
  const env = leadEnv(run, opts.apiUrl, opts.env);
  // Only skip-permissions needs it as root; without it a manual-mode lead runs as it would for a user.
  if (manual && !opts.env?.IS_SANDBOX) delete env.IS_SANDBOX;
  const conf = join(run.run, 'tmux.conf');
  // The dead pane stays, so its last screen can be read; TERM as the lead's env says.
  writeFileSync(conf, 'set -g remain-on-exit on\nset -g default-terminal xterm-256color\nset -g history-limit 5000\n');
  // The server's own environment is the lead's (panes inherit it) with tmux's socket in the run.
  const tmuxEnv = { ...env, TMUX_TMPDIR: run.run };
  const tmux = (args: string[], input?: string) => {
    const r = spawnSync('tmux', ['-L', tmuxName, '-f', conf, ...args], { env: tmuxEnv, encoding: 'utf8', timeout: 10_000, input });
    if (r.error) throw new Error(`tmux ${args[0]}: ${r.error.message}`);
    if (r.status !== 0) throw new Error(`tmux ${args.join(' ')} failed: ${r.stderr.trim()}`);
    return r.stdout;
  };
  const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  const permissionArgs = manual ? ['--permission-mode', mode] : ['--dangerously-skip-permissions'];
  /** The footer that says the TUI is ready, by permission mode. */
  const readyMarker = { bypass: 'bypass permissions on', default: 'manual mode on', plan: 'plan mode on' }[mode];
  const claudeArgs = ['--session-id', sessionId, ...permissionArgs, '--teammate-mode', opts.teammateMode ?? 'in-process', '--debug-file', debugLog];
  // A shell in the pane runs the lead and writes down how it ended.
  const exitFile = join(run.run, 'lead.exit');
  const wrapper = `"$0" "$@"; echo $? > '${exitFile.replace(/'/g, `'\\''`)}'`;
  tmux(['new-session', '-d', '-s', 'lead', '-x', '200', '-y', '50', '-c', run.proj, ...envArgs, '/bin/sh', '-c', wrapper, binary, ...claudeArgs]);
  const tmuxPid = Number(tmux(['display-message', '-p', '-t', 'lead', '#{pid}']).trim());
  const shellPid = Number(tmux(['display-message', '-p', '-t', 'lead', '#{pane_pid}']).trim());
  const paneId = tmux(['display-message', '-p', '-t', 'lead', '#{pane_id}']).trim();
  let serverKilled = false;
  const pid = await waitFor(() => childRunning(shellPid, binary), { what: 'the lead process to start', timeoutMs: 10_000, intervalMs: 5 }).catch((e) => {
    spawnSync('tmux', ['-L', tmuxName, 'kill-server'], { env: tmuxEnv, timeout: 10_000 });
    throw e;
  });

  const capture = () => {
    if (serverKilled) return '(tmux server already gone)';
    try {
      return tmux(['capture-pane', '-p', '-t', paneId, '-S', '-200']);
    } catch (e) {
      return `(capture failed: ${(e as Error).message})`;
    }
  };
  /** The visible screen only: cheaper to poll than capture(). */
  const screen = () => (serverKilled ? '' : tmux(['capture-pane', '-p', '-t', paneId]));
  const ours = (p: number) => {
    const cmd = procCmdline(p);
    return cmd !== undefined && (cmd.includes(binary) || cmd.includes(run.run));
  };
  const alive = () => procAlive(pid) && ours(pid);
  const waitForExit = async (timeoutMs: number) => {
    await waitFor(() => !procAlive(pid), { what: `the lead (pid ${pid}) to exit`, timeoutMs, intervalMs: 5 });
  };
  const type = async (text: string) => {
    tmux(['send-keys', '-t', paneId, '-l', text]);
    const head = text.slice(0, 40);
    await waitFor(() => inputBox(screen()).includes(head), { what: `the typed text to show in the lead's input box`, timeoutMs: 5_000, intervalMs: 25 });
    // The TUI treats keys arriving together as a paste; Enter must come after it settles.
    await delay(250);
    // An Enter that arrives while the TUI is still starting is dropped: press it again while
    // the text still sits in the input box.
    for (let attempt = 1; ; attempt++) {
      tmux(['send-keys', '-t', paneId, 'Enter']);
      try {
        await waitFor(() => !inputBox(screen()).includes(head), { what: 'the prompt to be submitted', timeoutMs: 1_500, intervalMs: 25 });
        return;
      } catch (e) {
        if (attempt === 3) throw new Error(`${(e as Error).message}: Enter pressed ${attempt} times\n${capture()}`);
      }
    }
  };
  const paste = async (text: string, { submit = true, pauseMs = 250 }: { submit?: boolean; pauseMs?: number } = {}) => {
    // -p: bracketed (the TUI asked for it), -r: newlines as LF, not CR; -d: the buffer goes after.
    tmux(['load-buffer', '-b', 'teamdeck-paste', '-'], text);
    tmux(['paste-buffer', '-p', '-r', '-d', '-b', 'teamdeck-paste', '-t', paneId]);
    if (!submit) return;
    await delay(pauseMs);
    tmux(['send-keys', '-t', paneId, 'Enter']);
  };
  const signal = (sig: NodeJS.Signals) => {
    if (!procAlive(pid)) return;
    if (!ours(pid)) throw new Error(`refusing to signal pid ${pid}: it is not the lead this run started (${procCmdline(pid)})`);
    process.kill(pid, sig);
  };

  const lead: Lead = {
    sessionId,
    teamName,
    tmuxName,
    pid,
    tmuxPid,
    shellPid,
    paneId,
    tmux: (args) => tmux(args),
    debugLog,
    type,
    paste,
    typeRaw: (text) => void tmux(['send-keys', '-t', paneId, '-l', text]),
    exit: async (timeoutMs = 10_000) => {
      await type('/exit');
      await waitForExit(timeoutMs);
    },
    signal,
    alive,
    waitForExit,
    exitStatus: () => {
      const text = existsSync(exitFile) ? readFileSync(exitFile, 'utf8').trim() : '';
      return text ? Number(text) : undefined;
    },
    capture,
    screen,
    keys: (...keys) => void tmux(['send-keys', '-t', paneId, ...keys]),
    cleanup: async ({ keepRunDir = false } = {}) => {
      try {
        if (alive()) {
          signal('SIGTERM');
          await waitForExit(3_000).catch(() => (alive() ? signal('SIGKILL') : undefined));
        }
      } finally {
        if (!serverKilled) {
          serverKilled = true;
          spawnSync('tmux', ['-L', tmuxName, 'kill-server'], { env: tmuxEnv, timeout: 10_000 });
        }
        if (!keepRunDir) run.remove();
      }
    },
  };

  try {
    await waitFor(() => !procAlive(pid) || screen().includes(readyMarker), { what: 'the lead TUI to be ready', timeoutMs: 20_000, intervalMs: 50 });
    if (!procAlive(pid)) throw new Error(`the lead exited at start (status ${lead.exitStatus()}):\n${capture()}`);
    const config = join(run.teamsDir, teamName, 'config.json');
    await waitFor(() => existsSync(config) && JSON.parse(readFileSync(config, 'utf8')), { what: `${teamName}/config.json`, timeoutMs: 10_000 });
  } catch (e) {
    const screen = capture();
    const debug = existsSync(debugLog) ? readFileSync(debugLog, 'utf8').split('\n').slice(-40).join('\n') : '(no debug log)';
    await lead.cleanup({ keepRunDir: !!process.env.TEAMDECK_CLAUDE_KEEP_RUN });
    throw new Error(`${(e as Error).message}\n--- lead screen ---\n${screen}\n--- lead debug log (tail) ---\n${debug}`);
  }
  return lead;
}
