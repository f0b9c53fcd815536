// Reading inbox entries as Claude writes them: plain messages, and protocol frames carried as
// JSON strings in `text`.

export interface Frame {
  type: string;
  [k: string]: unknown;
}

/** The protocol frame an entry carries, if its text is one. */
export function frameOf(entry: Record<string, unknown>): Frame | undefined {
  if (typeof entry.text !== 'string' || !entry.text.startsWith('{')) return undefined;
  try {
    const v = JSON.parse(entry.text);
    return v && typeof v === 'object' && typeof v.type === 'string' ? (v as Frame) : undefined;
  } catch {
    return undefined;
  }
}

/** An idle_notification from `name` (optionally with a `result` that matches). */
export function isIdleFrom(name: string, result?: string | RegExp) {
  return (entry: Record<string, unknown>): boolean => {
    const f = frameOf(entry);
    if (entry.from !== name || f?.type !== 'idle_notification') return false;
    if (result === undefined) return true;
    return typeof f.result === 'string' && (typeof result === 'string' ? f.result === result : result.test(f.result));
  };
}

export function isFrame(type: string, from?: string) {
  return (entry: Record<string, unknown>): boolean => frameOf(entry)?.type === type && (from === undefined || entry.from === from);
}
