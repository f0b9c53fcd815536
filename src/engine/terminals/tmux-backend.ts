// Leads in Teamdeck's own tmux server, one session per terminal (named by its id), so a lead
// outlives the Teamdeck that started it. The lead is exec'd without a shell (through `env -u`,
// which only drops tmux's own variables), so the pane's pid is the lead's pid. Viewers share one
// `attach-session` client per terminal, run in a pty here; everything else is a tmux command.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import type { IPty } from '@lydell/node-pty';
import type { TerminalRecord } from './records.js';
import type { Backend, BackendEvents, Reconnect, SpawnSpec } from './backend.js';
import { DROPPED_ENV } from './launch-command.js';
import { procState } from './proc.js';
import { argvBytes, TMUX_ARGV_LIMIT, TmuxCommandError, type TmuxClient } from './tmux-client.js';
import { TerminalError } from './types.js';
import { InOrder } from '../in-order.js';

type PtyModule = typeof import('@lydell/node-pty');

/** How often running leads are checked for their exit (one /proc read per lead on Linux). */
export const EXIT_POLL_MS = 1_000;
/** How long attach waits for the pane to take the viewer's size before reading the screen. */
const SIZE_SETTLE_MS = 1_500;
/** Variables tmux sets in every pane itself; the lead gets the launch environment's, or none. */
const TMUX_SETS = ['TERM', 'TERM_PROGRAM', 'TERM_PROGRAM_VERSION', 'PWD'];

interface Pane {
  pid: number;
  dead: boolean;
  /** The exit status as a shell reports it (tmux 3.3a sometimes never gives one). */
  exitCode?: number;
}

interface Attachment {
  pty: IPty;
  viewers: number;
}

interface Watched {
  pid: number;
  procStart?: number;
  /** Polls since the process ended without tmux having its status yet. */
  waits: number;
}

const ENV_BIN = existsSync('/usr/bin/env') ? '/usr/bin/env' : 'env';
const PANE_FORMAT = '#{session_name}|#{pane_pid}|#{pane_dead}|#{pane_dead_status}|#{pane_dead_signal}';
const HAS_PROC = process.platform === 'linux';

/** Bytes per `send-keys -H` call: three characters each on the command line, well under tmux's limit. */
const HEX_KEYS_PER_CALL = 2_000;

export class TmuxBackend implements Backend {
  readonly kind = 'tmux' as const;
  private readonly attachments = new Map<string, Attachment>();
  private readonly watched = new Map<string, Watched>();
  /** tmux commands for one terminal run in the order they were asked for. */
  private readonly commands = new InOrder();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private stopped = false;

  constructor(
    private readonly tmux: TmuxClient,
    private readonly pty: PtyModule,
    private readonly events: BackendEvents,
  ) {}

  /** `=<id>:` targets exactly that session's pane (a bare name would also match by prefix). */
  private target(id: string): string {
    return `=${id}:`;
  }

  /** The server's global environment (what a new pane inherits), or undefined when no server runs. */
  private async globalEnv(): Promise<Map<string, string> | undefined> {
    let out: string;
    try {
      out = await this.tmux.run(['show-environment', '-g']);
    } catch (e) {
      if (e instanceof TmuxCommandError && e.missing) return undefined;
      throw e;
    }
    const env = new Map<string, string>();
    for (const line of out.split('\n')) {
      const at = line.indexOf('=');
      if (at > 0 && !line.startsWith('-')) env.set(line.slice(0, at), line.slice(at + 1));
    }
    return env;
  }

  async spawn(spec: SpawnSpec): Promise<number> {
    // A pane's environment is the server's (from whoever started it) plus `-e`: pass what
    // differs, and drop with `env -u` what the lead must not have.
    const global = await this.globalEnv();
    const envArgs: string[] = [];
    for (const [k, v] of Object.entries(spec.env)) {
      if (!global || global.get(k) !== v || TMUX_SETS.includes(k)) envArgs.push('-e', `${k}=${v}`);
    }
    const unset = new Set<string>(DROPPED_ENV);
    for (const k of ['TERM_PROGRAM', 'TERM_PROGRAM_VERSION']) if (!(k in spec.env)) unset.add(k);
    for (const k of global?.keys() ?? []) if (!(k in spec.env)) unset.add(k);
    if (spec.file.includes('=')) throw new TerminalError(`The claude path ${spec.file} has an "=" in it, which env would read as a variable; move or link claude elsewhere`, 'refused');
    const command = [ENV_BIN, ...[...unset].flatMap((k) => ['-u', k]), '--', spec.file, ...spec.args];
    const size = ['-x', String(spec.cols), '-y', String(spec.rows)];
    // -c is expanded as a tmux format: `#` must be doubled.
    const args = ['new-session', '-d', '-P', '-F', '#{pane_pid}', '-s', spec.id, ...size, '-c', spec.cwd.replace(/#/g, '##'), ...envArgs, '--', ...command];
    const bytes = argvBytes(args);
    if (bytes > TMUX_ARGV_LIMIT) {
      throw new TerminalError(`The launch command is too long for tmux (${bytes} bytes of prompt, arguments and environment; tmux takes about ${TMUX_ARGV_LIMIT}): shorten the first prompt and type the rest once the lead runs`, 'refused');
    }
    const out = await this.tmux.run(args, { env: spec.env, cwd: spec.cwd, timeoutMs: 10_000 });
    const pid = Number(out.trim());
    if (!Number.isInteger(pid) || pid <= 0) throw new TerminalError(`tmux started the lead but did not say its pid (it printed "${out.trim()}")`, 'unavailable');
    return pid;
  }

  /** Pane lines of `list-panes -F PANE_FORMAT`, by session name. */
  private parsePanes(out: string): Map<string, Pane> {
    const panes = new Map<string, Pane>();
    for (const line of out.split('\n')) {
      const [session, pid, dead, status, signal] = line.split('|');
      if (!session || panes.has(session)) continue;
      const pane: Pane = { pid: Number(pid), dead: dead === '1' };
      if (status) pane.exitCode = Number(status);
      else if (signal) pane.exitCode = 128 + Number(signal);
      panes.set(session, pane);
    }
    return panes;
  }

  /** `list-panes` of one session (`=<id>:`) or of all (`-a`); empty when the server or the session is gone. */
  private async panes(which: string[]): Promise<Map<string, Pane>> {
    try {
      return this.parsePanes(await this.tmux.run(['list-panes', ...which, '-F', PANE_FORMAT]));
    } catch (e) {
      if (e instanceof TmuxCommandError && e.missing) return new Map();
      throw e;
    }
  }

  /** The terminal's pane, or undefined when its session (or the server) is gone. */
  private async pane(id: string): Promise<Pane | undefined> {
    return (await this.panes(['-t', this.target(id)])).get(id);
  }

  async reconnect(rec: TerminalRecord): Promise<Reconnect> {
    const pane = await this.pane(rec.id);
    if (!pane) return { running: false };
    const proc = await procState(rec.pid, rec.procStart);
    if (!pane.dead && proc.state === 'running') return { running: true };
    const exitCode = pane.exitCode ?? (proc.state === 'zombie' ? proc.exitCode : undefined);
    return exitCode === undefined ? { running: false } : { running: false, exitCode };
  }

  watch(rec: TerminalRecord): void {
    this.watched.set(rec.id, { pid: rec.pid, procStart: rec.procStart, waits: 0 });
    if (!this.timer && !this.stopped) {
      this.timer = setInterval(() => void this.poll(), EXIT_POLL_MS);
      this.timer.unref();
    }
  }

  private unwatch(id: string): void {
    this.watched.delete(id);
    if (this.watched.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /**
   * One look at every watched lead: on Linux a /proc read each, tmux asked only about those
   * that ended; elsewhere one `list-panes -a` for all.
   */
  private async poll(): Promise<void> {
    if (this.polling || this.stopped || this.watched.size === 0) return;
    this.polling = true;
    try {
      // tmux not answering this once: each lead is looked at by its process instead.
      const all = HAS_PROC ? undefined : await this.panes(['-a']).catch(() => undefined);
      for (const [id, w] of [...this.watched]) {
        let exitCode: number | undefined;
        let pane: Pane | undefined;
        if (all) {
          pane = all.get(id);
          if (pane && !pane.dead) continue;
          exitCode = pane?.exitCode;
        } else {
          const proc = await procState(w.pid, w.procStart);
          if (proc.state === 'running') continue;
          // No pane to ask (its session is gone): the exit code is the process's own, when known.
          pane = await this.pane(id).catch(() => undefined);
          exitCode = pane?.exitCode ?? (proc.state === 'zombie' ? proc.exitCode : undefined);
        }
        // Reaped a moment ago: tmux may set the status on its next loop; ask again a few times.
        if (exitCode === undefined && pane && w.waits++ < 3) continue;
        if (!this.watched.has(id)) continue;
        this.unwatch(id);
        this.events.exited(id, exitCode);
      }
    } finally {
      this.polling = false;
    }
  }

  async attach(id: string, cols: number, rows: number): Promise<string> {
    let a = this.attachments.get(id);
    if (!a) {
      if (!(await this.pane(id))) throw new TerminalError(`The tmux session of terminal ${id} is gone`, 'exited');
      // Another viewer may have attached meanwhile.
      a = this.attachments.get(id);
    }
    if (a) {
      a.viewers++;
      if (a.pty.cols !== cols || a.pty.rows !== rows) a.pty.resize(cols, rows);
    } else {
      const pty = this.pty.spawn(this.tmux.bin, [...this.tmux.base(), 'attach-session', '-t', `=${id}`], {
        name: 'xterm-256color',
        cols,
        rows,
        cwd: homedir(),
        env: { ...this.tmux.env, TERM: 'xterm-256color' },
      });
      const mine: Attachment = { pty, viewers: 1 };
      a = mine;
      this.attachments.set(id, mine);
      pty.onData((data) => this.events.output(id, data));
      pty.onExit(() => {
        if (this.attachments.get(id) === mine) this.attachments.delete(id);
        // The client leaves when its session ends: look at the lead now, not at the next poll.
        setTimeout(() => void this.poll(), 50).unref();
      });
    }
    await this.settleSize(id, cols, rows);
    return this.paintable(id);
  }

  /** Waits (briefly) until the client is attached and the pane has the viewer's size. */
  private async settleSize(id: string, cols: number, rows: number): Promise<void> {
    const deadline = Date.now() + SIZE_SETTLE_MS;
    while (Date.now() < deadline) {
      const out = await this.tmux.run(['display-message', '-p', '-t', this.target(id), '#{session_attached} #{pane_width} #{pane_height}']).catch(() => '');
      const [attached, w, h] = out.trim().split(' ').map(Number);
      if (attached && w === cols && h === rows) return;
      await new Promise((r) => setTimeout(r, 15));
    }
  }

  /** The screen with its colours and the cursor, as output a fresh terminal paints at once. */
  private async paintable(id: string): Promise<string> {
    const [cursor, screen] = await Promise.all([
      this.tmux.run(['display-message', '-p', '-t', this.target(id), '#{cursor_x} #{cursor_y} #{cursor_flag}']),
      this.tmux.run(['capture-pane', '-p', '-e', '-t', this.target(id)]),
    ]);
    const [x = 0, y = 0, visible = 1] = cursor.trim().split(' ').map(Number);
    const lines = screen.replace(/\n$/, '').split('\n');
    // Attributes carry over from line to line in capture-pane's output: no reset between lines.
    // Bracketed paste on in the viewer: tmux passes the brackets on only if the lead asked for them.
    return `\x1b[0m\x1b[H\x1b[2J\x1b[?2004h${lines.join('\r\n')}\x1b[0m\x1b[${y + 1};${x + 1}H\x1b[?25${visible ? 'h' : 'l'}`;
  }

  detach(id: string): void {
    const a = this.attachments.get(id);
    if (!a) return;
    if (--a.viewers > 0) return;
    this.attachments.delete(id);
    a.pty.kill();
  }

  input(id: string, data: string): void {
    const a = this.attachments.get(id);
    if (a) {
      a.pty.write(data);
      return;
    }
    // No viewer: the bytes go straight to the pane (e.g. the terminal channel pressing Enter), as
    // hex (`send-keys -H`) so that a NUL passes, in pieces under tmux's command-length limit.
    const bytes = Buffer.from(data, 'utf8');
    for (let at = 0; at < bytes.length; at += HEX_KEYS_PER_CALL) {
      const hex = [...bytes.subarray(at, at + HEX_KEYS_PER_CALL)].map((b) => b.toString(16).padStart(2, '0'));
      // Nobody waits on keystrokes: a pane that cannot take them is gone, which the exit poll tells.
      void this.commands.run(id, () => this.tmux.run(['send-keys', '-H', '-t', this.target(id), ...hex])).catch(() => {});
    }
  }

  resize(id: string, cols: number, rows: number): void {
    // Without a viewer the pane keeps its size (resize-window would pin it to a manual size).
    this.attachments.get(id)?.pty.resize(cols, rows);
  }

  paste(id: string, text: string): Promise<void> {
    const buffer = `td-${id}`;
    return this.commands.run(id, async () => {
      await this.tmux.run(['load-buffer', '-b', buffer, '-'], { input: text });
      // -p: bracketed when the lead asked for it; -r: LF stays LF; -d: the buffer goes after.
      await this.tmux.run(['paste-buffer', '-p', '-r', '-d', '-b', buffer, '-t', this.target(id)]);
    });
  }

  enter(id: string): Promise<void> {
    return this.commands.run(id, async () => {
      await this.tmux.run(['send-keys', '-t', this.target(id), 'Enter']);
    });
  }

  async screenText(id: string): Promise<string | undefined> {
    try {
      return (await this.tmux.run(['capture-pane', '-p', '-t', this.target(id)])).replace(/\n$/, '');
    } catch (e) {
      if (e instanceof TmuxCommandError && e.missing) return undefined;
      throw e;
    }
  }

  async discard(id: string): Promise<void> {
    this.unwatch(id);
    const a = this.attachments.get(id);
    this.attachments.delete(id);
    a?.pty.kill();
    await this.tmux.run(['kill-session', '-t', `=${id}`]).catch((e) => {
      if (!(e instanceof TmuxCommandError && e.missing)) throw e;
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.watched.clear();
    for (const a of this.attachments.values()) a.pty.kill();
    this.attachments.clear();
  }
}
