// One pane's link to a hosted terminal: attach at a size, paint the returned screen, then every
// `terminal-output` event for that terminal, straight into a sink (the xterm instance), never
// through React state. Input goes through an ordered, chunked queue; resizes are debounced; the
// link detaches when closed (after its attach has been answered, so the host never keeps a
// viewer that nobody closes).
import type { TeamdeckApi } from '../../../shared/contract';
import { MAX_TERMINAL_INPUT, TERMINAL_COLS_RANGE, TERMINAL_ROWS_RANGE } from '../lib/terminal-limits';
import { createInputQueue } from '../lib/terminal-input';

export type TerminalApi = Pick<TeamdeckApi, 'onEvent' | 'attachTerminal' | 'terminalInput' | 'resizeTerminal' | 'detachTerminal'>;

export interface TerminalSink {
  write(data: string): void;
}

export interface TerminalConnectionOptions {
  /** A call the host refused (input, resize), in words. */
  onError?: (message: string) => void;
  /** How long a resize waits for the next one before it is sent. */
  resizeDelayMs?: number;
}

export interface TerminalConnection {
  /** Attaches at this size; resolves with the host's refusal in words, or undefined once painted. */
  attach(cols: number, rows: number): Promise<string | undefined>;
  /** Keystrokes or a paste, as the terminal produced them. */
  input(data: string): void;
  /** The pane's new size; only the last of a quick series is sent. */
  resize(cols: number, rows: number): void;
  /** Resolves once all input so far has been answered. */
  idle(): Promise<void>;
  close(): void;
}

const clamp = (n: number, r: { min: number; max: number }) => Math.min(r.max, Math.max(r.min, Math.floor(n)));

export function connectTerminal(api: TerminalApi, id: string, sink: TerminalSink, opts: TerminalConnectionOptions = {}): TerminalConnection {
  const delay = opts.resizeDelayMs ?? 100;
  /** Output that arrived before the attach was answered: it follows the screen. */
  let early: string[] | undefined = [];
  let painted = false;
  let closed = false;
  let attached = false;
  let size: { cols: number; rows: number } | undefined;
  let resizeTimer: ReturnType<typeof setTimeout> | undefined;

  const off = api.onEvent((ev) => {
    if (ev.type !== 'terminal-output' || ev.id !== id || closed) return;
    if (painted) sink.write(ev.data);
    else early?.push(ev.data);
  });

  const queue = createInputQueue((data) => api.terminalInput(id, data), { max: MAX_TERMINAL_INPUT, onError: opts.onError });

  return {
    async attach(cols, rows) {
      size = { cols: clamp(cols, TERMINAL_COLS_RANGE), rows: clamp(rows, TERMINAL_ROWS_RANGE) };
      let r: Awaited<ReturnType<TerminalApi['attachTerminal']>>;
      try {
        r = await api.attachTerminal(id, size.cols, size.rows);
      } catch (e) {
        r = { ok: false, error: { code: 'internal', message: e instanceof Error ? e.message : String(e) } };
      }
      if (!r.ok) {
        early = undefined;
        return r.error.message;
      }
      attached = true;
      if (closed) {
        void api.detachTerminal(id);
        return undefined;
      }
      sink.write(r.value.screen);
      for (const d of early ?? []) sink.write(d);
      early = undefined;
      painted = true;
      return undefined;
    },
    input: (data) => queue.push(data),
    resize(cols, rows) {
      const next = { cols: clamp(cols, TERMINAL_COLS_RANGE), rows: clamp(rows, TERMINAL_ROWS_RANGE) };
      if (resizeTimer) clearTimeout(resizeTimer);
      resizeTimer = setTimeout(() => {
        resizeTimer = undefined;
        if (closed || (size && size.cols === next.cols && size.rows === next.rows)) return;
        size = next;
        void api.resizeTerminal(id, next.cols, next.rows).then((r) => {
          if (!r.ok) opts.onError?.(r.error.message);
        });
      }, delay);
    },
    idle: () => queue.idle(),
    close() {
      if (closed) return;
      closed = true;
      off();
      queue.close();
      if (resizeTimer) clearTimeout(resizeTimer);
      // Detach only a viewer the host counted: now, or (an attach still on its way) when
      // attach() gets its answer and sees `closed`.
      if (attached) void api.detachTerminal(id);
    },
  };
}
