// Keyboard choice in a list under a text input (the search panel, the jump palette): Up/Down
// move the chosen row, Enter opens it, Esc closes (and goes no further). The chosen index is
// kept within the list as it shrinks or grows.
import { useState, type KeyboardEvent } from 'react';

export interface ListKeys {
  /** The chosen row's index, within the list (0 for an empty list, -1 after Down on one). */
  current: number;
  setActive: (i: number) => void;
  onKeyDown: (e: KeyboardEvent) => void;
}

export function useListKeys<T>(items: readonly T[], on: { choose: (item: T | undefined) => void; close: () => void }): ListKeys {
  const [active, setActive] = useState(0);
  const current = Math.min(active, Math.max(0, items.length - 1));
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive(Math.min(items.length - 1, current + 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive(Math.max(0, current - 1));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      on.choose(items[current]);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      on.close();
    }
  };
  return { current, setActive, onKeyDown };
}
