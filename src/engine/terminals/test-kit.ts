// For the terminal tests: a small stand-in for `claude` (a real program in a real terminal) that
// writes down what it sees (argv, environment, pid, size, every byte of input, each turn) to a
// log, turns bracketed paste on as Claude Code does, and exits with a code when told `exit N`.
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TerminalBackend } from '../../shared/types.js';
import { createTerminalHost } from './host.js';
import { tmuxSocketName } from './tmux-client.js';
import type { TerminalEvent, TerminalHost, TerminalHostOptions } from './types.js';

const STAND_IN = `
import { appendFileSync } from 'node:fs';
const log = process.env.STANDIN_LOG;
const note = (o) => appendFileSync(log, JSON.stringify({ ...o, pid: process.pid }) + '\\n');
const size = () => ({ cols: process.stdout.columns, rows: process.stdout.rows });
// Raw before anything is written down, so input sent once 'start' is logged arrives byte for byte.
process.stdin.setRawMode(true);
note({ type: 'start', argv: process.argv.slice(2), env: process.env, cwd: process.cwd(), size: size(), tty: !!process.stdin.isTTY });
process.stdout.write('\\x1b[?2004h');
process.stdout.write('\\x1b[1;32mstand-in ready\\x1b[0m pid=' + process.pid + '\\r\\n');
process.on('SIGWINCH', () => {
  const s = size();
  note({ type: 'size', ...s });
  process.stdout.write('size ' + s.cols + 'x' + s.rows + '\\r\\n');
});
process.stdin.setEncoding('utf8');
let pending = '';
let inPaste = false;
process.stdin.on('data', (chunk) => {
  note({ type: 'data', raw: chunk });
  for (let i = 0; i < chunk.length; ) {
    for (const [mark, on] of [['\\x1b[200~', true], ['\\x1b[201~', false]]) {
      if (chunk.startsWith(mark, i)) {
        inPaste = on;
        pending += mark;
        i += mark.length;
      }
    }
    if (i >= chunk.length) break;
    const ch = chunk[i++];
    pending += ch;
    if (ch === '\\r' && !inPaste) {
      turn(pending);
      pending = '';
    }
  }
});
function turn(raw) {
  note({ type: 'turn', raw });
  const text = raw.replace(/\\x1b\\[20[01]~/g, '').replace(/\\r$/, '');
  const m = /^exit (\\d+)$/.exec(text.trim());
  if (m) process.exit(Number(m[1]));
  process.stdout.write('got ' + JSON.stringify(text) + '\\r\\n');
}
`;

export interface LogEntry {
  type: 'start' | 'size' | 'data' | 'turn';
  pid: number;
  argv?: string[];
  env?: Record<string, string>;
  cwd?: string;
  size?: { cols: number; rows: number };
  cols?: number;
  rows?: number;
  raw?: string;
}

/** Writes the stand-in as an executable file (a node script) and returns its path. */
export async function writeStandIn(dir: string, name = 'claude'): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `#!${process.execPath}\n${STAND_IN}`);
  await chmod(path, 0o755);
  return path;
}

/** The stand-in's log lines written so far; a last line still being written is left for the next read. */
export async function readLog(path: string): Promise<LogEntry[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogEntry);
}

export async function waitFor<T>(fn: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function tempDir(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Runs a tmux command on a test's server (to look at, or end, what the host made). */
export function tmuxOn(rig: Pick<Rig, 'stateDir' | 'env'>, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('tmux', ['-L', tmuxSocketName(rig.stateDir), ...args], { timeout: 5_000, env: rig.env }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message} ${stderr}`)) : resolve(stdout),
    );
  });
}

/** A test's state folder, project folder and stand-in, and a started host on them. */
export interface Rig {
  stateDir: string;
  project: string;
  claude: string;
  logPath: string;
  /** The launch environment; TMUX_TMPDIR keeps the test's tmux socket inside its folder. */
  env: NodeJS.ProcessEnv;
  events: TerminalEvent[];
  host: TerminalHost;
  log(): Promise<LogEntry[]>;
  /** Everything the host emitted as output of terminal `id`. */
  output(id: string): string;
  /** Another host on the same state folder (as a restarted Teamdeck), started. */
  newHost(opts?: Partial<TerminalHostOptions>): Promise<TerminalHost>;
}

/** Makes a rig; `cleanup` gets what ends it (hosts, the tmux server, the folder). */
export async function makeRig(backend: TerminalBackend, cleanup: Array<() => Promise<void>>): Promise<Rig> {
  const tmp = await tempDir('teamdeck-term-');
  const stateDir = join(tmp.dir, 'state');
  const project = join(tmp.dir, 'my project');
  await mkdir(project, { recursive: true });
  const claude = await writeStandIn(tmp.dir);
  const logPath = join(tmp.dir, 'stand-in.log');
  const events: TerminalEvent[] = [];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TMUX_TMPDIR: tmp.dir,
    STANDIN_LOG: logPath,
    // As if Teamdeck had been started inside someone's tmux: the lead must not see it.
    TMUX: '/tmp/someone-elses-tmux,1,0',
    TMUX_PANE: '%9',
    TEAMDECK_TEST_VALUE: 'a;b "c" $HOME',
  };
  const hosts: TerminalHost[] = [];
  const newHost = async (opts: Partial<TerminalHostOptions> = {}) => {
    const h = createTerminalHost({ stateDir, env, claudePath: () => claude, emit: () => {}, backend, ...opts });
    hosts.push(h);
    await h.start();
    return h;
  };
  cleanup.push(async () => {
    for (const h of hosts) await h.stop();
    // The test's tmux server may have ended with its last session already.
    await tmuxOn({ stateDir, env }, ['kill-server']).catch(() => {});
    await tmp.remove();
  });
  const host = await newHost({ emit: (e) => events.push(e) });
  return {
    stateDir,
    project,
    claude,
    logPath,
    env,
    events,
    host,
    newHost,
    log: () => readLog(logPath),
    output: (id) =>
      events
        .filter((e): e is Extract<TerminalEvent, { type: 'output' }> => e.type === 'output' && e.id === id)
        .map((e) => e.data)
        .join(''),
  };
}
