import { beforeEach, describe, expect, it, vi } from 'vitest';

// The window module constructs a real BrowserWindow; Electron's binary is not needed to check
// what it is constructed with.
const created: { options: Record<string, unknown>; win: FakeWindow }[] = [];

class FakeWindow {
  listeners = new Map<string, (...a: unknown[]) => void>();
  loaded: string[] = [];
  openHandler?: (d: unknown) => unknown;
  webContents = {
    on: (name: string, fn: (...a: unknown[]) => void) => {
      this.listeners.set(`wc:${name}`, fn);
    },
    setWindowOpenHandler: (fn: (d: unknown) => unknown) => {
      this.openHandler = fn;
    },
  };
  constructor(options: Record<string, unknown>) {
    created.push({ options, win: this });
  }
  once(name: string, fn: () => void) {
    this.listeners.set(name, fn);
  }
  maximize() {}
  show() {}
  loadFile(p: string) {
    this.loaded.push(`file:${p}`);
    return Promise.resolve();
  }
  loadURL(u: string) {
    this.loaded.push(`url:${u}`);
    return Promise.resolve();
  }
}

vi.mock('electron', () => {
  const display = { workArea: { x: 0, y: 0, width: 1920, height: 1080 } };
  return {
    BrowserWindow: FakeWindow,
    nativeTheme: { shouldUseDarkColors: false },
    screen: { getPrimaryDisplay: () => display, getAllDisplays: () => [display] },
  };
});

const { createMainWindow } = await import('./window.js');
const { secureWebPreferences } = await import('./security.js');

describe('createMainWindow', () => {
  beforeEach(() => {
    created.length = 0;
  });

  it('builds the window from secureWebPreferences only', () => {
    createMainWindow({
      preload: '/app/out/preload/index.cjs',
      source: { kind: 'file', fileUrl: 'file:///app/out/renderer/index.html' },
      indexHtml: '/app/out/renderer/index.html',
      devTools: false,
    });
    expect(created).toHaveLength(1);
    const prefs = created[0]!.options.webPreferences;
    expect(prefs).toStrictEqual(secureWebPreferences('/app/out/preload/index.cjs'));
    expect(prefs).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, webSecurity: true });
    expect(created[0]!.win.loaded).toEqual(['file:/app/out/renderer/index.html']);
  });

  it('denies navigation and new windows before anything loads', () => {
    createMainWindow({
      preload: '/p.cjs',
      source: { kind: 'dev', origin: 'http://localhost:5173' },
      indexHtml: '/unused',
      devTools: true,
    });
    const w = created[0]!.win;
    const preventDefault = vi.fn();
    w.listeners.get('wc:will-navigate')!({ preventDefault }, 'https://evil.example/');
    expect(preventDefault).toHaveBeenCalled();
    expect(w.openHandler!({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    expect(w.loaded).toEqual(['url:http://localhost:5173']);
  });

  it('restores remembered bounds that fit, and drops a position that is off every display', () => {
    createMainWindow({
      preload: '/p.cjs',
      source: { kind: 'file', fileUrl: 'file:///i.html' },
      indexHtml: '/i.html',
      devTools: false,
      saved: { x: 100, y: 50, width: 1000, height: 700, maximized: false },
    });
    expect(created[0]!.options).toMatchObject({ x: 100, y: 50, width: 1000, height: 700 });
    createMainWindow({
      preload: '/p.cjs',
      source: { kind: 'file', fileUrl: 'file:///i.html' },
      indexHtml: '/i.html',
      devTools: false,
      saved: { x: 5000, y: 3000, width: 3000, height: 2000, maximized: false },
    });
    expect(created[1]!.options).toMatchObject({ x: undefined, y: undefined, width: 1920, height: 1080 });
  });
});
