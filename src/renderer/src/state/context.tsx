import { createContext, useContext, type ReactNode } from 'react';
import { useStore, type StoreApi } from 'zustand';
import type { DeckActions, DeckStore } from './store';

const DeckContext = createContext<StoreApi<DeckStore> | null>(null);

export function DeckProvider({ store, children }: { store: StoreApi<DeckStore>; children: ReactNode }) {
  return <DeckContext.Provider value={store}>{children}</DeckContext.Provider>;
}

/** Reads a slice of the deck store; keep selectors narrow (or wrap them in useShallow). */
export function useDeck<T>(selector: (s: DeckStore) => T): T {
  const store = useContext(DeckContext);
  if (!store) throw new Error('useDeck outside <DeckProvider>');
  return useStore(store, selector);
}

export function useActions(): DeckActions {
  return useDeck((s) => s.actions);
}

/** The store itself, for event handlers that read the latest state without subscribing. */
export function useDeckStore(): StoreApi<DeckStore> {
  const store = useContext(DeckContext);
  if (!store) throw new Error('useDeckStore outside <DeckProvider>');
  return store;
}
