// What a message's text and summary must be, in the words every path gives: the window before
// Send, the window's host, the engine socket, the CLI with or without a running engine. One
// module so that the same bad input gets the same answer wherever it is caught (no zod, no
// Node: the renderer counts with it).

/** The engine's limit on a message's text, in UTF-8 bytes. */
export const MAX_TEXT_BYTES = 65_536;
/** The longest summary, in characters (Claude shows it as a one-line preview). */
export const MAX_SUMMARY_CHARS = 1_000;

const utf8 = new TextEncoder();

/** A message's size as the limit counts it. */
export function textBytes(text: string): number {
  return utf8.encode(text).length;
}

/** What is wrong with a message's text, in plain words, or undefined when it can be sent. */
export function textProblem(text: unknown): string | undefined {
  if (typeof text !== 'string' || text.trim() === '') return 'message is empty';
  // A UTF-16 unit is at most three bytes of UTF-8: a text this short is within the limit uncounted.
  if (text.length * 3 <= MAX_TEXT_BYTES) return undefined;
  const bytes = textBytes(text);
  return bytes > MAX_TEXT_BYTES ? `message is ${bytes} bytes; the limit is ${MAX_TEXT_BYTES}` : undefined;
}

/** What is wrong with a summary, in plain words, or undefined when it can be sent. */
export function summaryProblem(summary: unknown): string | undefined {
  if (summary === undefined) return undefined;
  if (typeof summary !== 'string' || summary.length > MAX_SUMMARY_CHARS || summary.includes('\u0000')) {
    return `summary must be text of at most ${MAX_SUMMARY_CHARS} characters`;
  }
  return undefined;
}
