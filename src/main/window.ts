// The one Teamdeck window: sandboxed, context-isolated, preload-only, hardened before it loads.
import { BrowserWindow, nativeTheme, screen } from 'electron';
import { hardenWebContents, secureWebPreferences, type RendererSource } from './security.js';
import { fitToDisplays, MIN_SIZE, type WindowState } from './window-state.js';

export interface MainWindowOptions {
  preload: string;
  source: RendererSource;
  /** The built index.html, for the file source. */
  indexHtml: string;
  saved?: WindowState;
  devTools: boolean;
}

export function createMainWindow(opts: MainWindowOptions): BrowserWindow {
  const fitted = fitToDisplays(
    opts.saved,
    [screen.getPrimaryDisplay(), ...screen.getAllDisplays()].map((d) => d.workArea),
  );
  const win = new BrowserWindow({
    x: fitted.x,
    y: fitted.y,
    width: fitted.width,
    height: fitted.height,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    title: 'Teamdeck',
    show: false,
    // Matches the renderer's first paint so the window does not flash white in dark mode.
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#0f1115' : '#ffffff',
    webPreferences: secureWebPreferences(opts.preload, { devTools: opts.devTools }),
  });
  hardenWebContents(win.webContents);
  if (fitted.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());
  if (opts.source.kind === 'dev') void win.loadURL(opts.source.origin);
  else void win.loadFile(opts.indexHtml);
  return win;
}

/** The bounds to remember: the normal (not maximized) bounds plus whether it was maximized. */
export function currentWindowState(win: BrowserWindow): WindowState {
  const b = win.getNormalBounds();
  return { x: b.x, y: b.y, width: b.width, height: b.height, maximized: win.isMaximized() };
}
