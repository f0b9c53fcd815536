// The theme choice applied to the page (see lib/theme.ts).
import { useEffect, useSyncExternalStore } from 'react';
import { isDark, themeAttribute } from '../lib/theme';
import { useDeck } from '../state/context';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function subscribeSystem(onChange: () => void): () => void {
  const mq = window.matchMedia(DARK_QUERY);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}

export function useSystemDark(): boolean {
  return useSyncExternalStore(subscribeSystem, () => window.matchMedia(DARK_QUERY).matches);
}

/** Dark or not, as the window shows it now (for what the stylesheet cannot colour: the terminal). */
export function useDarkTheme(): boolean {
  const choice = useDeck((s) => s.settings.theme);
  return isDark(choice, useSystemDark());
}

/** Keeps the root element's `data-theme` on the Settings choice. */
export function useApplyTheme(): void {
  const choice = useDeck((s) => s.settings.theme);
  useEffect(() => {
    const value = themeAttribute(choice);
    if (value) document.documentElement.dataset.theme = value;
    else delete document.documentElement.dataset.theme;
  }, [choice]);
}
