// The terminal pane, loaded the first time one is shown: xterm.js is about a third of the app's
// code, and most sessions never open a terminal.
import { lazy, Suspense } from 'react';

const Pane = lazy(() => import('./TerminalPane'));

export function TerminalPane({ id }: { id: string }) {
  return (
    <Suspense fallback={<div data-testid="terminal-loading" className="flex flex-1 items-center justify-center text-sm text-zinc-500">Opening the terminal…</div>}>
      <Pane id={id} />
    </Suspense>
  );
}
