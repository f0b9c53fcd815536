// Every security setting of the Electron shell in one place, so the unit tests can pin them:
// the window's webPreferences, the Content-Security-Policy, what the app's own URL is, and the
// handlers that deny navigation, new windows, webviews and permission requests.
// Type-only imports: this file runs in main but never needs electron at module load.
import type { Event, HandlerDetails, Session, WebContents, WebPreferences } from 'electron';

/** The renderer loads only its own bundled files and talks to main only over the preload. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/**
 * The development server (electron-vite dev) injects inline scripts and styles for hot reload
 * and talks to its own origin over a WebSocket; it is never used in a built app.
 */
export function devContentSecurityPolicy(devOrigin: string): string {
  const u = new URL(devOrigin);
  const ws = `${u.protocol === 'https:' ? 'wss' : 'ws'}://${u.host}`;
  return [
    "default-src 'none'",
    "script-src 'self' 'unsafe-inline'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${ws}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** The only webPreferences any Teamdeck window is created with. */
export function secureWebPreferences(preload: string, opts: { devTools?: boolean } = {}): WebPreferences {
  return {
    preload,
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    // Chromium's spellchecker downloads dictionaries; Teamdeck makes no network requests.
    spellcheck: false,
    devTools: opts.devTools ?? false,
  };
}

/** Where the renderer is loaded from: the built index.html, or the dev server in development. */
export type RendererSource = { kind: 'file'; fileUrl: string } | { kind: 'dev'; origin: string };

/** True only for the app's own renderer page (query and hash ignored). */
export function isAppUrl(url: string, source: RendererSource): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (source.kind === 'file') {
    const own = new URL(source.fileUrl);
    return u.protocol === 'file:' && u.host === own.host && u.pathname === own.pathname;
  }
  return u.origin === new URL(source.origin).origin;
}

/** Whether a response belongs to the app's own renderer (its page and assets), to set the CSP on. */
export function isAppResource(url: string, source: RendererSource): boolean {
  if (source.kind === 'dev') return isAppUrl(url, source);
  try {
    return new URL(url).protocol === 'file:';
  } catch {
    return false;
  }
}

/** The subset of WebContents the hardening uses, so tests can pass a fake. */
export type HardenableContents = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

/**
 * No navigation, no redirects, no new windows, no webviews. Links leave the app only through
 * the contract's openExternal call, which accepts http(s) alone.
 */
export function hardenWebContents(contents: HardenableContents): void {
  contents.on('will-navigate', (event: Event) => event.preventDefault());
  contents.on('will-frame-navigate', (event: Event) => event.preventDefault());
  contents.on('will-redirect', (event: Event) => event.preventDefault());
  contents.on('will-attach-webview', (event: Event) => event.preventDefault());
  contents.setWindowOpenHandler((_details: HandlerDetails) => ({ action: 'deny' }));
}

export type SecurableSession = Pick<
  Session,
  'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler' | 'on'
> & { webRequest: Pick<Session['webRequest'], 'onHeadersReceived'> };

/**
 * The one download the window may start: a file the app's own page made itself (an export, a
 * `blob:` URL of the page's origin). Electron asks where to save it in its save dialog.
 */
export function isOwnExport(downloadUrl: string, pageUrl: string | undefined, source: RendererSource): boolean {
  if (!downloadUrl.startsWith('blob:') || pageUrl === undefined || !isAppUrl(pageUrl, source)) return false;
  // A file: page's blobs are `blob:file:///<uuid>`; a build that counts file: as opaque writes `blob:null/<uuid>`.
  if (source.kind === 'file' && downloadUrl.startsWith('blob:null/')) return true;
  let inner: URL;
  try {
    inner = new URL(downloadUrl.slice('blob:'.length));
  } catch {
    return false;
  }
  return source.kind === 'file' ? inner.protocol === 'file:' : inner.origin === new URL(source.origin).origin;
}

/** Denies every permission, blocks downloads but the page's own exports, and puts the CSP on the app's own responses. */
export function secureSession(session: SecurableSession, source: RendererSource, csp: string): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.on('will-download', (event, item, contents) => {
    // No save path is set: Electron shows its save dialog, and the user picks the file.
    if (item && isOwnExport(item.getURL(), contents?.getURL(), source)) return;
    event.preventDefault();
  });
  session.webRequest.onHeadersReceived((details, callback) => {
    if (!isAppResource(details.url, source)) return callback({});
    const headers = { ...(details.responseHeaders ?? {}) };
    for (const k of Object.keys(headers)) if (k.toLowerCase() === 'content-security-policy') delete headers[k];
    headers['Content-Security-Policy'] = [csp];
    headers['X-Content-Type-Options'] = ['nosniff'];
    callback({ responseHeaders: headers });
  });
}
