// Human output: aligned columns and short times. JSON output never goes through here.
import type { ThreadMessage } from '../shared/types.js';
import { describeFrame } from '../shared/frame-text.js';
import { endsAsSeen } from '../shared/threads.js';

/** Left-aligned columns separated by two spaces; the last column is not padded. */
export function table(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => [...(r[i] ?? '')].length)));
  return all
    .map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ').trimEnd())
    .join('\n');
}

/** "40s ago", "12m ago", "3h ago", "2d ago"; "-" when unknown. */
export function ago(ms: number | undefined, now = Date.now()): string {
  if (ms === undefined || !Number.isFinite(ms) || ms <= 0) return '-';
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86_400)}d ago`;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** Local "YYYY-MM-DD HH:MM:SS", or the raw text when it is not a time. */
export function localTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
}

/** The text of a message for a terminal: frames described, control characters made visible. */
export function messageBody(m: Pick<ThreadMessage, 'text' | 'frame'>): string {
  if (m.frame) return `[${describeFrame(m.frame)}]`;
  return m.text.replace(/\r\n?/g, '\n').replace(/[\x00-\x08\x0b-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** One message as "time  from -> to  [status]  text", continuation lines indented under the text. */
export function messageLine(m: ThreadMessage, opts: { team?: string } = {}): string {
  const ends = endsAsSeen(m);
  const head = [localTime(m.timestamp), opts.team ?? '', `${ends.from} -> ${ends.to}`, m.status ? `[${m.status}]` : '']
    .filter(Boolean)
    .join('  ');
  const lines = messageBody(m).split('\n');
  const indent = ' '.repeat(head.length + 2);
  return `${head}  ${lines[0] ?? ''}${lines.slice(1).map((l) => `\n${indent}${l}`).join('')}`;
}

/** The JSON shape of a message in `thread --json` and `tail --json`. */
export function messageJson(m: ThreadMessage): Record<string, unknown> {
  const o: Record<string, unknown> = { id: m.id, team: m.team, from: m.from, to: m.to, text: m.text };
  if (m.summary !== undefined) o.summary = m.summary;
  o.timestamp = m.timestamp;
  if (m.color !== undefined) o.color = m.color;
  if (m.status !== undefined) o.status = m.status;
  if (m.reason !== undefined) o.reason = m.reason;
  if (m.sentAs !== undefined) o.sentAs = m.sentAs;
  if (m.source !== undefined) o.source = m.source;
  if (m.channel !== undefined) o.channel = m.channel;
  if (m.frame) o.frame = m.frame.type;
  return o;
}

/** "42 s", "3 min", "2 h 5 min", "3 d": how long something has lasted. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86_400) {
    const m = Math.floor((s % 3600) / 60);
    return `${Math.floor(s / 3600)} h${m ? ` ${m} min` : ''}`;
  }
  return `${Math.floor(s / 86_400)} d`;
}
