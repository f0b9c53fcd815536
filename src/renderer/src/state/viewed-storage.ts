// When the user last viewed each thread, kept between launches (the unread badges): read once as
// the store is made, written whenever it changes. Losing it only costs badges, never more.
import type { StoreApi } from 'zustand/vanilla';
import type { DeckState } from './deck-state';

export type ViewedStorage = Pick<Storage, 'getItem' | 'setItem'>;

const VIEWED_KEY = 'teamdeck.viewed.v1';

export interface Viewed {
  /** Messages older than this count as seen in a thread with no time of its own (first launch). */
  baseline: number;
  /** Per memberKey: the time of the newest message the user has seen. */
  at: Record<string, number>;
}

export function readViewed(storage: ViewedStorage | null, now: number): Viewed {
  try {
    const raw = storage?.getItem(VIEWED_KEY);
    if (raw) {
      const v = JSON.parse(raw) as Partial<Viewed>;
      if (typeof v.baseline === 'number' && v.at && typeof v.at === 'object') return { baseline: v.baseline, at: v.at };
    }
  } catch {
    // A damaged entry only costs unread badges: start over.
  }
  return { baseline: now, at: {} };
}

/** Saves the store's viewed times now and after each change of them. */
export function keepViewed<S extends DeckState>(store: StoreApi<S>, storage: ViewedStorage): void {
  const save = (s: S) => {
    try {
      storage.setItem(VIEWED_KEY, JSON.stringify({ baseline: s.viewedBaseline, at: s.viewedAt } satisfies Viewed));
    } catch {
      // Storage full or unavailable: unread badges just will not survive a restart.
    }
  };
  save(store.getState());
  store.subscribe((s, prev) => {
    if (s.viewedAt !== prev.viewedAt) save(s);
  });
}
