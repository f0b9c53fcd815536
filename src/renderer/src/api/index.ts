// Which API the UI talks to: the Electron preload's `window.teamdeck` when it is there, else
// the browser host's WebSocket. Both have the contract's type, so the UI never knows which.
import type { TeamdeckApi } from '../../../shared/contract';
import { BOOT_ELEMENT_ID, parseHostBoot, type HostBoot } from '../../../shared/host-boot';
import { createWsClient, hostSocketUrl } from './ws-client';

declare global {
  interface Window {
    /** Set by the Electron preload (src/preload/index.ts); absent in a browser. */
    readonly teamdeck?: TeamdeckApi;
  }
}

let api: TeamdeckApi | undefined;

/**
 * Reads the browser host's token from `?token=` and removes it from the address bar, so it is
 * held in memory only (not left in the visible URL, history entries made later, or screenshots).
 * Reloads still work: the host set an HttpOnly cookie on the first authenticated request.
 */
function takeToken(): string | undefined {
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token') ?? undefined;
  if (token !== undefined) {
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  }
  return token;
}

/** The browser host's start-up data, with the page's clock when it arrived (the snapshot's `now` is the host's then). */
export interface PageBoot extends HostBoot {
  receivedAt: number;
}

/**
 * The start-up data the browser host put in the page (src/shared/host-boot.ts), taken out of the
 * document: JSON read with JSON.parse from a non-executable element, never parsed as markup.
 */
export function takeBoot(doc: Document = document): PageBoot | undefined {
  const el = doc.getElementById(BOOT_ELEMENT_ID);
  if (!el || el.tagName !== 'SCRIPT' || el.getAttribute('type') !== 'application/json') return undefined;
  const text = el.textContent ?? '';
  el.remove();
  let boot: HostBoot | undefined;
  try {
    boot = parseHostBoot(JSON.parse(text));
  } catch {
    return undefined;
  }
  if (!boot) return undefined;
  // The host wrote the data as it finished the page: the page's clock then is when the HTML ended.
  const nav = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  const receivedAt = nav && nav.responseEnd > 0 ? performance.timeOrigin + nav.responseEnd : Date.now();
  return { ...boot, receivedAt };
}

export function getApi(boot?: HostBoot): TeamdeckApi {
  if (!api) {
    api = window.teamdeck ?? createWsClient({ url: hostSocketUrl(window.location, takeToken()), ...(boot ? { boot: boot.id } : {}) });
  }
  return api;
}
