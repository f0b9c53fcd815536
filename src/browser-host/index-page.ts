// The browser host's page, index.html, and what it carries. It goes out in two parts: everything
// before #root at once, so the browser fetches the script and the style while the engine works;
// then #root with the first screen in it (the app rendered in the host from the start-up data, see
// src/renderer/src/first-screen.tsx), the start-up data itself (the first snapshot and the roster
// of the team the window opens first, as JSON in a <script type="application/json">, see
// src/shared/host-boot.ts), and the rest. No script the CSP would have to allow; the markup is
// React's, which escapes every text. The events emitted from that snapshot on are kept for the
// page under the boot's id and sent first on the socket that names it (`/ws?boot=<id>`), so none
// is lost between the snapshot and the socket; when they were not all kept the socket says
// `resync`.
// That team is normally read already: `teamdeck serve` primes the page (prime) before it gives
// its URL, since reading 5,000 messages from inboxes into the journal on a first run took twice
// as long on two cores while a browser loaded the page as it did before. Its roster then goes at
// once. A team still being read when the page asks (a page opened later, a prime that ran out of
// time) is read from the moment the snapshot is in, while the browser loads the page's files, and
// its roster is asked for once the page's script has gone out (or BOOT_ASSETS_MS after the head):
// giving the window its first roster starts the engine's background work (the other teams read,
// the search index opened), which holds this event loop for a while, and the page must not wait
// behind it for its own files. The page's stylesheet goes inline in its head (inline-style.ts).
import type { ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Result, Snapshot, WsServerMessage } from '../shared/contract.js';
import { BOOT_ELEMENT_ID, firstTeam, scriptSafeJson, type HostBoot } from '../shared/host-boot.js';
import type { RosterEntry } from '../shared/types.js';
import type { FirstScreenRenderer } from './first-screen.js';
import { allowStyle, inlineStylesheet } from './inline-style.js';
import type { HostHandlers } from './host-handlers.js';

/**
 * How long the page's end waits for its first snapshot and roster; past it, the page goes without
 * and asks over its socket. Not short: that call would wait for the same read still under way,
 * and then behind the background work the engine starts once the roster is given.
 */
export const BOOT_WAIT_MS = 3_000;
/** Events kept for a page until its socket opens: at most this many, bytes, and milliseconds. */
export const BOOT_KEEP = { events: 2_000, bytes: 8 * 1024 * 1024, ms: 60_000 };
/** How long the roster waits for the page's script and style to be sent (a client may never ask). */
export const BOOT_ASSETS_MS = 400;
/** Pages whose events are kept at once; a new one past this drops the oldest (it resyncs). */
const BOOT_KEEP_PAGES = 32;
/** Where the page's second part starts: the app's root element, empty in the built page. */
const ROOT = '<div id="root"></div>';

/**
 * The scripts and styles a page's head loads, as request paths (`./assets/x.js` -> `/assets/x.js`).
 * Not its modulepreload links: the app's code, which runs after the first screen has painted, so
 * the start-up data need not wait for it.
 */
export function headAssets(head: string): string[] {
  const out: string[] = [];
  for (const m of head.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="(\.?\/[^"?#]+)"[^>]*>/g)) {
    if (/\brel="modulepreload"/.test(m[0])) continue;
    const path = m[1]!.replace(/^\.\//, '/');
    if (/\.(m?js|css)$/.test(path)) out.push(path);
  }
  return out;
}

/** Whether the promise has settled already (its reactions run before the next turn of the loop). */
async function settledNow(p: Promise<unknown> | undefined): Promise<boolean> {
  if (!p) return false;
  return Promise.race([p.then(() => true, () => true), new Promise<boolean>((r) => setImmediate(() => r(false)))]);
}

/** Events emitted since a page's boot snapshot, as frames, until its socket takes them. */
interface Kept {
  frames: string[];
  bytes: number;
  overflow: boolean;
  stop(): void;
}

export interface IndexPageOptions {
  handlers: HostHandlers;
  /** How long the page waits for its start-up data; 0 sends the page without. */
  bootWaitMs: number;
  /** Renders the first screen into the page; without it, #root goes out empty. */
  firstScreen?: FirstScreenRenderer;
}

export interface IndexPage {
  /** Sends index.html (read from `file`) with its start-up data. */
  send(res: ServerResponse, headers: Record<string, string>, file: string): Promise<void>;
  /** A static file has gone out in full: a page waiting for its files may be finished. */
  noteSent(pathname: string): void;
  /** The frames kept for the page whose socket names `boot`, or 'resync' when they are not all there. Stops keeping them. */
  takeKept(boot: string): string[] | 'resync';
  /**
   * Readies what a first page needs before anyone asks: the team it opens first read, and the
   * first screen's code loaded. Resolves when done or after `maxMs`, whichever is first; never rejects.
   */
  prime(maxMs: number): Promise<void>;
  close(): void;
}

export function createIndexPage(opts: IndexPageOptions): IndexPage {
  const kept = new Map<string, Kept>();

  function keepEvents(id: string): Kept {
    if (kept.size >= BOOT_KEEP_PAGES) kept.values().next().value?.stop();
    const k: Kept = {
      frames: [],
      bytes: 0,
      overflow: false,
      stop: () => {
        off();
        clearTimeout(timer);
        kept.delete(id);
      },
    };
    const off = opts.handlers.onEvent((event) => {
      // A terminal's output is not replayed: a pane attaches with the screen as it is then.
      if (event.type === 'terminal-output' || k.overflow) return;
      const frame = JSON.stringify({ t: 'event', event } satisfies WsServerMessage);
      if (k.frames.length >= BOOT_KEEP.events || k.bytes + frame.length > BOOT_KEEP.bytes) {
        k.overflow = true;
        k.frames = [];
        return;
      }
      k.frames.push(frame);
      k.bytes += frame.length;
    });
    const timer = setTimeout(() => k.stop(), BOOT_KEEP.ms);
    timer.unref();
    kept.set(id, k);
    return k;
  }

  /** Pages waiting for their files to be sent: the paths still to go. */
  const assetWaiters = new Set<{ pending: Set<string>; done(): void }>();

  function assetsSent(paths: string[], maxMs: number): Promise<void> {
    if (paths.length === 0) return Promise.resolve();
    return new Promise((resolveSent) => {
      const w = {
        pending: new Set(paths),
        done: () => {
          assetWaiters.delete(w);
          clearTimeout(timer);
          resolveSent();
        },
      };
      const timer = setTimeout(w.done, maxMs);
      timer.unref();
      assetWaiters.add(w);
    });
  }

  /**
   * The team the window opens first, its reading begun (a head start only: its roster is asked
   * for anyway), and meanwhile a throwaway render of the first screen without its roster (the
   * process's first page only), so more of that code is compiled while the team's files are read.
   */
  function readAhead(id: string, snapshot: Snapshot): { team?: string; opened?: Promise<void> } {
    const team = firstTeam(snapshot.teams);
    let opened: Promise<void> | undefined;
    try {
      if (team !== undefined) opened = opts.handlers.prepare?.(team);
    } catch {
      // The roster's own read does it.
    }
    opts.firstScreen?.warm({ id, snapshot });
    return { team, opened };
  }

  /** The first snapshot and roster for a page, or undefined when they are not there in time. */
  async function bootData(assets: string[]): Promise<HostBoot | undefined> {
    if (opts.bootWaitMs <= 0) return undefined;
    const id = randomBytes(16).toString('base64url');
    // Before the snapshot is asked for: what happens while it is read is replayed on top of it.
    const k = keepEvents(id);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((r) => {
      timer = setTimeout(() => r('late'), opts.bootWaitMs);
      timer.unref();
    });
    const ask = <T>(name: string, args: unknown[]) =>
      Promise.race([opts.handlers.dispatch(name, args).catch((): Result<unknown> => ({ ok: false, error: { code: 'internal', message: 'internal error' } })), late]) as Promise<Result<T> | 'late'>;
    try {
      const snap = await ask<Snapshot>('getSnapshot', []);
      if (snap === 'late' || !snap.ok) {
        k.stop();
        return undefined;
      }
      const { team, opened } = readAhead(id, snap.value);
      if (team !== undefined) {
        // A team read already (prime) gives its roster at once: the engine's background work
        // starts well after the page's files have gone out (BACKGROUND_AFTER_ROSTER_MS).
        if (!(await settledNow(opened))) await Promise.race([assetsSent(assets, BOOT_ASSETS_MS), late]);
      }
      const roster = team === undefined ? undefined : await ask<RosterEntry[]>('getRoster', [team]);
      return { id, snapshot: snap.value, ...(team !== undefined && roster !== undefined && roster !== 'late' && roster.ok ? { roster: { team, entries: roster.value } } : {}) };
    } finally {
      clearTimeout(timer);
    }
  }

  async function send(res: ServerResponse, headers: Record<string, string>, file: string): Promise<void> {
    const html = await readFile(file, 'utf8');
    const root = html.indexOf(ROOT);
    if (root < 0 || res.req.method === 'HEAD') {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8' });
      return void res.end(res.req.method === 'HEAD' ? undefined : html);
    }
    const { head, styleHash } = await inlineStylesheet(html.slice(0, root), join(dirname(file), 'assets'));
    const csp = headers['Content-Security-Policy'];
    res.writeHead(200, { ...headers, ...(csp ? { 'Content-Security-Policy': allowStyle(csp, styleHash) } : {}), 'Content-Type': 'text/html; charset=utf-8' });
    res.write(head);
    const booting = bootData(headAssets(head));
    // While the engine answers and the browser reads the head: the first screen's code and the
    // locale's date data loaded. (Loaded at the ready line instead, this held up the ready line
    // itself, which goes out through a pipe once the loop is free.)
    opts.firstScreen?.warm();
    const boot = await booting;
    if (res.destroyed) {
      if (boot) kept.get(boot.id)?.stop();
      return;
    }
    const screen = boot ? (opts.firstScreen?.render(boot) ?? '') : '';
    const data = boot ? `<script type="application/json" id="${BOOT_ELEMENT_ID}">${scriptSafeJson(boot)}</script>` : '';
    res.end(`<div id="root">${screen}</div>${data}${html.slice(root + ROOT.length)}`);
  }

  async function prime(maxMs: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((r) => {
      timer = setTimeout(r, maxMs);
      timer.unref();
    });
    const work = (async () => {
      const snap = await opts.handlers.dispatch('getSnapshot', []);
      if (!snap.ok) return opts.firstScreen?.warm();
      await readAhead('', snap.value as Snapshot).opened;
      // Only a head start: the page asks for what it needs anyway, and is told of a failure then.
    })().catch(() => {});
    try {
      await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    send,
    prime,
    noteSent(pathname) {
      for (const w of [...assetWaiters]) {
        w.pending.delete(pathname);
        if (w.pending.size === 0) w.done();
      }
    },
    takeKept(boot) {
      const k = kept.get(boot);
      k?.stop();
      return !k || k.overflow ? 'resync' : k.frames;
    },
    close() {
      for (const k of [...kept.values()]) k.stop();
    },
  };
}
