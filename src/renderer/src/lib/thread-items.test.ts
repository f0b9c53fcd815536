import { describe, expect, it } from 'vitest';
import type { ThreadMessage } from '../../../shared/types';
import { threadItems } from './thread-items';

const at = (d: number, h: number, min = 0) => new Date(2026, 1, d, h, min).getTime();
let n = 0;
const m = (from: string, time: number, frame = false): ThreadMessage => ({
  id: `m${++n}`,
  team: 't',
  from,
  to: from === 'user' ? 'r' : 'user',
  text: 'x',
  timestamp: '',
  time,
  read: false,
  ...(frame ? { frame: { type: 'idle_notification', fields: {} } } : {}),
});

describe('threadItems', () => {
  it('puts a day separator before the first message of each local day', () => {
    const items = threadItems([m('r', at(9, 10)), m('user', at(9, 23, 59)), m('r', at(10, 0, 1))]);
    expect(items.map((i) => i.kind)).toEqual(['day', 'message', 'message', 'day', 'message']);
  });

  it('groups consecutive messages from the same sender within five minutes, never frames', () => {
    const items = threadItems([m('r', at(9, 10)), m('r', at(9, 10, 2)), m('r', at(9, 10, 9)), m('r', at(9, 10, 10, ), true), m('user', at(9, 10, 11))]);
    const grouped = items.flatMap((i) => (i.kind === 'message' ? [i.grouped] : []));
    expect(grouped).toEqual([false, true, false, false, false]);
    const ends = items.flatMap((i) => (i.kind === 'message' ? [i.groupEnd] : []));
    expect(ends).toEqual([false, true, true, true, true]);
  });

  it('keeps separators right across an unknown time and a day boundary, as a per-message day key would', () => {
    const msgs = [m('r', at(9, 10)), m('r', 0), m('r', at(9, 11)), m('user', at(9, 23, 59)), m('r', at(10, 0, 0)), m('r', at(12, 8))];
    const days = threadItems(msgs).flatMap((i) => (i.kind === 'day' ? [i.key] : []));
    expect(days).toEqual(['day:2026-02-09', 'day:unknown', 'day:2026-02-09', 'day:2026-02-10', 'day:2026-02-12']);
  });

  it('uses message ids as stable keys', () => {
    const msgs = [m('r', at(9, 10))];
    expect(threadItems(msgs).at(-1)!.key).toBe(msgs[0]!.id);
  });
});
