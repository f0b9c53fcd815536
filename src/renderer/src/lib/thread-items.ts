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
  for (const m of messages) {
    const d = m.time ? dayKey(m.time) : 'unknown';
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
