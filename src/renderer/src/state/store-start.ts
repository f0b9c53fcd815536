// The store's start and stop: subscribe to the host's events, take the first state from one
// snapshot (or the browser host's start-up data), replay what arrived meanwhile, then apply each
// pushed event and tick the clock that ages dots and relative times.
import type { AppEvent, Snapshot } from '../../../shared/contract';
import type { RosterEntry } from '../../../shared/types';
import { tick } from './deck-state';
import { applyBoot, applyEvent, applySnapshot } from './host-events';
import { call, type StoreKit } from './store-kit';
import type { StoreLoads } from './store-loads';

/**
 * The browser host's start-up data (src/shared/host-boot.ts), with this window's clock when it
 * arrived (to set the host clock's offset from `snapshot.now`).
 */
export interface StoreBoot {
  snapshot: Snapshot;
  roster?: { team: string; entries: RosterEntry[] };
  receivedAt: number;
}

export interface StoreLifecycle {
  /** Loads the first state (again, after a failure); resolves once it is applied or has failed. */
  start(): Promise<void>;
  stop(): void;
}

export function createStoreLifecycle(kit: StoreKit, loads: StoreLoads, opts: { boot?: StoreBoot; tickMs: number }): StoreLifecycle {
  const { api, get, update, clock } = kit;
  let boot = opts.boot;
  let unsubscribe: (() => void) | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  /** Events that arrive before the first snapshot is applied; replayed on top of it. */
  let held: AppEvent[] | undefined;

  const dispatch = (ev: AppEvent) => {
    // Terminal output goes to the panes' own subscriptions (terminal-connection.ts), not to state.
    if (ev.type === 'terminal-output') return;
    const before = get().selectedTeam;
    update((s) => applyEvent(s, ev, clock()));
    const s = get();
    // A new snapshot (reconnect, new root) or a new selection: load what the screen now needs.
    if (ev.type === 'snapshot' || s.selectedTeam !== before || (ev.type === 'record' && ev.team === s.selectedTeam)) loads.openSelection();
  };

  const startTicking = () => {
    if (!timer) timer = setInterval(() => update((s) => tick(s, clock())), opts.tickMs);
  };

  const start = async () => {
    update((s) => ({ ...s, phase: 'loading', loadError: undefined }));
    if (!unsubscribe) {
      held = [];
      // Subscribe before asking for the snapshot so nothing between the two is lost.
      unsubscribe = api.onEvent((ev) => {
        if (held) held.push(ev);
        else dispatch(ev);
      });
    }
    const given = boot;
    boot = undefined;
    if (given) {
      // Nothing to wait for: the first render has the teams and the first team's roster; the
      // API replays the events since that data.
      held = undefined;
      update((s) => applyBoot(s, given, given.receivedAt));
      startTicking();
      loads.openSelection();
      return;
    }
    const r = await call(() => api.getSnapshot());
    if (!r.ok) {
      // Events keep being held until a retry loads the snapshot.
      update((s) => ({ ...s, phase: 'failed', loadError: r.error.message }));
      return;
    }
    update((s) => applySnapshot(s, r.value, clock()));
    const replay = held ?? [];
    held = undefined;
    for (const ev of replay) dispatch(ev);
    startTicking();
    loads.openSelection();
  };

  return {
    start,
    stop() {
      unsubscribe?.();
      unsubscribe = undefined;
      held = undefined;
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
