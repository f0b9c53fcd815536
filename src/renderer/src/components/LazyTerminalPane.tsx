// The terminal pane, loaded the first time one is shown: xterm.js is about a third of the app's
// code, and most sessions never open a terminal. A new snapshot (the host reconnected, so output
// may have been missed) gives the pane a fresh terminal, attached again.
import { lazy, Suspense } from 'react';
import { useDeck } from '../state/context';

const Pane = lazy(() => import('./TerminalPane'));

export function TerminalPane({ id }: { id: string }) {
  const generation = useDeck((s) => s.generation);
  return (
    <Suspense fallback={<div data-testid="terminal-loading" className="flex flex-1 items-center justify-center text-sm text-zinc-500">Opening the terminal…</div>}>
      <Pane key={`${id}:${generation}`} id={id} />
    </Suspense>
  );
}
