// What the interactive lead's screen says, for the terminal channel: where its input box is and
// whether it is empty. Claude Code 2.1.332 draws the box between two horizontal rules, its
// prompt a `❯` (or `>`); a dialog (a permission prompt, a menu) replaces the box. TUI strings
// change between versions: keep every screen rule here, and prefer the sessions file's status.

/** Where the screen's full-width horizontal rules are (the input box's upper and lower edges). */
function ruleLines(lines: readonly string[]): number[] {
  return lines.flatMap((l, i) => (/^\s*─{20,}\s*$/.test(l) ? [i] : []));
}

/** The lines between the last two horizontal rules, or undefined when no box is on screen. */
export function inputBox(screen: string): string | undefined {
  const lines = screen.split('\n');
  const rules = ruleLines(lines);
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

/**
 * The teammate whose view the lead's terminal shows, or undefined on the lead's own view.
 * Claude Code 2.1.337 opens an in-process teammate's view from the agents panel (↓, a teammate,
 * Enter): the screen's top reads `Viewing @name · esc to return`, the input box's upper rule
 * ends in `@name` and its placeholder is `Message @name…`. Whatever is typed there goes to that
 * teammate, not to the lead (test/fixtures/claude-2.1.337/screens/teammate-view.txt).
 */
export function viewedTeammate(screen: string): string | undefined {
  let found: string | undefined;
  for (const line of screen.split('\n')) {
    const m = /^\s*─{20,} @(\S+) ─+\s*$/.exec(line) ?? /^Viewing @(\S+) · esc to return\b/.exec(line);
    if (m) found = m[1];
  }
  return found;
}

/**
 * Whether the keys go to the agents list under the input box rather than into the box: the
 * footer reads `↑/↓ to select` (2.1.337) in place of the mode line. Enter there opens the
 * selected member's view; typed text does not reach the box.
 */
export function agentsListFocused(screen: string): boolean {
  const lines = screen.split('\n');
  const rules = ruleLines(lines);
  if (!rules.length) return false;
  const footer = lines.slice(rules.at(-1)! + 1).find((l) => l.trim() !== '');
  return footer !== undefined && /^\s*↑\/↓ to select\b/.test(footer);
}

/**
 * Why typing into the lead's terminal now would not reach the lead's own input box, in words
 * that end a sentence; undefined when it would (as far as these two screen rules tell).
 */
export function notLeadsBox(screen: string): { code: 'EVIEWING' | 'EAGENTLIST'; why: string; member?: string } | undefined {
  const name = viewedTeammate(screen);
  if (name !== undefined) return { code: 'EVIEWING', member: name, why: `the lead's terminal is showing ${name}'s view (what is typed there goes to ${name}, not the lead)` };
  if (agentsListFocused(screen)) return { code: 'EAGENTLIST', why: "the lead's terminal has its agents list focused (↑/↓ to select), not its input box" };
  return undefined;
}

/**
 * Claude Code 2.1.332 takes a paste of more than 800 characters, or of more lines than its
 * screen allows (min(2, rows - 10) newlines), as "pasted material": the box shows
 * `[Pasted text #1]` and the turn arrives wrapped in `<pasted_content>` tags, which the model
 * weighs as less than the user's own words. A multi-line `@name` paste then no longer starts with
 * `@` and becomes a lead turn. Pasted in pieces under both limits, a text arrives exactly.
 */
export const PASTE_MAX_CHARS = 800;
/** One newline a piece: inline even on a screen of 11 rows (the limit is min(2, rows - 10)). */
export const PASTE_MAX_NEWLINES = 1;

/** Splits a turn into pieces that each paste inline; pasted one after another they rebuild it. */
export function pastePieces(text: string, maxChars = PASTE_MAX_CHARS, maxNewlines = PASTE_MAX_NEWLINES): string[] {
  const out: string[] = [];
  let cur = '';
  let newlines = 0;
  for (const ch of text) {
    if (cur.length + ch.length > maxChars || (ch === '\n' && newlines === maxNewlines)) {
      out.push(cur);
      cur = '';
      newlines = 0;
    }
    cur += ch;
    if (ch === '\n') newlines++;
  }
  if (cur) out.push(cur);
  return out;
}

/**
 * A text as it must be typed to arrive as a plain turn: a leading `!` would run the rest as a
 * shell command at once, and a leading `/` a slash command; a leading space makes either plain
 * text (Claude keeps the space).
 */
export function plainTurn(text: string): string {
  return /^[!/]/.test(text) ? ` ${text}` : text;
}

const WRAPPED = /\n\n<pasted_content id="([0-9a-f]{4})">\n([\s\S]*?)\n<\/pasted_content id="\1">\n/g;

/** A turn's content with every `<pasted_content>` block replaced by the text that was pasted. */
export function unwrapPasted(content: string): string {
  return content.replace(WRAPPED, (_m, _id, body: string) => body);
}
