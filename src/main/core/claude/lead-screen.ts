// What the interactive lead's screen says, for the terminal channel: where its input box is and
// whether it is empty. Claude Code 2.1.332 draws the box between two horizontal rules, its
// prompt a `❯` (or `>`); a dialog (a permission prompt, a menu) replaces the box. TUI strings
// change between versions: keep every screen rule here, and prefer the sessions file's status.

/** The lines between the last two horizontal rules, or undefined when no box is on screen. */
export function inputBox(screen: string): string | undefined {
  const lines = screen.split('\n');
  const rules = lines.flatMap((l, i) => (/^\s*─{20,}\s*$/.test(l) ? [i] : []));
  if (rules.length < 2) return undefined;
  return lines.slice(rules.at(-2)! + 1, rules.at(-1)).join('\n');
}

/** The box's text without its prompt mark and padding; '' when it is empty. */
export function inputText(box: string): string {
  return box
    .split('\n')
    .map((l) => l.replace(/^\s*[❯>]\s?/, '').trim())
    .join('\n')
    .trim();
}

/** Whether the screen shows the lead's input box and it holds no text. */
export function inputBoxEmpty(screen: string): boolean {
  const box = inputBox(screen);
  return box !== undefined && inputText(box) === '';
}
