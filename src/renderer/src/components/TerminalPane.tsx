// A hosted lead terminal drawn with xterm.js. On mount it attaches at the pane's size, paints the
// screen the host returns and then every output event for it (straight into xterm, not through
// React state); what is typed or pasted goes back in order, a resize is fitted and sent
// (debounced), and unmounting detaches (the lead keeps running). Copy with Ctrl/Cmd+Shift+C or
// the browser's copy; paste with Ctrl/Cmd+Shift+V or the paste event, through xterm's own paste
// (bracketed when the program asked for it). An exited lead's screen stays readable, with when it
// exited and a Close button.
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef, useState } from 'react';
import { isMacPlatform, terminalKeyAction } from '../lib/terminal-keys';
import { TERMINAL_FONT, terminalTheme } from '../lib/terminal-theme';
import { pointInTime } from '../lib/time';
import { modKey } from '../lib/platform';
import { useDarkTheme } from './theme-hooks';
import { registerTerminal } from '../lib/terminal-focus';
import { openUnderStrictCsp } from '../lib/xterm-csp';
import { useActions, useDeck } from '../state/context';


function fitSafely(fit: FitAddon): void {
  try {
    fit.fit();
  } catch {
    // A pane with no size yet (hidden, being laid out): the next observed resize fits it.
  }
}

/** Copies the selection: the browser's copy command (xterm fills the clipboard), else the clipboard API. */
function copySelection(term: Terminal): void {
  if (!term.hasSelection()) return;
  const text = term.getSelection();
  let done = false;
  try {
    done = document.execCommand('copy');
  } catch {
    done = false;
  }
  // The last try: a refused clipboard loses nothing, the selection is still there to copy another way.
  if (!done) void navigator.clipboard?.writeText(text).catch(() => undefined);
}

function ExitedBar({ id, code, at }: { id: string; code?: number; at?: number }) {
  const actions = useActions();
  const when = useDeck((s) => (at ? pointInTime(at, s.now) : ''));
  const [error, setError] = useState<string>();
  return (
    <div data-testid="terminal-exited" className="flex items-center gap-3 border-t border-zinc-200 bg-zinc-50 px-5 py-2 text-xs text-zinc-700 dark:border-zinc-800 dark:bg-zinc-950/60 dark:text-zinc-300">
      <span className="min-w-0 flex-1">
        The lead exited{code !== undefined ? ` (code ${code})` : ''}
        {when ? ` at ${when}` : ''}. Its screen stays readable until you close it.
        {error && (
          <span role="alert" className="ml-2 text-red-700 dark:text-red-400">
            Not closed: {error}
          </span>
        )}
      </span>
      <button
        type="button"
        data-testid="terminal-close"
        className="btn-secondary !px-2.5 !py-1 !text-xs"
        onClick={() => void actions.closeTerminal(id).then(setError)}
      >
        Close
      </button>
    </div>
  );
}

export default function TerminalPane({ id }: { id: string }) {
  const actions = useActions();
  const state = useDeck((s) => s.terminals.find((t) => t.id === id)?.state);
  const exitCode = useDeck((s) => s.terminals.find((t) => t.id === id)?.exitCode);
  const exitedAt = useDeck((s) => s.terminals.find((t) => t.id === id)?.exitedAt);
  const dark = useDarkTheme();
  const host = useRef<HTMLDivElement>(null);
  const termRef = useRef<Terminal | undefined>(undefined);
  const [error, setError] = useState<string>();
  // The theme at mount; later changes go through the effect below, without a new terminal.
  const darkAtMount = useRef(dark);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const mac = isMacPlatform();
    const term = new Terminal({
      scrollback: 10_000,
      fontFamily: TERMINAL_FONT,
      fontSize: 13,
      lineHeight: 1.15,
      cursorBlink: true,
      theme: terminalTheme(darkAtMount.current),
      allowProposedApi: false,
    });
    const fit = new FitAddon();
    term.loadAddon(fit);
    const dropStyles = openUnderStrictCsp(el, () => term.open(el));
    // The size in the DOM as well (not React state): what the program should be told, for tests and tools.
    const showSize = (cols: number, rows: number) => (el.dataset.size = `${cols}x${rows}`);
    fitSafely(fit);
    showSize(term.cols, term.rows);
    termRef.current = term;
    const unregister = registerTerminal(id, term);

    const conn = actions.connectTerminal(id, { write: (d) => term.write(d) }, { onError: setError });
    const onData = term.onData((d) => conn.input(d));
    const onResize = term.onResize(({ cols, rows }) => {
      showSize(cols, rows);
      conn.resize(cols, rows);
    });

    // A Ctrl/Cmd+Shift+V whose paste event never came (no native paste for that shortcut here):
    // read the clipboard instead. term.paste() brackets it when the program asked for that.
    let pasteExpected = false;
    const onPaste = () => {
      pasteExpected = false;
    };
    el.addEventListener('paste', onPaste, true);
    term.attachCustomKeyEventHandler((e) => {
      const action = terminalKeyAction(e, mac);
      if (!action) return true;
      if (e.type !== 'keydown') return false;
      if (action === 'copy') {
        e.preventDefault();
        copySelection(term);
      } else if (action === 'paste') {
        // Left to the browser first: its paste command fires a paste event that xterm handles.
        pasteExpected = true;
        setTimeout(() => {
          if (!pasteExpected) return;
          pasteExpected = false;
          void navigator.clipboard
            ?.readText()
            .then((text) => text && term.paste(text))
            .catch(() => setError('the clipboard could not be read; use the paste command of the Edit menu or the context menu'));
        }, 50);
      }
      // Not the program's: xterm leaves it alone and it goes on to the window (app shortcuts).
      return false;
    });

    const observer = new ResizeObserver(() => fitSafely(fit));
    observer.observe(el);

    setError(undefined);
    void conn.attach(term.cols, term.rows).then((err) => {
      if (err) setError(err);
    });
    term.focus();

    return () => {
      observer.disconnect();
      el.removeEventListener('paste', onPaste, true);
      onData.dispose();
      onResize.dispose();
      conn.close();
      unregister();
      termRef.current = undefined;
      term.dispose();
      dropStyles();
    };
  }, [actions, id]);

  useEffect(() => {
    if (termRef.current) termRef.current.options.theme = terminalTheme(dark);
  }, [dark]);

  // An exited lead reads nothing: keystrokes would only be refused.
  useEffect(() => {
    if (termRef.current) termRef.current.options.disableStdin = state === 'exited';
  }, [state]);

  return (
    <div data-testid="terminal-pane" data-terminal={id} data-state={state ?? 'gone'} className="flex min-h-0 min-w-0 flex-1 flex-col bg-white dark:bg-zinc-900">
      {state === 'starting' && (
        <p data-testid="terminal-starting" className="border-b border-zinc-200 px-5 py-1.5 text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
          Starting claude…
        </p>
      )}
      {state === undefined && (
        <p className="border-b border-zinc-200 px-5 py-1.5 text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">Teamdeck no longer hosts this terminal.</p>
      )}
      {error && (
        <p role="alert" data-testid="terminal-error" className="border-b border-red-200 bg-red-50 px-5 py-1.5 text-xs text-red-800 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-300">
          {error}
        </p>
      )}
      <div className="min-h-0 min-w-0 flex-1 py-2 pl-4 pr-1">
        <div ref={host} data-testid="terminal-screen" className="h-full w-full" />
      </div>
      {state === 'exited' ? (
        <ExitedBar id={id} code={exitCode} at={exitedAt} />
      ) : (
        <p className="border-t border-zinc-200 px-5 py-1 text-[11px] text-zinc-400 dark:border-zinc-800 dark:text-zinc-500">
          Typing goes to the lead · <kbd>{modKey()}+Shift+C</kbd> copy · <kbd>{modKey()}+Shift+V</kbd> paste
        </p>
      )}
    </div>
  );
}
