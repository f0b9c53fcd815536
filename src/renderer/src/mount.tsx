import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { TeamdeckApi } from '../../shared/contract';
import { App } from './App';
import { DeckProvider } from './state/context';
import { createDeckStore } from './state/store';
import './styles.css';

/** Renders the app over any TeamdeckApi: the shipped entry passes the host's, the dev entry a fake. */
export function mount(api: TeamdeckApi, el: HTMLElement): void {
  const store = createDeckStore(api);
  createRoot(el).render(
    <StrictMode>
      <DeckProvider store={store}>
        <App />
      </DeckProvider>
    </StrictMode>,
  );
  void store.getState().actions.start();
}
