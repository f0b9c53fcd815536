import { getApi, takeBoot } from './api';
import { warmTimeFormats } from './lib/time';
import { mount } from './mount';

// The script is loaded `async` (index.html): it is compiled and run while the browser host is
// still reading the team the window opens first, instead of after the whole page has arrived.
// The start-up data and #root are at the end of the page, so the app mounts once it is parsed.
function start(): void {
  // In the Electron window there is no start-up data (and takeBoot finds none).
  const boot = window.teamdeck ? undefined : takeBoot();
  mount(getApi(boot), document.getElementById('root')!, boot);
}

if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', start, { once: true });
  // The wait for the page's end is idle time: spend it on the locale's date data.
  warmTimeFormats();
} else start();
