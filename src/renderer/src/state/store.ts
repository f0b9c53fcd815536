// The one zustand store: loads the first state with a single getSnapshot, then applies pushed
// events. Every state transition is a pure function of the state modules beside this one; the
// store's parts only sequence API calls around them: store-start.ts (start, events, the clock),
// store-loads.ts (what the screen needs, once per generation) and store-actions.ts (what the
// window's controls ask).
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { TeamdeckApi } from '../../../shared/contract';
import { initialState, type DeckState } from './deck-state';
import { createStoreActions, type DeckActions } from './store-actions';
import { createStoreKit } from './store-kit';
import { createStoreLoads } from './store-loads';
import { createStoreLifecycle, type StoreBoot } from './store-start';
import { keepViewed, readViewed, type ViewedStorage } from './viewed-storage';

export type { DeckActions };

export type DeckStore = DeckState & { actions: DeckActions };

export interface DeckStoreOptions {
  /** Where "last viewed" per thread is remembered between launches; null keeps it in memory only. */
  storage?: ViewedStorage | null;
  /** How often dots and relative times re-age. */
  tickMs?: number;
  /** This window's clock (tests inject one). */
  now?: () => number;
  /**
   * The browser host's start-up data (src/shared/host-boot.ts): the first start applies it instead
   * of asking for a snapshot; the API replays the events since it. `receivedAt` is this window's
   * clock when it arrived, to set the host clock's offset from `snapshot.now`.
   */
  boot?: StoreBoot;
}

export function createDeckStore(api: TeamdeckApi, opts: DeckStoreOptions = {}): StoreApi<DeckStore> {
  const clock = opts.now ?? (() => Date.now());
  const storage = opts.storage === undefined ? (typeof localStorage === 'undefined' ? null : localStorage) : opts.storage;
  const viewed = readViewed(storage, clock());

  const store = createStore<DeckStore>()((set, get) => {
    const kit = createStoreKit(api, get, (f) => set((s) => f(s)), clock);
    const loads = createStoreLoads(kit);
    const life = createStoreLifecycle(kit, loads, { ...(opts.boot ? { boot: opts.boot } : {}), tickMs: opts.tickMs ?? 10_000 });
    const actions = createStoreActions(kit, loads, life);
    return { ...initialState({ viewedAt: viewed.at, viewedBaseline: viewed.baseline, now: clock() }), actions };
  });

  if (storage) keepViewed(store, storage);
  return store;
}
