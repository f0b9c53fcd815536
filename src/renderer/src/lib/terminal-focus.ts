// Which terminal panes are on screen, so "Open terminal" elsewhere (the needs queue) can put the
// caret in one without loading the terminal code itself (the pane is loaded on first use).

const mounted = new Map<string, { focus(): void }>();

/** Registers a pane's terminal while it is mounted; returns the unregister. */
export function registerTerminal(id: string, term: { focus(): void }): () => void {
  mounted.set(id, term);
  return () => {
    if (mounted.get(id) === term) mounted.delete(id);
  };
}

/** Focuses a terminal's pane once it is on screen (a pane also focuses itself when it mounts). */
export function focusTerminal(id: string): void {
  requestAnimationFrame(() => mounted.get(id)?.focus());
}
