// Rows of a member's activity view: its transcript's items with day separators, plus the small
// text helpers its rows use (a collapsed result's preview, a frame carried as text, a bound).
import { FRAME_TYPES, type Frame, type FrameType, type TimelineItem } from '../../../shared/types';
import { dayKey } from './time';

export type TimelineRow = { kind: 'day'; key: string; time: number } | { kind: 'item'; key: string; item: TimelineItem };

/** Items already in transcript order, with a separator where the local day changes (rows without a time join the day before). */
export function timelineRows(items: readonly TimelineItem[]): TimelineRow[] {
  const out: TimelineRow[] = [];
  let day = '';
  for (const item of items) {
    if (item.at) {
      const d = dayKey(item.at);
      if (d !== day) {
        out.push({ kind: 'day', key: `day:${d}:${item.id}`, time: item.at });
        day = d;
      }
    }
    out.push({ kind: 'item', key: item.id, item });
  }
  return out;
}

/** Fields of a JSON result that say in words what happened, in the order they are looked for. */
const WORDS_FIELDS = ['message', 'result', 'summary', 'status', 'text', 'content'];

/**
 * A tool result as a person reads it: JSON indented (the one-line form is unreadable), with a
 * line in words before it; any other text as it is.
 */
export function readableResult(text: string): { words?: string; text: string } {
  const t = text.trim();
  if (!((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']')))) return { text };
  let v: unknown;
  try {
    v = JSON.parse(t);
  } catch {
    return { text };
  }
  const pretty = JSON.stringify(v, null, 2);
  if (Array.isArray(v)) return { words: `a list of ${v.length} ${v.length === 1 ? 'item' : 'items'}`, text: pretty };
  const o = v as Record<string, unknown>;
  const said = WORDS_FIELDS.map((k) => o[k]).find((x): x is string => typeof x === 'string' && x.trim() !== '');
  const keys = Object.keys(o);
  const words = said?.split('\n').find((l) => l.trim() !== '')?.trim() ?? (keys.length ? `fields: ${keys.slice(0, 4).join(', ')}${keys.length > 4 ? ', …' : ''}` : 'no fields');
  return { words, text: pretty };
}

/** What a collapsed tool result shows: a line in words (its first line, or what its JSON says) and how many lines it has. */
export function resultPreview(raw: string): { first: string; lines: number } {
  const { words, text } = readableResult(raw);
  if (words !== undefined) return { first: words, lines: text.split('\n').length };
  const lines = text.split('\n');
  const first = lines.find((l) => l.trim() !== '')?.trim() ?? '';
  // A trailing newline does not make another line.
  const count = lines.length - (lines.at(-1) === '' ? 1 : 0);
  return { first, lines: Math.max(count, text ? 1 : 0) };
}

/** Most characters an expanded result shows; the rest is summed up in a line. */
export const RESULT_MAX_CHARS = 20_000;

export function boundText(text: string, max = RESULT_MAX_CHARS): { text: string; cut: number } {
  return text.length > max ? { text: text.slice(0, max), cut: text.length - max } : { text, cut: 0 };
}

const FRAME_SET = new Set<string>(FRAME_TYPES);

/** A protocol frame a member received as text (a shutdown request, a task assignment), else undefined. */
export function frameInText(text: string): Frame | undefined {
  const t = text.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return undefined;
  try {
    const v = JSON.parse(t) as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
    const type = (v as Record<string, unknown>).type;
    return typeof type === 'string' && FRAME_SET.has(type) ? { type: type as FrameType, fields: v as Record<string, unknown> } : undefined;
  } catch {
    return undefined;
  }
}
