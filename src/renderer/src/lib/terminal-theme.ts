// The hosted terminal's look: the app's own light and dark surfaces (zinc, with the indigo
// selection), and ANSI palettes that stay readable on each. The app follows the system's
// light/dark setting, and so does the terminal.
import type { ITheme } from '@xterm/xterm';

export const TERMINAL_FONT = 'ui-monospace, "SF Mono", "Cascadia Code", "JetBrains Mono", Menlo, Consolas, "DejaVu Sans Mono", monospace';

const LIGHT: ITheme = {
  background: '#ffffff',
  foreground: '#18181b',
  cursor: '#18181b',
  cursorAccent: '#ffffff',
  selectionBackground: '#c7d2fe',
  selectionInactiveBackground: '#e4e4e7',
  scrollbarSliderBackground: 'rgba(113, 113, 122, 0.2)',
  scrollbarSliderHoverBackground: 'rgba(113, 113, 122, 0.35)',
  scrollbarSliderActiveBackground: 'rgba(113, 113, 122, 0.5)',
  black: '#18181b',
  red: '#b91c1c',
  green: '#15803d',
  yellow: '#a16207',
  blue: '#1d4ed8',
  magenta: '#a21caf',
  cyan: '#0e7490',
  white: '#a1a1aa',
  brightBlack: '#52525b',
  brightRed: '#dc2626',
  brightGreen: '#16a34a',
  brightYellow: '#ca8a04',
  brightBlue: '#2563eb',
  brightMagenta: '#c026d3',
  brightCyan: '#0891b2',
  brightWhite: '#d4d4d8',
};

const DARK: ITheme = {
  background: '#18181b',
  foreground: '#f4f4f5',
  cursor: '#f4f4f5',
  cursorAccent: '#18181b',
  selectionBackground: '#4f46e5aa',
  selectionInactiveBackground: '#3f3f46',
  scrollbarSliderBackground: 'rgba(161, 161, 170, 0.2)',
  scrollbarSliderHoverBackground: 'rgba(161, 161, 170, 0.35)',
  scrollbarSliderActiveBackground: 'rgba(161, 161, 170, 0.5)',
  black: '#27272a',
  red: '#f87171',
  green: '#4ade80',
  yellow: '#facc15',
  blue: '#60a5fa',
  magenta: '#e879f9',
  cyan: '#22d3ee',
  white: '#d4d4d8',
  brightBlack: '#71717a',
  brightRed: '#fca5a5',
  brightGreen: '#86efac',
  brightYellow: '#fde047',
  brightBlue: '#93c5fd',
  brightMagenta: '#f0abfc',
  brightCyan: '#67e8f9',
  brightWhite: '#fafafa',
};

export function terminalTheme(dark: boolean): ITheme {
  return dark ? DARK : LIGHT;
}
