// The window's colours: the Settings choice (system, light or dark), applied as `data-theme` on
// the root element, which the stylesheet's `dark:` variant reads; with no attribute (`system`,
// and the first screen before the app runs) the system's preference decides.
import { useEffect, useSyncExternalStore } from 'react';
import type { ThemeChoice } from '../../../shared/contract';
import { useDeck } from '../state/context';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function subscribeSystem(onChange: () => void): () => void {
  const mq = window.matchMedia(DARK_QUERY);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}

/** Whether the window is dark: the choice, or the system's preference for `system`. */
export function isDark(choice: ThemeChoice | undefined, systemDark: boolean): boolean {
  return choice === 'dark' || (choice !== 'light' && systemDark);
}

/** The attribute the stylesheet reads: none for `system`, so the media query decides. */
export function themeAttribute(choice: ThemeChoice | undefined): 'light' | 'dark' | undefined {
  return choice === 'light' || choice === 'dark' ? choice : undefined;
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
