// The permission dialog on the interactive lead's screen, read from its plain text, and the
// keys that answer it (docs/claude-contract.md#dialog-keys). Checked against Claude Code 2.1.332 and 2.1.337:
//
//   ──────────────────────────────────────   (a full-width rule)
//    Bash command · from the worker agent   (the tool; " · from the <name> agent" for a teammate)
//    Tip: …
//    run touch one.txt                      (the description)
//   ╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌   (dashed rules around the command or path)
//    touch one.txt
//   ╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌
//    Do you want to proceed?
//    ❯ 1. Yes
//      2. Yes, and always allow access to <dir> from this project
//      3. Yes, and switch to auto mode · …
//      4. No
//    Esc to cancel · Tab to amend
//
// On "No", Tab opens "No, and tell Claude what to do differently": what is typed there reaches
// the asking model after "The user said:". TUI strings change between versions: every screen
// rule of the dialog is here.

export interface DialogOption {
  /** The number Claude shows before it (1-based). */
  n: number;
  label: string;
  focused: boolean;
}

export interface PermissionDialog {
  /** The header as shown ("Bash command"). */
  header: string;
  /** The member that asks: the teammate named in the header, else the lead (undefined). */
  from?: string;
  /** The text between the dashed rules (a command, a path), lines joined by `\n`; '' when none. */
  body: string;
  options: DialogOption[];
  /** The footer offers "Tab to amend" (the focused option takes a typed reason). */
  canAmend: boolean;
}

const QUESTION = /^\s*Do you want to (proceed|make this edit|create|allow)[^\n]*\?\s*$/;
const FULL_RULE = /^\s*─{20,}\s*$/;
const DASHED_RULE = /^\s*╌{20,}\s*$/;
const OPTION = /^\s*(❯)?\s*(\d{1,2})\.\s+(.*?)\s*$/;
const FROM = /^(.*?)\s+·\s+from the (.+?) agent\s*$/;

/** The permission dialog on this screen, or undefined when none is drawn (whole, with its options). */
export function parseDialog(screen: string): PermissionDialog | undefined {
  const lines = screen.replace(/\r/g, '').split('\n');
  const q = lines.findLastIndex((l) => QUESTION.test(l));
  if (q < 0) return undefined;
  const options: DialogOption[] = [];
  let i = q + 1;
  for (; i < lines.length; i++) {
    const m = OPTION.exec(lines[i]!);
    if (!m) {
      // A long label wraps onto an indented line of its own.
      if (options.length > 0 && /^\s{4,}\S/.test(lines[i]!) && !/to cancel/i.test(lines[i]!)) {
        options.at(-1)!.label += ` ${lines[i]!.trim()}`;
        continue;
      }
      break;
    }
    options.push({ n: Number(m[2]), label: m[3]!, focused: m[1] !== undefined });
  }
  // Numbered 1..k in order, one focused: anything else is not a dialog drawn whole.
  if (options.length < 2 || options.some((o, k) => o.n !== k + 1) || options.filter((o) => o.focused).length !== 1) return undefined;
  const footer = lines.slice(i, i + 3).join(' ');
  let top = -1;
  for (let k = q - 1; k >= 0; k--) {
    if (FULL_RULE.test(lines[k]!)) {
      top = k;
      break;
    }
  }
  if (top < 0) return undefined;
  const head = lines.slice(top + 1, q).map((l) => l.trimEnd());
  const first = head.findIndex((l) => l.trim() !== '');
  if (first < 0) return undefined;
  const headerLine = head[first]!.trim();
  const from = FROM.exec(headerLine);
  // The dashed rules around the body; a rule the terminal wrapped (drawn at a width it was
  // resized from) takes two rows or more, still one rule.
  const rules: Array<{ from: number; to: number }> = [];
  head.forEach((l, k) => {
    if (!DASHED_RULE.test(l)) return;
    const last = rules.at(-1);
    if (last && last.to === k - 1) last.to = k;
    else rules.push({ from: k, to: k });
  });
  const body = rules.length >= 2 ? head.slice(rules[0]!.to + 1, rules[1]!.from).map((l) => l.replace(/^ /, '')).join('\n').trim() : '';
  return {
    header: from ? from[1]! : headerLine,
    ...(from ? { from: from[2]! } : {}),
    body,
    options,
    canAmend: /Tab to amend/i.test(footer),
  };
}

/** The tool a dialog's header names ("Bash command" → Bash); undefined for a header not known. */
export function dialogTool(header: string): string | undefined {
  const h = header.trim();
  if (/^Bash command\b/i.test(h)) return 'Bash';
  if (/^(Create|Write) file\b/i.test(h)) return 'Write';
  if (/^Edit file\b/i.test(h)) return 'Edit';
  if (/^Read file\b/i.test(h)) return 'Read';
  if (/^Fetch\b/i.test(h)) return 'WebFetch';
  const m = /^(\w[\w-]*)\b/.exec(h);
  return m?.[1];
}

/** Whitespace-free form of a command or path: a long one wraps on screen at any place. */
export function squashed(text: string): string {
  return text.replace(/\s+/g, '');
}

export type AnswerChoice = 'allow' | 'allow-always' | 'deny';

/** The option that gives this answer, or why none does. */
export function optionFor(d: PermissionDialog, choice: AnswerChoice): DialogOption | string {
  const byLabel = (re: RegExp) => d.options.find((o) => re.test(o.label));
  if (choice === 'allow') return byLabel(/^Yes$/) ?? 'the dialog offers no plain "Yes"';
  if (choice === 'deny') return byLabel(/^No\b/) ?? 'the dialog offers no "No"';
  // "Yes, and always allow access to …", "Yes, allow reading from …", "Yes, and don't ask again …": never the mode switch.
  return byLabel(/^Yes,(?!.*switch to)(?=.*\b(always|allow|don't ask)\b)/i) ?? 'the dialog offers no "always allow" option for this prompt';
}

/** Keys as names, mapped to what a terminal sends by each backend. */
export type KeyName = 'Up' | 'Down' | 'Enter' | 'Escape' | 'Tab';

/** The bytes a terminal sends for each key (xterm, normal cursor mode). */
export const KEY_BYTES: Record<KeyName, string> = { Up: '\x1b[A', Down: '\x1b[B', Enter: '\r', Escape: '\x1b', Tab: '\t' };

/** Moves from the focused option to `target`: Up or Down, as many times as it takes. */
export function moveKeys(d: PermissionDialog, target: DialogOption): KeyName[] {
  const at = d.options.find((o) => o.focused)!.n;
  const key: KeyName = target.n > at ? 'Down' : 'Up';
  return Array.from({ length: Math.abs(target.n - at) }, () => key);
}

/** The longest reason typed into the dialog: it is one line in Claude's small input. */
export const MAX_REASON_CHARS = 2_000;

/** A reason as it can be typed into the dialog's one-line input: one line, no control characters. */
export function reasonLine(reason: string): string {
  return reason
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
