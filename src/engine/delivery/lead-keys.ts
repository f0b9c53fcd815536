// Answers a permission dialog, or interrupts the lead's turn, by keys in the lead's terminal:
// the user's own authority (docs/claude-contract.md#terminal). Nothing is pressed before the
// screen shows exactly what the caller means to answer; every key is checked against the screen
// before the next one (a key in a dialog's first ~40 ms can be lost, and Claude 2.1.337 may hold a
// key ~50 ms), and the answer counts only once the dialog is seen to close.
import { dialogTool, moveKeys, optionFor, parseDialog, reasonLine, squashed, type AnswerChoice, type PermissionDialog } from '../claude/permission-dialog.js';
import { inputBox, inputText, notLeadsBox } from '../claude/lead-screen.js';
import { TeamdeckError } from '../errors.js';
import type { LeadPane, PaneKey } from '../terminals/lead-pane.js';

/** What the need says is asked: the member, the tool, its command or path. */
export interface AskSpec {
  member: string;
  /** The lead's name: a dialog naming no teammate is the lead's own. */
  lead: string;
  tool?: string;
  subject?: string;
}

export interface KeySent {
  key: string;
  at: number;
}

export interface KeysOutcome {
  keys: KeySent[];
  /** The dialog as read before the first key (answers). */
  prompt?: { header: string; from?: string; body: string };
  /** The screen showed the result (the dialog closed, the turn stopped) within the wait. */
  confirmed: boolean;
}

export interface KeysOptions {
  now?: () => number;
  /** How long a drawn dialog must stay the same before a key goes (default 120 ms). */
  settleMs?: number;
  /** How long the result is waited for (default 2,000 ms). */
  confirmMs?: number;
}

/** A refusal before any key, or a stop on the way; `keys` are those already sent. */
export class LeadKeysError extends TeamdeckError {
  constructor(
    message: string,
    readonly keys: KeySent[] = [],
  ) {
    super('refused', message);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const same = (a: PermissionDialog | undefined, b: PermissionDialog | undefined) => !!a && !!b && a.header === b.header && a.from === b.from && a.body === b.body;

/** Why this dialog is not the one asked about, or undefined when it is. */
export function mismatch(d: PermissionDialog, ask: AskSpec): string | undefined {
  const who = d.from ?? ask.lead;
  const shown = `${who}'s "${d.header}"${d.body ? ` (${oneLine(d.body)})` : ''}`;
  if (who !== ask.member) return `the lead's terminal shows ${shown}, not ${ask.member}'s prompt`;
  const tool = dialogTool(d.header);
  if (ask.tool && tool !== ask.tool) return `the lead's terminal shows ${shown}, not a ${ask.tool} prompt`;
  if (!ask.subject) return `Teamdeck cannot tell what ${ask.member} asks (no tool call in its transcript), so it cannot check the prompt on screen`;
  const want = squashed(ask.subject);
  if (ask.tool === 'Bash' ? squashed(d.body) !== want : !squashed(`${d.header}\n${d.body}`).includes(want)) {
    return `the lead's terminal shows ${shown}, not ${oneLine(ask.subject)}`;
  }
  return undefined;
}

function oneLine(s: string, max = 80): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

async function readDialog(pane: LeadPane): Promise<PermissionDialog | undefined> {
  return parseDialog(await pane.screen());
}

/**
 * Answers the dialog on screen if it is the one `ask` describes. Refuses (LeadKeysError, nothing
 * pressed) when the screen shows no dialog, another prompt, or a choice the dialog does not offer.
 */
export async function answerDialog(pane: LeadPane, ask: AskSpec, choice: AnswerChoice, reason: string | undefined, opts: KeysOptions = {}): Promise<KeysOutcome> {
  const now = opts.now ?? Date.now;
  const keys: KeySent[] = [];
  const first = await readDialog(pane);
  if (!first) throw new LeadKeysError(`the lead's terminal shows no permission dialog (it was answered already, or it is not drawn yet)`);
  const wrong = mismatch(first, ask);
  if (wrong) throw new LeadKeysError(wrong);
  const line = reason === undefined ? '' : reasonLine(reason);
  if (line && choice !== 'deny') throw new LeadKeysError('a reason goes only with --deny (Claude takes one on "No")');
  const target = optionFor(first, choice);
  if (typeof target === 'string') throw new LeadKeysError(target);
  // Drawn and still: a key in the dialog's first moments can be lost.
  await sleep(opts.settleMs ?? 120);
  let d = await readDialog(pane);
  if (!same(first, d)) throw new LeadKeysError(`the dialog changed on screen before any key was pressed; nothing was typed`);
  const press = async (k: PaneKey | string, literal = false) => {
    keys.push({ key: literal ? `text:${k}` : k, at: now() });
    if (literal) await pane.text(k);
    else await pane.key(k as PaneKey);
  };
  /** Waits until the screen shows `ok`, re-reading; false when it never does. */
  const until = async (ok: (d: PermissionDialog | undefined) => boolean, ms = 1_000) => {
    const end = now() + ms;
    for (;;) {
      d = await readDialog(pane);
      if (ok(d)) return true;
      if (now() >= end) return false;
      await sleep(30);
    }
  };
  const focusedLabel = (x: PermissionDialog | undefined) => x?.options.find((o) => o.focused)?.label;
  for (const k of moveKeys(d!, target)) await press(k);
  if (!(await until((x) => same(first, x) && x!.options.find((o) => o.focused)?.n === target.n))) {
    throw new LeadKeysError(`the dialog did not move to "${target.label}" (it shows "${focusedLabel(d) ?? 'no dialog'}"); nothing was chosen`, keys);
  }
  if (line) {
    if (!d!.canAmend) throw new LeadKeysError('this dialog takes no reason on "No"; nothing was chosen', keys);
    await press('Tab');
    if (!(await until((x) => same(first, x) && /^No, and tell Claude what to do differently/.test(focusedLabel(x) ?? '')))) {
      throw new LeadKeysError(`the dialog did not open its reason input; nothing was chosen`, keys);
    }
    await press(line, true);
    const head = squashed(line).slice(0, 40);
    if (!(await until((x) => same(first, x) && squashed(focusedLabel(x) ?? '').includes(head)))) {
      throw new LeadKeysError(`the reason did not show in the dialog; nothing was chosen`, keys);
    }
  }
  await press('Enter');
  const closed = await until((x) => !same(first, x), opts.confirmMs ?? 2_000);
  return { keys, prompt: { header: first.header, ...(first.from ? { from: first.from } : {}), body: first.body }, confirmed: closed };
}

/** The lead's status line while its own turn runs ("… · esc to interrupt · …"). */
export function leadTurnRuns(screen: string): boolean {
  const lines = screen.split('\n');
  const rules = lines.flatMap((l, i) => (/^\s*─{20,}\s*$/.test(l) ? [i] : []));
  const below = rules.length ? lines.slice(rules.at(-1)! + 1, rules.at(-1)! + 3) : [];
  return below.some((l) => /\besc to interrupt\b/i.test(l));
}

/**
 * Stops the lead's turn in flight with Esc (docs/claude-contract.md#interrupts): only while its
 * status line says Esc interrupts, no dialog is open (Esc would answer it "No") and its input box
 * holds no text of the user's (Esc would act on that first).
 */
export async function interruptLead(pane: LeadPane, opts: KeysOptions = {}): Promise<KeysOutcome> {
  const now = opts.now ?? Date.now;
  const screen = await pane.screen();
  if (parseDialog(screen)) throw new LeadKeysError(`the lead's terminal shows a permission dialog: answer it (Esc there would mean "No")`);
  const off = notLeadsBox(screen);
  if (off) throw new LeadKeysError(`${off.why}: Esc there would act on that, not on the lead's turn; switch back to the lead first`);
  if (!leadTurnRuns(screen)) throw new LeadKeysError(`the lead is not running a turn of its own (its terminal does not offer "esc to interrupt")`);
  const box = inputBox(screen);
  if (box !== undefined && inputText(box) !== '') throw new LeadKeysError(`there is unsent text in the lead's input box; Esc would act on it first`);
  const keys: KeySent[] = [{ key: 'Escape', at: now() }];
  await pane.key('Escape');
  const end = now() + (opts.confirmMs ?? 2_000);
  let stopped = false;
  while (!stopped && now() < end) {
    await sleep(50);
    stopped = !leadTurnRuns(await pane.screen());
  }
  return { keys, confirmed: stopped };
}
