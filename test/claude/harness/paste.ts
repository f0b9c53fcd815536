// The lead's terminal as a message channel: how a text must be put into Claude Code's input box
// to arrive as exactly that text, when typing must not happen at all, and how to read a typed
// message back out of the lead's transcript. Measured on 2.1.332 (test/claude/terminal-typing.test.ts).
import { join } from 'node:path';
import type { Lead } from './tmux-lead.js';
import { inputBox } from './tmux-lead.js';
import { delay } from './wait.js';
import { pastePieces as splitPaste, unwrapPasted } from '../../../src/engine/claude/lead-screen.js';

/**
 * A bracketed paste longer than this, or with more newlines than PASTE_MAX_NEWLINES, is not
 * put into the input box but shown as `[Pasted text #N]` / `[Pasted text #N +L lines]`, and the
 * turn then carries it wrapped: `\n\n<pasted_content id="<4 hex>">\n<text>\n</pasted_content id="<4 hex>">\n`.
 */
export const PASTE_MAX_CHARS = 800;
/** See PASTE_MAX_CHARS: min(2, terminal rows - 10) newlines (2 in any terminal of 12+ rows). */
export const PASTE_MAX_NEWLINES = 2;

/**
 * Splits a text into pieces that each paste inline (at most PASTE_MAX_CHARS characters and
 * PASTE_MAX_NEWLINES newlines), so pasted one after another they rebuild it exactly in the box.
 * Teamdeck's own rule (src/engine/claude/lead-screen.ts), at the limits measured here.
 */
export function pastePieces(text: string): string[] {
  return splitPaste(text, PASTE_MAX_CHARS, PASTE_MAX_NEWLINES);
}

/** Pastes `text` piece by piece (pastePieces), then Enter: the whole text as one turn, no placeholder. */
export async function pasteWhole(lead: Lead, text: string, opts: { submit?: boolean } = {}): Promise<void> {
  for (const piece of pastePieces(text)) {
    await lead.paste(piece, { submit: false });
    await delay(20);
  }
  if (opts.submit === false) return;
  await delay(250);
  lead.keys('Enter');
}

/** A turn's content with every `<pasted_content>` block replaced by the text that was pasted. */
export { unwrapPasted };

/** The lead's transcript: `<config>/projects/<cwd with every non-alphanumeric as '-'>/<sessionId>.jsonl`. */
export function leadTranscriptPath(projectsDir: string, cwd: string, sessionId: string): string {
  return join(projectsDir, cwd.replace(/[^a-zA-Z0-9]/g, '-'), `${sessionId}.jsonl`);
}

/** The lead's sessions/<pid>.json fields that decide whether typing is safe. */
export interface LeadStatus {
  status?: string;
  waitingFor?: string;
}

/**
 * Why a terminal channel must not type into the lead now, or undefined when it may: the rule
 * Teamdeck follows. While a dialog is open (`status: "waiting"`) the input box is gone and
 * Enter answers the dialog; a half-typed draft in the box would be merged with the message.
 * `busy` is fine: a message typed then is queued (and recorded at once).
 */
export function typingBlocker(session: LeadStatus, screen: string): string | undefined {
  if (session.status === 'waiting') return `the lead waits for ${session.waitingFor ?? 'an answer'}`;
  const rules = screen.split('\n').filter((l) => /^─{20,}\s*$/.test(l)).length;
  if (rules < 2) return 'no input box on the screen';
  const draft = inputBox(screen)
    .replace(/^❯/, '')
    .replace(/Press up to edit queued messages/, '')
    .trim();
  if (draft) return `the input box holds a draft: ${JSON.stringify(draft.slice(0, 60))}`;
  return undefined;
}
