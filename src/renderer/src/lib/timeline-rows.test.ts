import { describe, expect, it } from 'vitest';
import type { TimelineItem } from '../../../shared/types';
import { boundText, frameInText, readableResult, resultPreview, timelineRows } from './timeline-rows';

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

describe('tool results as a person reads them (issue 28, item 14)', () => {
  it('JSON is said in words and shown indented, never as one raw line', () => {
    expect(resultPreview('{"status":"completed","task_id":"3","owner":"researcher"}')).toEqual({ first: 'completed', lines: 5 });
    expect(resultPreview('{"a":1,"b":2,"c":3,"d":4,"e":5}').first).toBe('fields: a, b, c, d, …');
    expect(resultPreview('[{"id":1},{"id":2}]').first).toBe('a list of 2 items');
    expect(readableResult('{"message":"Sent to researcher"}')).toEqual({ words: 'Sent to researcher', text: '{\n  "message": "Sent to researcher"\n}' });
    // Text that only looks like JSON stays as it is.
    expect(readableResult('{not json}')).toEqual({ text: '{not json}' });
  });
});

