import { warmTimeFormats } from './lib/time';
// In this entry, not only in the app's code: the page's head then links the stylesheet, which
// the host's first screen needs before it can paint.
import './styles.css';

// This entry is small and loaded `async` (index.html); the app's code comes after it, on demand.
// The browser host sends the first screen as markup in #root (src/renderer/src/first-screen.tsx):
// it is shown while the app's script is compiled and run (some 100 ms of a busy main thread on
// the project's machines, which would otherwise come before the first paint), then replaced.
function afterPaint(): Promise<void> {
  // A page opened in the background gets no frames: it starts at once.
  if (document.visibilityState === 'hidden') return Promise.resolve();
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

async function run(): Promise<void> {
  const firstScreen = Boolean(document.getElementById('root')?.firstElementChild);
  if (firstScreen) await afterPaint();
  const app = import('./start');
  // While the app's code arrives: the locale's date data, which its first render needs (the first
  // Intl.DateTimeFormat of a page costs 40-100 ms). Without a first screen this was done while
  // the page waited for its end; with one, that would hold the first screen's parsing back.
  if (firstScreen) warmTimeFormats();
  (await app).start();
}

// The start-up data and #root are at the end of the page, so the app starts once it is parsed.
if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', () => void run(), { once: true });
  // The wait for the page's end is idle time when no first screen comes (the Electron window).
  if (window.teamdeck) warmTimeFormats();
} else void run();
