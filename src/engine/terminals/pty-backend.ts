// Leads in a pty of this process (when there is no tmux): they end when Teamdeck ends. A headless
// xterm follows each screen, for screenText() and for the screen a viewer paints when it joins,
// and answers the lead's terminal queries while no viewer is there to answer them.
import type { IPty } from '@lydell/node-pty';
import type { Terminal } from '@xterm/headless';
import type { Backend, BackendEvents, Reconnect, SpawnSpec } from './backend.js';
import type { TerminalRecord } from './records.js';
import { paintScreen, plainScreen } from './screen-serialize.js';
import { TerminalError } from './types.js';

type PtyModule = typeof import('@lydell/node-pty');
type TerminalClass = typeof Terminal;

/** How long stop() waits for a lead to end after SIGHUP before it sends SIGKILL. */
const STOP_GRACE_MS = 2_000;
/** Lines the headless screen keeps above the visible rows (only the visible ones are read). */
const SCROLLBACK = 200;

interface PtyTerm {
  pty: IPty;
  screen: Terminal;
  viewers: number;
  exited: boolean;
  ended: Promise<void>;
  cursorHidden: boolean;
}

export class PtyBackend implements Backend {
  readonly kind = 'pty' as const;
  private readonly terms = new Map<string, PtyTerm>();

  constructor(
    private readonly pty: PtyModule,
    private readonly Screen: TerminalClass,
    private readonly events: BackendEvents,
  ) {}

  async spawn(spec: SpawnSpec): Promise<number> {
    const pty = this.pty.spawn(spec.file, spec.args, { name: 'xterm-256color', cols: spec.cols, rows: spec.rows, cwd: spec.cwd, env: spec.env });
    const screen = new this.Screen({ cols: spec.cols, rows: spec.rows, scrollback: SCROLLBACK, allowProposedApi: true });
    let ended!: () => void;
    const t: PtyTerm = { pty, screen, viewers: 0, exited: false, ended: new Promise((r) => (ended = r)), cursorHidden: false };
    // DECTCEM (cursor shown or hidden) is not among the headless terminal's public modes.
    const cursorMode = (hidden: boolean) => (params: (number | number[])[]) => {
      if (params.includes(25)) t.cursorHidden = hidden;
      return false;
    };
    screen.parser.registerCsiHandler({ prefix: '?', final: 'h' }, cursorMode(false));
    screen.parser.registerCsiHandler({ prefix: '?', final: 'l' }, cursorMode(true));
    // The lead's queries (cursor position, device attributes): a viewer's terminal answers
    // them while one is attached, the headless screen otherwise.
    screen.onData((data) => {
      if (t.viewers === 0 && !t.exited) pty.write(data);
    });
    pty.onData((data) => {
      screen.write(data);
      if (t.viewers > 0) this.events.output(spec.id, data);
    });
    pty.onExit(({ exitCode, signal }) => {
      t.exited = true;
      ended();
      this.events.exited(spec.id, signal ? 128 + signal : exitCode);
    });
    this.terms.set(spec.id, t);
    return pty.pid;
  }

  /** A pty lead of an earlier Teamdeck ended with it (its terminal closed). */
  async reconnect(_rec: TerminalRecord): Promise<Reconnect> {
    return { running: false };
  }

  watch(_rec: TerminalRecord): void {
    // node-pty reports the exit itself.
  }

  private need(id: string): PtyTerm {
    const t = this.terms.get(id);
    if (!t) throw new TerminalError(`Terminal ${id} ran in a Teamdeck that has quit; its screen is gone`, 'exited');
    return t;
  }

  /** Resolves once the headless screen has taken in all output so far. */
  private flushed(t: PtyTerm): Promise<void> {
    return new Promise((r) => t.screen.write('', r));
  }

  private setSize(t: PtyTerm, cols: number, rows: number): void {
    if (t.screen.cols === cols && t.screen.rows === rows) return;
    if (!t.exited) t.pty.resize(cols, rows);
    t.screen.resize(cols, rows);
  }

  async attach(id: string, cols: number, rows: number): Promise<string> {
    const t = this.need(id);
    t.viewers++;
    this.setSize(t, cols, rows);
    await this.flushed(t);
    return paintScreen(t.screen, { cursorHidden: t.cursorHidden });
  }

  detach(id: string): void {
    const t = this.terms.get(id);
    if (t && t.viewers > 0) t.viewers--;
  }

  input(id: string, data: string): void {
    const t = this.need(id);
    if (!t.exited) t.pty.write(data);
  }

  resize(id: string, cols: number, rows: number): void {
    this.setSize(this.need(id), cols, rows);
  }

  async paste(id: string, text: string): Promise<void> {
    const t = this.need(id);
    await this.flushed(t);
    // As a terminal pastes: in brackets when the program turned bracketed paste on.
    t.pty.write(t.screen.modes.bracketedPasteMode ? `\x1b[200~${text}\x1b[201~` : text);
  }

  async enter(id: string): Promise<void> {
    this.need(id).pty.write('\r');
  }

  async screenText(id: string): Promise<string | undefined> {
    const t = this.terms.get(id);
    if (!t) return undefined;
    await this.flushed(t);
    return plainScreen(t.screen);
  }

  async discard(id: string): Promise<void> {
    const t = this.terms.get(id);
    this.terms.delete(id);
    t?.screen.dispose();
  }

  /** Leads in a pty cannot outlive this process: SIGHUP (as a closing terminal sends), then SIGKILL. */
  async stop(): Promise<void> {
    const running = [...this.terms.values()].filter((t) => !t.exited);
    for (const t of running) t.pty.kill('SIGHUP');
    await Promise.all(
      running.map(async (t) => {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), STOP_GRACE_MS)));
        if ((await Promise.race([t.ended, late])) === 'late') {
          t.pty.kill('SIGKILL');
          await Promise.race([t.ended, new Promise((r) => setTimeout(r, 500))]);
        }
        clearTimeout(timer);
      }),
    );
    for (const t of this.terms.values()) t.screen.dispose();
    this.terms.clear();
  }
}
