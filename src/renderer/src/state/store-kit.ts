// What the store's parts share (loads, start, actions): the host's API, the state to read and
// replace, this window's clock, and one load in flight per key. store.ts makes one per store.
import type { Result, TeamdeckApi } from '../../../shared/contract';
import type { DeckState } from './deck-state';

export interface StoreKit {
  api: TeamdeckApi;
  /** The state now. */
  get(): DeckState;
  /** Replaces the state with a pure function of it (the reducers of the modules beside this one). */
  update(f: (s: DeckState) => DeckState): void;
  /** This window's clock. */
  clock(): number;
  /** Runs `run` unless a run under the same key is still on its way. */
  once(key: string, run: () => Promise<void>): Promise<void>;
}

export function createStoreKit(api: TeamdeckApi, get: () => DeckState, update: StoreKit['update'], clock: () => number): StoreKit {
  const inFlight = new Set<string>();
  return {
    api,
    get,
    update,
    clock,
    async once(key, run) {
      if (inFlight.has(key)) return;
      inFlight.add(key);
      try {
        await run();
      } finally {
        inFlight.delete(key);
      }
    },
  };
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** One call to the host; a host that throws (a lost bridge) answers as an internal error, in words. */
export async function call<T>(p: () => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await p();
  } catch (e) {
    return { ok: false, error: { code: 'internal', message: `Teamdeck's host did not answer: ${errorText(e)}` } };
  }
}
