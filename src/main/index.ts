// Electron main: one hardened window over the same ApiHandlers the browser host uses.
// Teams root: --teams-dir, TEAMDECK_TEAMS_DIR, the teamsDir setting, then Claude's default.
// State dir: --state-dir, TEAMDECK_STATE_DIR, then the platform's app-data folder (as the CLI).
import { app, BrowserWindow, dialog, ipcMain, Menu, Notification, session, shell } from 'electron';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CHANNELS, type AppEvent } from '../shared/contract.js';
import { ApiHandlers } from '../engine/api/api-handlers.js';
import { createTerminalHost } from '../engine/terminals/host.js';
import { resolveStateDir } from '../engine/claude/paths.js';
import { StateDirBusyError } from '../engine/service/service-types.js';
import { SettingsStore } from '../engine/service/settings.js';
import { TeamService } from '../engine/service/team-service.js';
import { withEngineSocket } from '../engine/socket/with-socket.js';
import { parseAppArgs } from './args.js';
import { startDemoTeam } from '../sim/demo-team.js';
import { registerIpc } from './ipc.js';
import { menuTemplate } from './menu.js';
import { showNeedNotification } from './need-notification.js';
import { needNotices, replyNotice } from './notifications.js';
import {
  CONTENT_SECURITY_POLICY,
  devContentSecurityPolicy,
  hardenWebContents,
  isAppUrl,
  secureSession,
  type RendererSource,
} from './security.js';
import { createMainWindow, currentWindowState } from './window.js';
import { loadWindowState, saveWindowState } from './window-state.js';

const here = dirname(fileURLToPath(import.meta.url));
const PRELOAD = join(here, '../preload/index.cjs');
const INDEX_HTML = join(here, '../renderer/index.html');
const devUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
const source: RendererSource = devUrl ? { kind: 'dev', origin: devUrl } : { kind: 'file', fileUrl: pathToFileURL(INDEX_HTML).href };
const isOwnUrl = (url: string) => isAppUrl(url, source);

const args = parseAppArgs(process.argv.slice(1));
// The state dir is the CLI's (resolveStateDir): the app and `teamdeck send` must share one
// journal and one owner lock. On macOS and Windows that is the app's userData folder; on Linux
// the XDG state folder. userData holds Chromium's profile under the same name in development
// and packaged builds; an explicit state dir gets its own profile (and so its own
// single-instance lock) inside it.
const explicitState = args.stateDir ?? process.env.TEAMDECK_STATE_DIR;
if (explicitState) app.setPath('userData', join(resolve(explicitState), 'chromium'));
else app.setPath('userData', join(app.getPath('appData'), 'Teamdeck'));
const stateDir = resolveStateDir({ stateDir: args.stateDir });

let win: BrowserWindow | undefined;
let handlers: ApiHandlers | undefined;
let settings: SettingsStore | undefined;
const startedAt = Date.now();
const notified = new Set<string>();
const knownNeeds = new Set<string>();

function showWindow(): void {
  if (!win || win.isDestroyed()) return;
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}

/** The window forward, with this needs-you item open (a window closed on macOS opens again first). */
async function openNeed(need: string): Promise<void> {
  if (!win || win.isDestroyed()) await openWindow();
  const w = win;
  if (!w || w.isDestroyed()) return;
  showWindow();
  const send = () => w.webContents.send(CHANNELS.event, { type: 'open-need', need } satisfies AppEvent);
  if (w.webContents.isLoading()) w.webContents.once('did-finish-load', send);
  else send();
}

async function openWindow(): Promise<void> {
  const saved = await loadWindowState(stateDir);
  const w = createMainWindow({ preload: PRELOAD, source, indexHtml: INDEX_HTML, saved, devTools: !app.isPackaged });
  win = w;
  let saveTimer: NodeJS.Timeout | undefined;
  const remember = () => {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => {
      // The window's place is a convenience: one not saved opens at the last saved place, or the default.
      if (!w.isDestroyed()) void saveWindowState(stateDir, currentWindowState(w)).catch(() => {});
    }, 500);
  };
  w.on('resize', remember);
  w.on('move', remember);
  w.on('close', () => {
    clearTimeout(saveTimer);
    // Its place is a convenience: a save that fails must not hold the window's closing up.
    void saveWindowState(stateDir, currentWindowState(w)).catch(() => {});
  });
  w.on('closed', () => {
    if (win === w) win = undefined;
  });
}

async function start(): Promise<void> {
  await app.whenReady();
  secureSession(session.defaultSession, source, devUrl ? devContentSecurityPolicy(devUrl) : CONTENT_SECURITY_POLICY);
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  settings = await SettingsStore.open(stateDir);
  try {
    handlers = await ApiHandlers.create({
      stateDir,
      settings,
      teamsDirFlag: args.teamsDir,
      // The leads launched from the window run in Teamdeck's tmux server (or a pty in this process).
      terminalHost: ({ stateDir: dir, claudePath }) => (o) => createTerminalHost({ stateDir: dir, claudePath, ...o }),
      createService: (o) => withEngineSocket(new TeamService(o)),
      startDemo: () => startDemoTeam(),
      openExternal: (url) => shell.openExternal(url),
      log: (message, error) => console.error(`teamdeck: ${message}`, error ?? ''),
    });
  } catch (e) {
    const busy = e instanceof StateDirBusyError;
    dialog.showErrorBox(
      busy ? 'Teamdeck is already running' : 'Teamdeck cannot start',
      busy
        ? `${(e as Error).message}\n\nAnother Teamdeck (the app or \`teamdeck serve\`) owns ${stateDir}. Close it, or start this one with --state-dir.`
        : (e as Error).message,
    );
    app.exit(1);
    return;
  }
  const h = handlers;
  registerIpc(ipcMain, h, () => win, isOwnUrl);
  h.onEvent((event) => {
    if (win && !win.isDestroyed()) win.webContents.send(CHANNELS.event, event);
    const notice = replyNotice(event, {
      focused: !!win && !win.isDestroyed() && win.isFocused(),
      enabled: settings?.get().notifications ?? false,
      since: startedAt,
      seen: notified,
    });
    const needs = needNotices(event, {
      focused: !!win && !win.isDestroyed() && win.isFocused(),
      enabled: settings?.get().needsNotifications ?? false,
      known: knownNeeds,
      since: startedAt,
    });
    if (!Notification.isSupported()) return;
    if (notice) {
      const n = new Notification({ title: notice.title, body: notice.body });
      n.on('click', showWindow);
      n.show();
    }
    for (const need of needs) {
      showNeedNotification(need, {
        platform: process.platform,
        // The window's own path: validated by dispatch, recorded as from the window.
        answer: (req) => h.dispatch('answerPrompt', [req]),
        waiting: (id) => knownNeeds.has(id),
        openNeed: (id) => void openNeed(id),
      });
    }
  });
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate({
        isMac: process.platform === 'darwin',
        isDev: !app.isPackaged,
        appName: 'Teamdeck',
        onStartDemo: () => void h.calls.startDemo(),
      }),
    ),
  );
  await openWindow();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', showWindow);
  // Every web contents, present and future, gets the same navigation and window-open denials.
  app.on('web-contents-created', (_e, contents) => hardenWebContents(contents));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (handlers && BrowserWindow.getAllWindows().length === 0) void openWindow();
  });
  let shuttingDown = false;
  app.on('before-quit', (event) => {
    if (shuttingDown || !handlers) return;
    // Stop the engine first: it flushes the journal and releases the state-dir lock.
    event.preventDefault();
    shuttingDown = true;
    void handlers.close().finally(() => app.quit());
  });
  start().catch((e: unknown) => {
    dialog.showErrorBox('Teamdeck cannot start', e instanceof Error ? e.message : String(e));
    app.exit(1);
  });
}
