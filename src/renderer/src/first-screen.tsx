// The browser host's first screen: the app rendered once, in the host, from the start-up data the
// page carries (src/shared/host-boot.ts), and sent as the page's markup, so the roster paints as
// soon as the HTML and the style are in, before the page's script has run. The script then
// renders the live app over it (createRoot replaces what it finds in #root, in one commit); until
// then it is a picture: the app's root is `inert` (a click, focus or typing there is ignored,
// rather than taken and then lost) and says `data-phase="first-screen"`.
//
// What makes it safe to send as markup: React escapes every text and attribute it writes, and no
// component on this screen uses a style attribute (the page's CSP allows none, so one would be
// dropped; e2e/csp.spec.ts counts violations). The build bundles this file for Node on its own
// (out/cli/first-screen.cjs, scripts/build-cli.mjs); src/browser-host/first-screen.ts loads it.
import { renderToStaticMarkup } from 'react-dom/server';
import type { StoreApi } from 'zustand';
import type { TeamdeckApi } from '../../shared/contract';
import type { HostBoot } from '../../shared/host-boot';
import { App } from './App';
import { warmTimeFormats } from './lib/time';
import { DeckProvider } from './state/context';
import { applyBoot } from './state/host-events';
import { createDeckStore, type DeckStore } from './state/store';

/** The host's API as the first screen sees it: one render calls nothing (effects do not run in a server render). */
const NO_CALLS = new Proxy({} as TeamdeckApi, {
  get: (_, name) => () => {
    throw new Error(`the first screen is one render in the host and cannot call ${String(name)}`);
  },
});

/** The window's first render of `boot`, as HTML for inside #root. `now` is the host's clock. */
export function renderFirstScreen(boot: HostBoot, now = Date.now()): string {
  const live = createDeckStore(NO_CALLS, { storage: null, now: () => now });
  const state: DeckStore = { ...applyBoot(live.getState(), boot, now), actions: live.getState().actions };
  // One state, never changed: what the server render reads (zustand reads getInitialState there).
  const fixed: StoreApi<DeckStore> = {
    getState: () => state,
    getInitialState: () => state,
    setState: () => undefined,
    subscribe: () => () => undefined,
  };
  return renderToStaticMarkup(
    <DeckProvider store={fixed}>
      <App firstScreen />
    </DeckProvider>,
  );
}

/**
 * What can be done before any page asks: the locale's date data loaded (the first
 * Intl.DateTimeFormat of a process costs some 20 ms), into the formatters the render reuses.
 */
export function warmFirstScreen(): void {
  warmTimeFormats();
}
