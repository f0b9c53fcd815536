// The window's colours: the Settings choice (system, light or dark), applied as `data-theme` on
// the root element, which the stylesheet's `dark:` variant reads; with no attribute (`system`,
// and the first screen before the app runs) the system's preference decides. The hooks that
// apply it are in components/theme-hooks.ts.
import type { ThemeChoice } from '../../../shared/contract';

/** Whether the window is dark: the choice, or the system's preference for `system`. */
export function isDark(choice: ThemeChoice | undefined, systemDark: boolean): boolean {
  return choice === 'dark' || (choice !== 'light' && systemDark);
}

/** The attribute the stylesheet reads: none for `system`, so the media query decides. */
export function themeAttribute(choice: ThemeChoice | undefined): 'light' | 'dark' | undefined {
  return choice === 'light' || choice === 'dark' ? choice : undefined;
}
