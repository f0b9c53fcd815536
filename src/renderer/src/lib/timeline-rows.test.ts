import { describe, expect, it } from 'vitest';
import type { TimelineItem } from '../../../shared/types';
import { boundText, frameInText, resultPreview, timelineRows } from './timeline-rows';

const item = (id: string, at: number, kind: TimelineItem['kind'] = 'text'): TimelineItem => ({ id, kind, at, text: id });

describe('timelineRows', () => {
  it('puts a day separator where the local day changes; rows without a time stay in the day before', () => {
    const d1 = new Date(2026, 1, 16, 23, 50).getTime();
    const d2 = new Date(2026, 1, 17, 0, 10).getTime();
    const rows = timelineRows([item('a', d1), item('b', 0), item('c', d2)]);
    expect(rows.map((r) => r.kind)).toEqual(['day', 'item', 'item', 'day', 'item']);
    expect(rows.filter((r) => r.kind === 'item').map((r) => (r.kind === 'item' ? r.item.id : ''))).toEqual(['a', 'b', 'c']);
    expect(new Set(rows.map((r) => r.key)).size).toBe(rows.length);
  });
});

describe('result helpers', () => {
  it('previews a result by its first non-empty line and counts its lines', () => {
    expect(resultPreview('\n  PASS a.test.ts\nPASS b.test.ts\n')).toEqual({ first: 'PASS a.test.ts', lines: 3 });
    expect(resultPreview('one')).toEqual({ first: 'one', lines: 1 });
    expect(resultPreview('')).toEqual({ first: '', lines: 0 });
  });

  it('bounds what an expanded result shows', () => {
    expect(boundText('abcdef', 4)).toEqual({ text: 'abcd', cut: 2 });
    expect(boundText('abc', 4)).toEqual({ text: 'abc', cut: 0 });
  });

  it('recognises a protocol frame carried as text, and only a known one', () => {
    expect(frameInText('{"type":"shutdown_request","requestId":"r1","reason":"done"}')?.type).toBe('shutdown_request');
    expect(frameInText('{"type":"whatever"}')).toBeUndefined();
    expect(frameInText('{"type":')).toBeUndefined();
    expect(frameInText('please {fix} it')).toBeUndefined();
  });
});
