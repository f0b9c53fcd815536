import type { ThreadMessage } from '../../../shared/types';
import { dayKey } from './time';

/** One row of a virtualized thread or feed: a day separator or a message. */
export type ThreadItem =
  | { kind: 'day'; key: string; time: number }
  | {
      kind: 'message';
      key: string;
      message: ThreadMessage;
      /** Same sender as the row above, close in time: drawn tighter. */
      grouped: boolean;
      /** No grouped row follows: the place for the group's time. */
      groupEnd: boolean;
    };

const GROUP_GAP_MS = 5 * 60_000;

/** Rows for messages already in time order, with a separator where the local day changes. */
export function threadItems(messages: readonly ThreadMessage[]): ThreadItem[] {
  const out: ThreadItem[] = [];
  let day = '';
  let prev: ThreadMessage | undefined;
  // Recomputed on every new message of a long thread: the day's key is worked out (with a Date)
  // only when a message falls outside the local day of the one before.
  let dayFrom = 0;
  let dayTo = 0;
  let rangeKey = '';
  for (const m of messages) {
    let d = rangeKey;
    if (!m.time) d = 'unknown';
    else if (!(m.time >= dayFrom && m.time < dayTo)) {
      d = rangeKey = dayKey(m.time);
      const start = new Date(m.time);
      start.setHours(0, 0, 0, 0);
      dayFrom = start.getTime();
      start.setDate(start.getDate() + 1);
      dayTo = start.getTime();
    }
    if (d !== day) {
      out.push({ kind: 'day', key: `day:${d}`, time: m.time });
      day = d;
      prev = undefined;
    }
    const grouped =
      !!prev && !prev.frame && !m.frame && prev.from === m.from && prev.to === m.to && m.time - prev.time < GROUP_GAP_MS;
    const last = out.at(-1);
    if (grouped && last?.kind === 'message') last.groupEnd = false;
    out.push({ kind: 'message', key: m.id, message: m, grouped, groupEnd: true });
    prev = m;
  }
  return out;
}
