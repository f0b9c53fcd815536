// Which keys in a terminal pane are Teamdeck's rather than the program's. Ctrl+Shift+C and
// Ctrl+Shift+V (Cmd+Shift on macOS) copy and paste, as in desktop terminals, since plain Ctrl+C
// and Ctrl+V belong to the program (interrupt, literal next). The app's own Ctrl/Cmd+Shift
// shortcuts (launch, needs, activity) pass through to the window. Everything else is typed.

export type TerminalKeyAction = 'copy' | 'paste' | 'app';

/** The app's window shortcuts that also work from inside a terminal: Ctrl/Cmd+Shift + these. */
const APP_KEYS = new Set(['l', 'n', 'a']);

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

export function terminalKeyAction(e: KeyLike, mac: boolean): TerminalKeyAction | undefined {
  const mod = mac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
  if (!mod || !e.shiftKey || e.altKey) return undefined;
  const k = e.key.toLowerCase();
  if (k === 'c') return 'copy';
  if (k === 'v') return 'paste';
  return APP_KEYS.has(k) ? 'app' : undefined;
}

export function isMacPlatform(): boolean {
  const p = typeof navigator === 'undefined' ? '' : navigator.platform || navigator.userAgent;
  return /Mac|iPhone|iPad/.test(p);
}
