import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { TeamdeckApi } from '../../shared/contract';
import type { PageBoot } from './api';
import { App } from './App';
import { DeckProvider } from './state/context';
import { createDeckStore } from './state/store';
import './styles.css';

/**
 * Renders the app over any TeamdeckApi: the Electron preload's, or the browser host's WebSocket.
 * `boot` is the browser host's start-up data, applied before the first render.
 */
export function mount(api: TeamdeckApi, el: HTMLElement, boot?: PageBoot): void {
  const store = createDeckStore(api, boot ? { boot } : {});
  createRoot(el).render(
    <StrictMode>
      <DeckProvider store={store}>
        <App />
      </DeckProvider>
    </StrictMode>,
  );
  void store.getState().actions.start();
}
