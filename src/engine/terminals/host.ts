// The hosted lead terminals: launching `claude` in a terminal of Teamdeck's own (a tmux session
// that outlives Teamdeck, else a pty of this process), the records that let a restarted Teamdeck
// find its leads again, their states and exits, viewers, and typing a turn. The backends only
// run programs in terminals; everything the rest of the engine sees goes through here.
import { join } from 'node:path';
import type { LaunchRequest, TerminalInfo, TerminalState } from '../../shared/types.js';
import { writeFileAtomic } from '../files/atomic-write.js';
import type { Backend, BackendEvents } from './backend.js';
import { claudeArgs, DROPPED_ENV, launchEnv, newTerminalId, resolveClaude, resolveCwd, terminalTitle } from './launch-command.js';
import { procStart } from './proc.js';
import { PtyBackend } from './pty-backend.js';
import { TerminalRecords, type TerminalRecord } from './records.js';
import { TmuxBackend } from './tmux-backend.js';
import { findTmux, TMUX_CONF, TmuxClient, tmuxSocketName } from './tmux-client.js';
import { TerminalError, type TerminalAvailability, type TerminalEvent, type TerminalHost, type TerminalHostOptions } from './types.js';

/**
 * Between a turn's paste and its Enter: Claude Code's TUI takes keys that arrive together as
 * one paste, so an Enter right behind the text would become part of it.
 */
export const TURN_ENTER_PAUSE_MS = 250;
/** Between the pieces of a turn pasted one after another (as the contract tests measured). */
export const PIECE_PAUSE_MS = 20;
/** A new lead's terminal size until a viewer attaches with its own. */
export const LAUNCH_COLS = 120;
export const LAUNCH_ROWS = 40;
const MAX_SIZE = 1_000;

/**
 * A turn as typed text: line breaks as LF, tabs kept, every other control character dropped
 * (an ESC could end the bracketed paste early and press keys of its own).
 */
export function sanitizeTurn(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}

interface Entry {
  rec: TerminalRecord;
  state: TerminalState;
  /** Turns typed into this terminal, one after another. */
  turns: Promise<void>;
}

function checkSize(cols: number, rows: number): void {
  const ok = (n: number) => Number.isInteger(n) && n >= 1 && n <= MAX_SIZE;
  if (!ok(cols) || !ok(rows)) throw new TerminalError(`A terminal size is whole columns and rows from 1 to ${MAX_SIZE}, not ${cols}×${rows}`, 'refused');
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function words(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The module's exports, whether the loader hands over a CommonJS module as `default` or not. */
function cjs<T>(mod: T): T {
  return (mod as { default?: T }).default ?? mod;
}

class Host implements TerminalHost {
  private readonly entries = new Map<string, Entry>();
  private readonly records: TerminalRecords;
  private readonly env: NodeJS.ProcessEnv;
  private readonly now: () => number;
  private tmux: TmuxBackend | undefined;
  private pty: PtyBackend | undefined;
  private launcher: Backend | undefined;
  private avail: TerminalAvailability = { available: false, reason: 'the terminal host has not started yet' };
  private starting: Promise<void> | undefined;

  constructor(private readonly opts: TerminalHostOptions) {
    this.records = new TerminalRecords(opts.stateDir);
    this.env = opts.env ?? process.env;
    this.now = opts.now ?? Date.now;
  }

  private emit(e: TerminalEvent): void {
    try {
      this.opts.emit(e);
    } catch {
      // A listener's failure is not the terminal's.
    }
  }

  start(): Promise<void> {
    this.starting ??= this.doStart();
    return this.starting;
  }

  private async doStart(): Promise<void> {
    await this.records.ensureDir();
    const conf = join(this.records.dir, 'tmux.conf');
    await writeFileAtomic(conf, TMUX_CONF, { mode: 0o600 });
    const events: BackendEvents = {
      output: (id, data) => this.emit({ type: 'output', id, data }),
      exited: (id, code) => this.exited(id, code),
    };
    let ptyMod: typeof import('@lydell/node-pty') | undefined;
    let ptyProblem = '';
    try {
      ptyMod = cjs(await import('@lydell/node-pty'));
    } catch (e) {
      ptyProblem = `the terminal library (@lydell/node-pty) did not load: ${words(e)}`;
    }
    const found = await findTmux(this.env);
    if (found && ptyMod) {
      const clientEnv: Record<string, string> = {};
      for (const [k, v] of Object.entries(this.env)) if (v !== undefined && !(DROPPED_ENV as readonly string[]).includes(k)) clientEnv[k] = v;
      const client = new TmuxClient(found.bin, tmuxSocketName(this.opts.stateDir), conf, clientEnv);
      this.tmux = new TmuxBackend(client, ptyMod, events);
    }
    if (ptyMod && (this.opts.backend === 'pty' || !found)) {
      const { Terminal } = cjs(await import('@xterm/headless'));
      this.pty = new PtyBackend(ptyMod, Terminal, events);
    }
    this.launcher = this.opts.backend === 'pty' ? this.pty : this.opts.backend === 'tmux' ? this.tmux : (this.tmux ?? this.pty);
    if (this.launcher) this.avail = { available: true, backend: this.launcher.kind };
    else if (ptyProblem) this.avail = { available: false, reason: ptyProblem };
    else this.avail = { available: false, reason: 'tmux was not found (`tmux -V` did not run); install tmux or let Teamdeck use a plain terminal' };
    for (const rec of await this.records.readAll()) await this.adopt(rec);
  }

  /** A record from disk: still running (watched again), or exited now (written down). */
  private async adopt(rec: TerminalRecord): Promise<void> {
    const entry: Entry = { rec, state: rec.exitedAt === undefined ? 'running' : 'exited', turns: Promise.resolve() };
    this.entries.set(rec.id, entry);
    if (entry.state === 'exited') return;
    const backend = this.backendOf(rec);
    let r;
    try {
      r = backend ? await backend.reconnect(rec) : undefined;
    } catch {
      r = undefined;
    }
    if (r?.running) {
      backend!.watch(rec);
      return;
    }
    entry.state = 'exited';
    // Without an answer (no tmux now, tmux failing) the record stays as it is: a later start may know.
    if (!r) return;
    rec.exitedAt = this.now();
    if (r.exitCode !== undefined) rec.exitCode = r.exitCode;
    await this.persist(rec.id);
  }

  private backendOf(rec: TerminalRecord): Backend | undefined {
    return rec.backend === 'tmux' ? this.tmux : this.pty;
  }

  private persist(id: string): Promise<void> {
    return this.records.write(id, () => this.entries.get(id)?.rec).catch((e) => {
      console.warn(`teamdeck: could not write the record of terminal ${id}: ${words(e)}`);
    });
  }

  private exited(id: string, exitCode: number | undefined): void {
    const e = this.entries.get(id);
    if (!e || e.state === 'exited') return;
    e.state = 'exited';
    e.rec.exitedAt = this.now();
    if (exitCode !== undefined) e.rec.exitCode = exitCode;
    void this.persist(id);
    this.emit({ type: 'terminals' });
  }

  availability(): TerminalAvailability {
    return this.avail;
  }

  async launchAvailability(): Promise<TerminalAvailability> {
    if (!this.avail.available) return this.avail;
    try {
      await resolveClaude(this.opts.claudePath(), this.env);
      return this.avail;
    } catch (e) {
      if (!(e instanceof TerminalError)) throw e;
      // Told before the form is filled in, in the words a launch would fail with.
      return { ...this.avail, available: false, reason: e.message.replace(/[.\s]+$/, '') };
    }
  }

  private info(e: Entry): TerminalInfo {
    const r = e.rec;
    return {
      id: r.id,
      backend: r.backend,
      state: e.state,
      cwd: r.cwd,
      pid: r.pid,
      ...(r.team !== undefined ? { team: r.team } : {}),
      startedAt: r.startedAt,
      ...(r.exitedAt !== undefined ? { exitedAt: r.exitedAt } : {}),
      ...(r.exitCode !== undefined ? { exitCode: r.exitCode } : {}),
      title: terminalTitle(r.cwd, r.team),
      ...(r.permissionMode !== undefined ? { permissionMode: r.permissionMode } : {}),
    };
  }

  list(): TerminalInfo[] {
    return [...this.entries.values()].sort((a, b) => a.rec.startedAt - b.rec.startedAt).map((e) => this.info(e));
  }

  get(id: string): TerminalInfo | undefined {
    const e = this.entries.get(id);
    return e && this.info(e);
  }

  async launch(req: LaunchRequest): Promise<TerminalInfo> {
    const backend = this.launcher;
    if (!backend) throw new TerminalError(`Teamdeck cannot host a terminal: ${this.avail.reason}`, 'unavailable');
    const cwd = await resolveCwd(req.cwd, this.env);
    const file = await resolveClaude(this.opts.claudePath(), this.env);
    const id = newTerminalId();
    let pid: number;
    try {
      pid = await backend.spawn({ id, file, args: claudeArgs(req), cwd, env: launchEnv(this.env, cwd), cols: LAUNCH_COLS, rows: LAUNCH_ROWS });
    } catch (e) {
      if (e instanceof TerminalError) throw e;
      throw new TerminalError(`claude could not be started in a ${backend.kind} terminal: ${words(e)}`, 'unavailable');
    }
    const rec: TerminalRecord = { id, backend: backend.kind, cwd, pid, startedAt: this.now() };
    if (req.permissionMode) rec.permissionMode = req.permissionMode;
    const entry: Entry = { rec, state: 'running', turns: Promise.resolve() };
    this.entries.set(id, entry);
    const start = await procStart(pid);
    if (start !== undefined) rec.procStart = start;
    await this.persist(id);
    if (entry.state === 'running') backend.watch(rec);
    this.emit({ type: 'terminals' });
    return this.info(entry);
  }

  assignTeam(id: string, team: string): void {
    const e = this.need(id);
    if (e.rec.team === team) return;
    e.rec.team = team;
    void this.persist(id);
    this.emit({ type: 'terminals' });
  }

  private need(id: string): Entry {
    const e = this.entries.get(id);
    if (!e) throw new TerminalError(`There is no terminal ${id}`, 'not_found');
    return e;
  }

  /** The entry and its backend, for a call that needs the lead running. */
  private running(id: string): { e: Entry; backend: Backend } {
    const e = this.need(id);
    const backend = this.backendOf(e.rec);
    if (e.state === 'exited' || !backend) throw new TerminalError(`The lead in terminal ${id} has exited`, 'exited');
    return { e, backend };
  }

  async attach(id: string, cols: number, rows: number): Promise<{ screen: string }> {
    checkSize(cols, rows);
    const e = this.need(id);
    const backend = this.backendOf(e.rec);
    if (!backend) {
      if (e.state === 'exited') throw new TerminalError(`The lead in terminal ${id} has exited; its screen is gone`, 'exited');
      throw new TerminalError(`Terminal ${id} runs in ${e.rec.backend}, which this Teamdeck cannot reach`, 'unavailable');
    }
    return { screen: await backend.attach(id, cols, rows) };
  }

  detach(id: string): void {
    const e = this.entries.get(id);
    if (e) this.backendOf(e.rec)?.detach(id);
  }

  input(id: string, data: string): void {
    this.running(id).backend.input(id, data);
  }

  resize(id: string, cols: number, rows: number): void {
    checkSize(cols, rows);
    this.running(id).backend.resize(id, cols, rows);
  }

  async close(id: string): Promise<void> {
    const e = this.need(id);
    if (e.state !== 'exited') throw new TerminalError(`The lead in terminal ${id} still runs: end the lead in its terminal first (type /exit)`, 'refused');
    await this.backendOf(e.rec)?.discard(id);
    this.entries.delete(id);
    await this.records.remove(id);
    this.emit({ type: 'terminals' });
  }

  typeTurn(id: string, text: string | readonly string[]): Promise<void> {
    const { e, backend } = this.running(id);
    const raw = typeof text === 'string' ? [text] : [...text];
    // A CR LF split between two pieces is one line break, not two.
    for (let i = 0; i + 1 < raw.length; i++) if (raw[i]!.endsWith('\r') && raw[i + 1]!.startsWith('\n')) raw[i] = raw[i]!.slice(0, -1);
    const pieces = raw.map(sanitizeTurn).filter((p) => p !== '');
    if (pieces.join('').trim() === '') return Promise.reject(new TerminalError('There is nothing to type', 'refused'));
    const turn = e.turns.then(async () => {
      try {
        for (const [i, piece] of pieces.entries()) {
          if (i > 0) await delay(PIECE_PAUSE_MS);
          await backend.paste(id, piece);
        }
        await delay(TURN_ENTER_PAUSE_MS);
        await backend.enter(id);
      } catch (err) {
        if (err instanceof TerminalError) throw err;
        throw new TerminalError(`Typing into terminal ${id} failed: ${words(err)}`, 'unavailable');
      }
    });
    // The caller gets this turn's failure from `turn`; the chain only orders the turns.
    e.turns = turn.catch(() => {});
    return turn;
  }

  async screenText(id: string): Promise<string> {
    const e = this.need(id);
    const text = await this.backendOf(e.rec)?.screenText(id);
    if (text === undefined) throw new TerminalError(`The screen of terminal ${id} is gone (its lead exited)`, 'exited');
    return text;
  }

  async stop(): Promise<void> {
    // A failed start was told to whoever started the host; stopping goes on regardless.
    await this.starting?.catch(() => {});
    await this.tmux?.stop();
    await this.pty?.stop();
    await this.records.settle();
  }
}

export function createTerminalHost(opts: TerminalHostOptions): TerminalHost {
  return new Host(opts);
}
