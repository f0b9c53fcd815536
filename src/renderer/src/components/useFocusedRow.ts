// Brings one message of a virtualized list into view once, the first time it is in the list (a
// search hit or a needs-you item opened it), and lets the highlight go after a few seconds.
import { useEffect, useRef, type RefObject } from 'react';
import type { VirtuosoHandle } from 'react-virtuoso';
import type { ThreadItem } from '../lib/thread-items';

const HIGHLIGHT_MS = 4_000;

export function useFocusedRow(virtuoso: RefObject<VirtuosoHandle | null>, items: readonly ThreadItem[], focusId: string | undefined, clear: () => void, onScrolled?: () => void): void {
  const index = focusId === undefined ? -1 : items.findIndex((it) => it.kind === 'message' && it.message.id === focusId);
  const focusedOnce = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (focusId === undefined || index < 0 || focusedOnce.current === focusId) return;
    focusedOnce.current = focusId;
    onScrolled?.();
    // After the list has laid out its first rows.
    requestAnimationFrame(() => virtuoso.current?.scrollToIndex({ index, align: 'center' }));
  }, [focusId, index, virtuoso, onScrolled]);
  const found = index >= 0;
  useEffect(() => {
    if (focusId === undefined || !found) return;
    const t = setTimeout(clear, HIGHLIGHT_MS);
    return () => clearTimeout(t);
  }, [focusId, found, clear]);
}
