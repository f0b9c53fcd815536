// A clock that ticks once a second for the few components that show a running counter (a tool
// call's "42 s", how long a need has waited). Only they subscribe, so the rest of the app keeps
// the store's slower tick; the timer runs only while something is subscribed.
import { useSyncExternalStore } from 'react';
import { useDeck } from './context';

const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;
let current = wholeSecond();

function wholeSecond(): number {
  return Math.floor(Date.now() / 1000) * 1000;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    current = wholeSecond();
    timer = setInterval(() => {
      current = wholeSecond();
      for (const l of [...listeners]) l();
    }, 1000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

const getSecond = () => current;
const still = () => () => {};
const zero = () => 0;

/**
 * Host-aligned time: to the second while `ticking`, else the store's clock (which re-ages
 * relative times every few seconds).
 */
export function useTickingNow(ticking: boolean): number {
  // (The host's first screen, a server render, reads the clock as it is: first-screen.tsx.)
  const second = useSyncExternalStore(ticking ? subscribe : still, ticking ? getSecond : zero, ticking ? wholeSecond : zero);
  const offset = useDeck((s) => s.clockOffset);
  const storeNow = useDeck((s) => (ticking ? 0 : s.now));
  return ticking ? second + offset : storeNow;
}
