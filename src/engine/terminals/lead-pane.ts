// A lead's terminal as something to read and press keys in, wherever it runs: a terminal this
// engine hosts (its tmux server or a pty), or a pane of the user's own tmux, found from the lead
// process's environment (TMUX names the server's socket, TMUX_PANE the pane). Only a process of
// this user, and a tmux socket this user owns, are ever touched: another user's lead is refused.
import { spawn } from 'node:child_process';
import { lstat, readFile } from 'node:fs/promises';
import type { TerminalHost } from './types.js';

/** The keys a lead's dialog takes, by name. */
export type PaneKey = 'Up' | 'Down' | 'Enter' | 'Escape' | 'Tab';

/** The bytes a terminal sends for each key (xterm, normal cursor mode). */
export const KEY_BYTES: Record<PaneKey, string> = { Up: '\x1b[A', Down: '\x1b[B', Enter: '\r', Escape: '\x1b', Tab: '\t' };

export interface LeadPane {
  /** Where it is, in words ("Teamdeck's terminal t-…", "tmux pane %3 of /tmp/tmux-1000/default"). */
  readonly where: string;
  readonly kind: 'hosted' | 'tmux';
  /** The visible screen as plain text, one line per row. */
  screen(): Promise<string>;
  key(key: PaneKey): Promise<void>;
  /** Text typed as is (no key names, no paste brackets). */
  text(literal: string): Promise<void>;
}

/** A terminal this engine hosts. */
export function hostedPane(host: TerminalHost, id: string): LeadPane {
  return {
    where: `Teamdeck's terminal ${id}`,
    kind: 'hosted',
    screen: () => host.screenText(id),
    key: async (k) => host.input(id, KEY_BYTES[k]),
    text: async (t) => host.input(id, t),
  };
}

export interface TmuxPaneTarget {
  socket: string;
  pane: string;
}

/** TMUX (`<socket>,<server pid>,<session>`) and TMUX_PANE (`%<n>`) from a NUL-separated environ. */
export function tmuxTargetOf(environ: string): TmuxPaneTarget | undefined {
  const vars = new Map<string, string>();
  for (const kv of environ.split('\0')) {
    const eq = kv.indexOf('=');
    if (eq > 0) vars.set(kv.slice(0, eq), kv.slice(eq + 1));
  }
  const tmux = vars.get('TMUX');
  const pane = vars.get('TMUX_PANE');
  if (!tmux || !pane || !/^%\d{1,20}$/.test(pane)) return undefined;
  const socket = tmux.split(',').slice(0, -2).join(',');
  if (!socket.startsWith('/')) return undefined;
  return { socket, pane };
}

async function uidOf(path: string): Promise<number | undefined> {
  try {
    return (await lstat(path)).uid;
  } catch {
    return undefined;
  }
}

/** The parent pid of a process, from /proc (Linux). */
async function parentOf(pid: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) && ppid > 0 ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/** Runs one tmux command on the user's server; stdout, or a rejection in words. */
function runTmux(bin: string, socket: string, args: string[], timeoutMs = 3_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    // A client inside tmux would otherwise talk to that server, whatever -S says about some commands.
    delete env.TMUX;
    delete env.TMUX_PANE;
    const child = spawn(bin, ['-S', socket, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`tmux could not run: ${e.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(`tmux ${args[0]} failed: ${Buffer.concat(err).toString('utf8').trim() || `exit ${code}`}`));
    });
  });
}

/**
 * The pane of the user's own tmux that the lead (process `pid`) runs in, or why there is none:
 * the process must be this user's, its environment must name a tmux socket this user owns, and
 * that pane's process must be the lead or one of its parents (a pane reused since is refused).
 */
export async function userTmuxPane(pid: number, tmuxBin: string | undefined): Promise<LeadPane | string> {
  if (process.platform !== 'linux') return "Teamdeck finds a lead's tmux pane only on Linux (from /proc)";
  const me = process.getuid?.();
  if (me === undefined) return 'this platform has no user ids';
  if ((await uidOf(`/proc/${pid}`)) !== me) return `the lead (pid ${pid}) is not running as this user`;
  // Keys go only to a Claude Code process, whatever a sessions file claims.
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (!/claude/i.test(cmdline)) return `process ${pid} is not Claude Code`;
  let environ: string;
  try {
    environ = await readFile(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return `the lead's environment (pid ${pid}) cannot be read`;
  }
  const target = tmuxTargetOf(environ);
  if (!target) return 'the lead does not run in tmux, nor in a terminal Teamdeck hosts';
  const st = await lstat(target.socket).catch(() => undefined);
  if (!st?.isSocket()) return `the lead's tmux server (${target.socket}) is gone`;
  if (st.uid !== me) return `the lead's tmux server (${target.socket}) belongs to another user`;
  if (!tmuxBin) return 'tmux is not installed where Teamdeck can find it';
  let panePid: number;
  try {
    panePid = Number((await runTmux(tmuxBin, target.socket, ['display-message', '-p', '-t', target.pane, '#{pane_pid}'])).trim());
  } catch (e) {
    return `the lead's tmux pane ${target.pane} cannot be reached: ${(e as Error).message}`;
  }
  let p: number | undefined = pid;
  for (let depth = 0; p !== undefined && depth < 6 && p !== panePid; depth++) p = await parentOf(p);
  if (p !== panePid) return `tmux pane ${target.pane} no longer runs the lead`;
  const { socket, pane } = target;
  return {
    where: `tmux pane ${pane} of ${socket}`,
    kind: 'tmux',
    screen: () => runTmux(tmuxBin, socket, ['capture-pane', '-p', '-t', pane]),
    key: async (k) => void (await runTmux(tmuxBin, socket, ['send-keys', '-t', pane, k])),
    // A trailing `;` would end tmux's command: `\;` keeps it literal.
    text: async (t) => void (await runTmux(tmuxBin, socket, ['send-keys', '-t', pane, '-l', '--', t.endsWith(';') ? `${t.slice(0, -1)}\\;` : t])),
  };
}
