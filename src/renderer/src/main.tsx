import { warmTimeFormats } from './lib/time';
// In this entry, not only in the app's code: the page's head then links the stylesheet, which
// the host's first screen needs before it can paint.
import './styles.css';

// This entry is small and loaded `async` (index.html). The app's code (start.ts, preloaded by the
// head) is asked for at once, so it is compiled and run while the browser host still reads the
// team the window opens first. The app renders once the page is parsed: at once in the Electron
// window; in a browser, after the first screen the host sent as markup in #root
// (src/renderer/src/first-screen.tsx) has painted, so that paint does not wait for React.
const app = import('./start');

/** Once a frame has painted, or after 100 ms (a page in a background tab gets no frames). */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    const late = setTimeout(resolve, 100);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(late);
        resolve();
      }, 0),
    );
  });
}

/** The app's code did not load or start: the first screen, a picture, must not pass for the app. */
function failed(error: unknown): void {
  console.error('Teamdeck could not start', error);
  const root = document.getElementById('root');
  if (!root) return;
  const p = document.createElement('p');
  p.className = 'p-8 text-sm text-red-700 dark:text-red-400';
  p.textContent = `Teamdeck could not start this page (${error instanceof Error ? error.message : String(error)}). Reload it; if that does not help, rebuild the app (npm run build).`;
  root.replaceChildren(p);
}

async function run(): Promise<void> {
  try {
    if (document.getElementById('root')?.firstElementChild) await afterPaint();
    (await app).start();
  } catch (e) {
    failed(e);
  }
}

// The start-up data and #root are at the end of the page, so the app starts once it is parsed.
if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', () => void run(), { once: true });
  // The wait for the page's end is idle time: spend it on the locale's date data.
  app.then(
    () => {
      if (document.readyState === 'loading') warmTimeFormats();
    },
    () => {}, // (run() reports it.)
  );
} else void run();
