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

function afterPaint(): Promise<void> {
  // A page opened in the background gets no frames: it starts at once.
  if (document.visibilityState === 'hidden') return Promise.resolve();
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

async function run(): Promise<void> {
  if (document.getElementById('root')?.firstElementChild) await afterPaint();
  (await app).start();
}

// The start-up data and #root are at the end of the page, so the app starts once it is parsed.
if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', () => void run(), { once: true });
  // The wait for the page's end is idle time: spend it on the locale's date data.
  void app.then(() => {
    if (document.readyState === 'loading') warmTimeFormats();
  });
} else void run();
