// The live app's start: the host's start-up data taken from the page, the API chosen, the app
// rendered into #root (over the host's first screen, when there is one). Loaded by main.tsx.
import { getApi, takeBoot } from './api';
import { mount } from './mount';

export function start(): void {
  // In the Electron window there is no start-up data (and takeBoot finds none).
  const boot = window.teamdeck ? undefined : takeBoot();
  mount(getApi(boot), document.getElementById('root')!, boot);
}
