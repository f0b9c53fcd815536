/** "⌘" on macOS, "Ctrl" elsewhere, for shortcut hints. */
export function modKey(): string {
  const p = typeof navigator === 'undefined' ? '' : navigator.platform || navigator.userAgent;
  return /Mac|iPhone|iPad/.test(p) ? '⌘' : 'Ctrl';
}
