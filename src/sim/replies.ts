// What a simulated member says: a short, deterministic answer built from the request, and how
// it tells a protocol frame from an ordinary message.

export const DETAILS = [
  '',
  ' All tests pass.',
  ' Notes are in the task file.',
  ' Two edge cases left for review.',
  ' Nothing else changed.',
  ' Ready for the next step.',
] as const;

export function firstWords(text: string, n: number): string {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const head = words.slice(0, n).join(' ');
  return words.length > n ? `${head}…` : head;
}

/** "Done: <first eight words>.<detail>" */
export function answerText(request: string, detail: string): string {
  const head = firstWords(request, 8);
  return `Done: ${head}${/[.!?…]$/.test(head) ? '' : '.'}${detail}`;
}

export function answerSummary(request: string): string {
  return `Done: ${firstWords(request, 4)}`;
}

/** A plain text that parses as a JSON object with a string `type`: a protocol frame. */
export function frameOf(text: string): Record<string, unknown> | undefined {
  const t = text.trim();
  if (!t.startsWith('{')) return undefined;
  try {
    const v: unknown = JSON.parse(t);
    if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as Record<string, unknown>).type === 'string') {
      return v as Record<string, unknown>;
    }
  } catch {
    // not JSON: an ordinary message
  }
  return undefined;
}

export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
