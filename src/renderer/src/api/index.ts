// Which API the UI talks to: the Electron preload's `window.teamdeck` when it is there, else
// the browser host's WebSocket. Both have the contract's type, so the UI never knows which.
import type { TeamdeckApi } from '../../../shared/contract';
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

export function getApi(): TeamdeckApi {
  if (!api) {
    api = window.teamdeck ?? createWsClient({ url: hostSocketUrl(window.location, takeToken()) });
  }
  return api;
}
