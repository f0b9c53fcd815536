import { describe, expect, it, vi } from 'vitest';
import {
  CONTENT_SECURITY_POLICY,
  devContentSecurityPolicy,
  hardenWebContents,
  isAppResource,
  isAppUrl,
  isOwnExport,
  secureSession,
  secureWebPreferences,
  type HardenableContents,
  type RendererSource,
  type SecurableSession,
} from './security.js';

describe('secureWebPreferences', () => {
  it('is exactly the hardened set', () => {
    expect(secureWebPreferences('/app/out/preload/index.cjs')).toStrictEqual({
      preload: '/app/out/preload/index.cjs',
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
      spellcheck: false,
      devTools: false,
    });
  });

  it('only devTools follows the option', () => {
    const a = secureWebPreferences('/p', { devTools: true });
    const b = secureWebPreferences('/p');
    expect(a.devTools).toBe(true);
    expect({ ...a, devTools: false }).toStrictEqual(b);
  });
});

describe('CONTENT_SECURITY_POLICY', () => {
  it('is the strict policy, exactly', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'none'; " +
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'",
    );
  });

  it('allows no inline or eval script and no remote origin', () => {
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|wasm-unsafe-eval|\*|https?:/);
  });

  it('the dev policy only adds what the dev server needs, for its own origin', () => {
    const dev = devContentSecurityPolicy('http://localhost:5173');
    expect(dev).toContain("connect-src 'self' ws://localhost:5173");
    expect(dev).not.toMatch(/unsafe-eval|\*/);
    expect(dev).toContain("frame-ancestors 'none'");
  });
});

describe('isAppUrl', () => {
  const file: RendererSource = { kind: 'file', fileUrl: 'file:///app/out/renderer/index.html' };
  const dev: RendererSource = { kind: 'dev', origin: 'http://localhost:5173' };
  it('matches only the app page', () => {
    expect(isAppUrl('file:///app/out/renderer/index.html', file)).toBe(true);
    expect(isAppUrl('file:///app/out/renderer/index.html#/x?y', file)).toBe(true);
    expect(isAppUrl('file:///etc/passwd', file)).toBe(false);
    expect(isAppUrl('file:///app/out/renderer/other.html', file)).toBe(false);
    expect(isAppUrl('https://evil.example/app/out/renderer/index.html', file)).toBe(false);
    expect(isAppUrl('about:blank', file)).toBe(false);
    expect(isAppUrl('', file)).toBe(false);
    expect(isAppUrl('http://localhost:5173/', dev)).toBe(true);
    expect(isAppUrl('http://localhost:5174/', dev)).toBe(false);
    expect(isAppUrl('http://127.0.0.1:5173/', dev)).toBe(false);
  });
  it('treats file responses as app resources only for the file source', () => {
    expect(isAppResource('file:///app/out/renderer/assets/a.js', file)).toBe(true);
    expect(isAppResource('https://example.com/', file)).toBe(false);
    expect(isAppResource('http://localhost:5173/src/main.tsx', dev)).toBe(true);
  });
});

function fakeContents() {
  const handlers = new Map<string, (event: { preventDefault(): void }, ...rest: unknown[]) => void>();
  let openHandler: ((d: unknown) => unknown) | undefined;
  const contents = {
    on: (name: string, fn: (event: { preventDefault(): void }) => void) => {
      handlers.set(name, fn);
      return contents;
    },
    setWindowOpenHandler: (fn: (d: unknown) => unknown) => {
      openHandler = fn;
    },
  };
  return { contents: contents as unknown as HardenableContents, handlers, open: () => openHandler };
}

describe('hardenWebContents', () => {
  it('denies navigation, redirects, webviews and window.open', () => {
    const f = fakeContents();
    hardenWebContents(f.contents);
    for (const name of ['will-navigate', 'will-frame-navigate', 'will-redirect', 'will-attach-webview']) {
      const preventDefault = vi.fn();
      const h = f.handlers.get(name);
      expect(h, name).toBeDefined();
      h!({ preventDefault }, 'https://evil.example/');
      expect(preventDefault, name).toHaveBeenCalledOnce();
    }
    const open = f.open();
    expect(open).toBeDefined();
    expect(open!({ url: 'https://example.com/', disposition: 'new-window' })).toEqual({ action: 'deny' });
    expect(open!({ url: 'file:///etc/passwd', disposition: 'foreground-tab' })).toEqual({ action: 'deny' });
  });
});

describe('isOwnExport', () => {
  it('is a blob: URL of the app page itself, in a build and under the dev server', () => {
    const file = { kind: 'file' as const, fileUrl: 'file:///app/index.html' };
    const dev = { kind: 'dev' as const, origin: 'http://localhost:5173' };
    expect(isOwnExport('blob:file:///u', 'file:///app/index.html#x', file)).toBe(true);
    expect(isOwnExport('blob:http://localhost:5173/u', 'http://localhost:5173/', dev)).toBe(true);
    expect(isOwnExport('blob:http://localhost:5174/u', 'http://localhost:5173/', dev)).toBe(false);
    expect(isOwnExport('blob:null/u', 'http://localhost:5173/', dev)).toBe(false);
    expect(isOwnExport('blob:file:///u', undefined, file)).toBe(false);
    expect(isOwnExport('blob:', 'file:///app/index.html', file)).toBe(false);
  });
});

describe('secureSession', () => {
  function fakeSession() {
    const s = {
      permissionRequest: undefined as undefined | ((wc: unknown, p: string, cb: (ok: boolean) => void) => void),
      permissionCheck: undefined as undefined | (() => boolean),
      device: undefined as undefined | (() => boolean),
      download: undefined as undefined | ((e: { preventDefault(): void }) => void),
      headers: undefined as undefined | ((d: { url: string; responseHeaders?: Record<string, string[]> }, cb: (r: unknown) => void) => void),
    };
    const session = {
      setPermissionRequestHandler: (fn: typeof s.permissionRequest) => (s.permissionRequest = fn),
      setPermissionCheckHandler: (fn: typeof s.permissionCheck) => (s.permissionCheck = fn),
      setDevicePermissionHandler: (fn: typeof s.device) => (s.device = fn),
      on: (name: string, fn: typeof s.download) => {
        if (name === 'will-download') s.download = fn;
      },
      webRequest: { onHeadersReceived: (fn: typeof s.headers) => (s.headers = fn) },
    };
    return { s, session: session as unknown as SecurableSession };
  }

  it('denies every permission and every download but the page\'s own export, and sets the CSP on app responses', () => {
    const { s, session } = fakeSession();
    secureSession(session, { kind: 'file', fileUrl: 'file:///app/index.html' }, CONTENT_SECURITY_POLICY);
    for (const p of ['notifications', 'media', 'geolocation', 'clipboard-read', 'openExternal']) {
      const cb = vi.fn();
      s.permissionRequest!({}, p, cb);
      expect(cb).toHaveBeenCalledWith(false);
    }
    expect(s.permissionCheck!()).toBe(false);
    expect(s.device!()).toBe(false);
    const preventDefault = vi.fn();
    s.download!({ preventDefault });
    expect(preventDefault).toHaveBeenCalled();
    // The page's own export (a blob: URL it made) goes to Electron's save dialog; nothing else does.
    const download = (url: string, page: string) => {
      const e = { preventDefault: vi.fn() };
      (s.download as unknown as (e: unknown, item: unknown, wc: unknown) => void)(e, { getURL: () => url }, { getURL: () => page });
      return e.preventDefault.mock.calls.length === 0;
    };
    expect(download('blob:file:///6f1c2d3e-aaaa-bbbb-cccc-000000000000', 'file:///app/index.html')).toBe(true);
    expect(download('blob:null/6f1c2d3e-aaaa-bbbb-cccc-000000000000', 'file:///app/index.html')).toBe(true);
    expect(download('https://example.com/x.exe', 'file:///app/index.html')).toBe(false);
    expect(download('file:///etc/passwd', 'file:///app/index.html')).toBe(false);
    expect(download('data:text/plain,hi', 'file:///app/index.html')).toBe(false);
    expect(download('blob:https://evil.example/6f1c', 'file:///app/index.html')).toBe(false);
    expect(download('blob:file:///6f1c', 'https://evil.example/')).toBe(false);
    expect(download('blob:file:///6f1c', 'file:///elsewhere/index.html')).toBe(false);

    const cb = vi.fn();
    s.headers!({ url: 'file:///app/index.html', responseHeaders: { 'content-security-policy': ["default-src *"] } }, cb);
    const headers = (cb.mock.calls[0]![0] as { responseHeaders: Record<string, string[]> }).responseHeaders;
    expect(headers['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY]);
    expect(headers['content-security-policy']).toBeUndefined();
    const other = vi.fn();
    s.headers!({ url: 'https://example.com/' }, other);
    expect(other).toHaveBeenCalledWith({});
  });
});
