// The Electron shell's security configuration, pinned so that any weakening fails here:
// - the real main process (index.ts) started against a stand-in `electron`: every window it
//   creates is sandboxed and context-isolated with no Node, no webview and no insecure content;
//   navigation, redirects, webviews and window.open are refused for every web contents (the
//   window's and any created later); the session denies permissions and puts the CSP on the
//   app's responses; IPC is registered for exactly the contract's calls;
// - every `new BrowserWindow(` under src/main is built from secureWebPreferences, and no
//   source file turns a protection off;
// - the CSP's exact directive set, and the renderer's meta policy matching it;
// - electron-builder.yml's fuses.
// The Electron binary is not needed (and is not available on every machine).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { CALL_NAMES, CHANNELS } from '../shared/contract.js';
import { makeTempDir, REPO_ROOT } from '../../test/helpers/tmp.js';
import { CONTENT_SECURITY_POLICY, devContentSecurityPolicy, secureWebPreferences } from './security.js';

type Handler = (...args: unknown[]) => unknown;

const fake = vi.hoisted(() => {
  const on = (map: Map<string, Handler[]>) => (name: string, fn: Handler) => {
    map.set(name, [...(map.get(name) ?? []), fn]);
  };
  class FakeContents {
    handlers = new Map<string, Handler[]>();
    openHandler: Handler | undefined;
    mainFrame = { processId: 1, routingId: 1, parent: null, url: '' };
    on = on(this.handlers);
    setWindowOpenHandler(fn: Handler) {
      this.openHandler = fn;
    }
    send() {}
    isDestroyed() {
      return false;
    }
  }
  const windows: FakeWindow[] = [];
  class FakeWindow {
    webContents = new FakeContents();
    handlers = new Map<string, Handler[]>();
    loaded: string[] = [];
    on = on(this.handlers);
    once = on(this.handlers);
    constructor(readonly options: Record<string, unknown>) {
      windows.push(this);
    }
    static getAllWindows() {
      return windows;
    }
    loadFile(p: string) {
      this.loaded.push(`file:${p}`);
      return Promise.resolve();
    }
    loadURL(u: string) {
      this.loaded.push(`url:${u}`);
      return Promise.resolve();
    }
    isDestroyed() {
      return false;
    }
    isMinimized() {
      return false;
    }
    isMaximized() {
      return false;
    }
    isFocused() {
      return false;
    }
    getNormalBounds() {
      return { x: 0, y: 0, width: 1200, height: 800 };
    }
    maximize() {}
    restore() {}
    show() {}
    focus() {}
  }
  const appHandlers = new Map<string, Handler[]>();
  const sessionHandlers: Record<string, Handler> = {};
  const ipc = new Map<string, Handler>();
  const errors: string[] = [];
  let quits = 0;
  const display = { workArea: { x: 0, y: 0, width: 1920, height: 1080 } };
  const paths = { appData: '' };
  const electron = {
    app: {
      isPackaged: true,
      on: on(appHandlers),
      whenReady: () => Promise.resolve(),
      requestSingleInstanceLock: () => true,
      setPath: () => {},
      getPath: (name: string) => (name === 'appData' ? paths.appData : paths.appData),
      quit: () => void quits++,
      exit: (code: number) => void errors.push(`app.exit(${code})`),
    },
    BrowserWindow: FakeWindow,
    session: {
      defaultSession: {
        setPermissionRequestHandler: (fn: Handler) => (sessionHandlers.permissionRequest = fn),
        setPermissionCheckHandler: (fn: Handler) => (sessionHandlers.permissionCheck = fn),
        setDevicePermissionHandler: (fn: Handler) => (sessionHandlers.device = fn),
        on: (name: string, fn: Handler) => (sessionHandlers[`on:${name}`] = fn),
        webRequest: { onHeadersReceived: (fn: Handler) => (sessionHandlers.headers = fn) },
      },
    },
    ipcMain: { handle: (channel: string, fn: Handler) => void ipc.set(channel, fn), removeHandler: (channel: string) => void ipc.delete(channel) },
    Menu: { setApplicationMenu: () => {}, buildFromTemplate: (t: unknown) => t },
    Notification: class {
      static isSupported() {
        return false;
      }
      on() {}
      show() {}
    },
    dialog: { showErrorBox: (title: string, body: string) => void errors.push(`${title}: ${body}`) },
    shell: { openExternal: async () => {} },
    nativeTheme: { shouldUseDarkColors: false },
    screen: { getPrimaryDisplay: () => display, getAllDisplays: () => [display] },
  };
  return { electron, windows, appHandlers, sessionHandlers, ipc, errors, paths, FakeContents, quits: () => quits };
});

vi.mock('electron', () => ({ ...fake.electron, default: fake.electron }));

/** Every URL a page might try to go to, the app's own included: none may be navigated to. */
const URLS = [
  'https://evil.example/',
  'http://127.0.0.1:1234/',
  'file:///etc/passwd',
  'about:blank',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'chrome://settings',
  'devtools://devtools/bundled/inspector.html',
  'teamdeck://x',
];

function expectLockedDown(contents: InstanceType<typeof fake.FakeContents>, ownUrl: string): void {
  for (const name of ['will-navigate', 'will-frame-navigate', 'will-redirect', 'will-attach-webview']) {
    const handlers = contents.handlers.get(name) ?? [];
    expect(handlers.length, name).toBeGreaterThan(0);
    for (const url of [...URLS, ownUrl]) {
      const preventDefault = vi.fn();
      for (const h of handlers) h({ preventDefault, url }, url);
      expect(preventDefault, `${name} ${url}`).toHaveBeenCalled();
    }
  }
  expect(contents.openHandler).toBeDefined();
  for (const url of [...URLS, ownUrl]) {
    for (const disposition of ['default', 'foreground-tab', 'background-tab', 'new-window', 'other']) {
      expect(contents.openHandler!({ url, disposition, frameName: '', features: '' }), `window.open ${url} ${disposition}`).toEqual({ action: 'deny' });
    }
  }
}

const env = { ...process.env };
let base: string;

describe('the Electron main process, started against a stand-in electron', () => {
  beforeAll(async () => {
    base = await makeTempDir('teamdeck-electron-');
    fake.paths.appData = join(base, 'appData');
    process.env.TEAMDECK_STATE_DIR = join(base, 'state');
    process.env.TEAMDECK_TEAMS_DIR = join(base, 'teams');
    delete process.env.ELECTRON_RENDERER_URL;
    await import('./index.js');
    const end = Date.now() + 30_000;
    while (fake.windows.length === 0 && fake.errors.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  }, 60_000);

  afterAll(async () => {
    // Quit as the app does: the engine stops (journal flushed, state-dir lock released) first.
    for (const h of fake.appHandlers.get('before-quit') ?? []) h({ preventDefault: () => {} });
    const end = Date.now() + 15_000;
    while (fake.quits() === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    process.env = env;
    expect(fake.quits()).toBe(1);
    await rm(base, { recursive: true, force: true });
  });

  it('starts without an error and opens one window on the app page', () => {
    expect(fake.errors).toEqual([]);
    expect(fake.windows).toHaveLength(1);
    expect(fake.windows[0]!.loaded).toHaveLength(1);
    expect(fake.windows[0]!.loaded[0]).toMatch(/^file:.*[/\\]renderer[/\\]index\.html$/);
  });

  it('creates every window sandboxed, context-isolated, without Node, webviews or insecure content', () => {
    for (const w of fake.windows) {
      const prefs = w.options.webPreferences as Record<string, unknown>;
      expect(prefs).toMatchObject({
        sandbox: true,
        contextIsolation: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webviewTag: false,
        allowRunningInsecureContent: false,
        webSecurity: true,
        experimentalFeatures: false,
        devTools: false,
      });
      expect(prefs.preload).toMatch(/[/\\]preload[/\\]index\.cjs$/);
      expect(prefs).toStrictEqual(secureWebPreferences(prefs.preload as string));
    }
  });

  it('refuses navigation, redirects, webviews and new windows for the window and for any web contents created later', () => {
    const own = fake.windows[0]!.loaded[0]!.replace(/^file:/, 'file://');
    expectLockedDown(fake.windows[0]!.webContents, own);
    const created = fake.appHandlers.get('web-contents-created') ?? [];
    expect(created.length).toBeGreaterThan(0);
    const later = new fake.FakeContents();
    for (const h of created) h({}, later);
    expectLockedDown(later, own);
  });

  it('denies every permission and download, and puts the strict CSP on the app files', () => {
    const s = fake.sessionHandlers;
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen', 'hid', 'serial', 'usb']) {
      const cb = vi.fn();
      s.permissionRequest!({}, permission, cb, {});
      expect(cb, permission).toHaveBeenCalledWith(false);
      expect(s.permissionCheck!({}, permission, 'file://', {}), permission).toBe(false);
    }
    expect(s.device!({})).toBe(false);
    const preventDefault = vi.fn();
    s['on:will-download']!({ preventDefault });
    expect(preventDefault).toHaveBeenCalled();
    const cb = vi.fn();
    s.headers!({ url: 'file:///app/out/renderer/index.html', responseHeaders: { 'Content-Security-Policy': ["default-src *; script-src * 'unsafe-eval'"] } }, cb);
    const headers = (cb.mock.calls[0]![0] as { responseHeaders: Record<string, string[]> }).responseHeaders;
    expect(Object.entries(headers).filter(([k]) => k.toLowerCase() === 'content-security-policy')).toEqual([['Content-Security-Policy', [CONTENT_SECURITY_POLICY]]]);
  });

  it('answers IPC for exactly the contract calls', () => {
    expect([...fake.ipc.keys()].sort()).toEqual(CALL_NAMES.map((n) => CHANNELS.invoke(n)).sort());
  });
});

// ------------------------------------------------------------------------------------ sources

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) sourceFiles(p, out);
    else if (/\.(ts|tsx|html)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

/** The text of a call's argument list, from its opening parenthesis to the matching one. */
function argumentsAt(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return text.slice(open + 1);
}

describe('window construction in the sources', () => {
  const SRC = join(REPO_ROOT, 'src');

  it('builds every BrowserWindow under src/main from secureWebPreferences and nothing else', () => {
    const found: string[] = [];
    for (const file of sourceFiles(join(SRC, 'main'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/new\s+BrowserWindow\s*\(/g)) {
        const where = `${relative(REPO_ROOT, file)}:${text.slice(0, m.index).split('\n').length}`;
        found.push(where);
        const args = argumentsAt(text, m.index! + m[0].length - 1);
        expect(args, where).toMatch(/webPreferences:\s*secureWebPreferences\(/);
        expect(args.match(/webPreferences/g), where).toHaveLength(1);
        expect(args, where).not.toMatch(/\.\.\.\s*\w/); // no spread that could carry other preferences
      }
    }
    expect(found.length).toBeGreaterThan(0);
  });

  it('has no source that turns a protection off or opens another kind of window', () => {
    const forbidden: [RegExp, string][] = [
      [/\bsandbox\s*:\s*false/, 'sandbox: false'],
      [/\bcontextIsolation\s*:\s*false/, 'contextIsolation: false'],
      [/\bnodeIntegration(InWorker|InSubFrames)?\s*:\s*true/, 'nodeIntegration: true'],
      [/\bwebviewTag\s*:\s*true/, 'webviewTag: true'],
      [/\ballowRunningInsecureContent\s*:\s*true/, 'allowRunningInsecureContent: true'],
      [/\bwebSecurity\s*:\s*false/, 'webSecurity: false'],
      [/\bexperimentalFeatures\s*:\s*true/, 'experimentalFeatures: true'],
      [/action\s*:\s*['"]allow['"]/, "window open handler returning 'allow'"],
      [/new\s+(BrowserView|WebContentsView)\s*\(/, 'a BrowserView or WebContentsView'],
      [/<webview\b/i, 'a <webview> tag'],
      [/\bdisable-web-security\b|\bdisable-site-isolation-trials\b|\bno-sandbox\b/, 'a Chromium switch that lowers security'],
      [/appendSwitch\s*\(/, 'a Chromium command-line switch'],
      [/\bsetCertificateVerifyProc\b|\bcertificate-error\b/, 'certificate overrides'],
      [/\binsertCSS\b|\bexecuteJavaScript\b/, 'injected code'],
    ];
    const hits: string[] = [];
    for (const file of [...sourceFiles(join(SRC, 'main')), ...sourceFiles(join(SRC, 'preload')), ...sourceFiles(join(SRC, 'renderer'))]) {
      const text = readFileSync(file, 'utf8');
      for (const [re, what] of forbidden) if (re.test(text)) hits.push(`${relative(REPO_ROOT, file)}: ${what}`);
    }
    expect(hits).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------ CSP

function directives(csp: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const d of csp.split(';').map((s) => s.trim()).filter(Boolean)) {
    const [name, ...sources] = d.split(/\s+/);
    expect(out[name!], `directive ${name} given twice`).toBeUndefined();
    out[name!] = sources;
  }
  return out;
}

const STRICT = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
  'object-src': ["'none'"],
};

describe('Content-Security-Policy', () => {
  it('is exactly the strict directive set', () => {
    expect(directives(CONTENT_SECURITY_POLICY)).toEqual(STRICT);
  });

  it('allows no eval, no inline code and no remote script in production or development', () => {
    for (const csp of [CONTENT_SECURITY_POLICY, devContentSecurityPolicy('http://localhost:5173')]) {
      const d = directives(csp);
      expect(csp).not.toMatch(/unsafe-eval|wasm-unsafe-eval|unsafe-hashes|strict-dynamic|\*/);
      expect(d['object-src']).toEqual(["'none'"]);
      expect(d['frame-ancestors']).toEqual(["'none'"]);
      expect(d['base-uri']).toEqual(["'none'"]);
      // Scripts come from the app itself only: no scheme or host sources (https:, data:, blob:, a CDN).
      expect(d['script-src']!.filter((s) => !["'self'", "'unsafe-inline'"].includes(s))).toEqual([]);
    }
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline/);
  });

  it("the renderer's meta policy is the same minus frame-ancestors, with connect-src 'self' for the browser host", () => {
    const html = readFileSync(join(REPO_ROOT, 'src', 'renderer', 'index.html'), 'utf8');
    const metas = [...html.matchAll(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"\s*\/?>/gi)];
    expect(metas).toHaveLength(1);
    const meta = directives(metas[0]![1]!);
    // Browsers ignore frame-ancestors in a meta tag (and log an error); the header carries it.
    // The same page is served by the browser host, whose WebSocket is the page's own origin:
    // 'self' lets it connect there, and in Electron the header's connect-src 'none' still applies.
    const { 'frame-ancestors': _ignored, ...rest } = STRICT;
    expect(meta).toEqual({ ...rest, 'connect-src': ["'self'"] });
  });
});

// ------------------------------------------------------------------------------------ fuses

/** The scalar keys of one top-level mapping in a simple YAML file (no anchors, no flow style). */
function yamlBlock(text: string, key: string): Record<string, string> {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.replace(/\s+#.*$/, '').trimEnd() === `${key}:`);
  expect(start, `${key}: in electron-builder.yml`).toBeGreaterThanOrEqual(0);
  const out: Record<string, string> = {};
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (!/^\s+/.test(line)) break;
    const m = /^\s+([A-Za-z0-9_]+):\s*([^#]*?)\s*(#.*)?$/.exec(line);
    expect(m, `a plain key: value line under ${key}: ${line}`).not.toBeNull();
    out[m![1]!] = m![2]!;
  }
  return out;
}

describe('electron-builder.yml', () => {
  const text = readFileSync(join(REPO_ROOT, 'electron-builder.yml'), 'utf8');

  it('packages into an asar archive', () => {
    expect(text).toMatch(/^asar:\s*true\s*$/m);
  });

  it('sets the hardening fuses', () => {
    const fuses = yamlBlock(text, 'electronFuses');
    expect(fuses).toMatchObject({
      runAsNode: 'false',
      enableNodeOptionsEnvironmentVariable: 'false',
      enableNodeCliInspectArguments: 'false',
      onlyLoadAppFromAsar: 'true',
      enableEmbeddedAsarIntegrityValidation: 'true',
      enableCookieEncryption: 'true',
      grantFileProtocolExtraPrivileges: 'false',
    });
    // Every fuse named is one electron-builder knows (a misspelt fuse would be ignored silently).
    const scheme = join(REPO_ROOT, 'node_modules', 'app-builder-lib', 'scheme.json');
    if (existsSync(scheme)) {
      const known = Object.keys((JSON.parse(readFileSync(scheme, 'utf8')) as { definitions: Record<string, { properties?: object }> }).definitions.FuseOptionsV1?.properties ?? {});
      expect(known.length).toBeGreaterThan(0);
      expect(Object.keys(fuses).filter((k) => !known.includes(k))).toEqual([]);
    }
  });
});
