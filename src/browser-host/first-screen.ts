// The first screen's renderer for the browser host (src/renderer/src/first-screen.tsx, which says
// what it is), loaded from the bundle the build writes next to the CLI's (out/cli/first-screen.cjs).
// Without that file (a checkout whose CLI was never built) the page goes as before: start-up data
// only, and the script renders the first screen.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { HostBoot } from '../shared/host-boot.js';

/** The window's first render of the start-up data, as HTML for inside #root. */
export type FirstScreen = (boot: HostBoot) => string;

/** What the host's page uses (index-page.ts). Neither method throws. */
export interface FirstScreenRenderer {
  /**
   * Loads the renderer's code and the locale's date data, once; with `boot`, the first time, also
   * renders it and drops the result, so the page's own render finds more of its code compiled.
   */
  warm(boot?: HostBoot): void;
  /** The markup for `boot`, or undefined when there is no renderer or it failed (which is logged). */
  render(boot: HostBoot): string | undefined;
}

/** out/cli/first-screen.cjs of this checkout (src/browser-host -> ../../out/cli). */
export const FIRST_SCREEN_FILE = fileURLToPath(new URL('../../out/cli/first-screen.cjs', import.meta.url));

/** The renderer's module: src/renderer/src/first-screen.tsx. */
export interface FirstScreenModule {
  renderFirstScreen: FirstScreen;
  /** Work the render would do first, done ahead. */
  warmFirstScreen(): void;
}

/** The renderer's module, or undefined when the build has not written it. A file that is there but fails to load throws. */
export function loadFirstScreen(file = FIRST_SCREEN_FILE): FirstScreenModule | undefined {
  if (!existsSync(file)) return undefined;
  const mod = createRequire(import.meta.url)(file) as Partial<Record<keyof FirstScreenModule, unknown>>;
  if (typeof mod.renderFirstScreen !== 'function' || typeof mod.warmFirstScreen !== 'function') throw new Error(`${file} is not the first screen's renderer`);
  return mod as FirstScreenModule;
}

/**
 * The renderer, loaded on first use from `file`. A file that fails to load or a render that
 * throws is logged (once for the file) and the page goes without a first screen: the script then
 * renders it, as it always can.
 */
export function firstScreenRenderer(opts: { file?: string; log?: (message: string, error: unknown) => void } = {}): FirstScreenRenderer {
  let mod: FirstScreenModule | undefined | null = null;
  const load = (): FirstScreenModule | undefined => {
    if (mod !== null) return mod;
    try {
      mod = loadFirstScreen(opts.file);
      mod?.warmFirstScreen();
    } catch (e) {
      mod = undefined;
      opts.log?.('cannot load the first screen; pages go without it', e);
    }
    return mod;
  };
  const render = (boot: HostBoot): string | undefined => {
    const m = load();
    if (!m) return undefined;
    try {
      return m.renderFirstScreen(boot);
    } catch (e) {
      opts.log?.('the first screen failed to render; this page goes without it', e);
      return undefined;
    }
  };
  // The warm-up render is for the first page of the process: later ones find the code compiled.
  let warmedUp = false;
  return {
    warm(boot) {
      if (!load() || !boot || warmedUp) return;
      warmedUp = true;
      render(boot);
    },
    render,
  };
}
