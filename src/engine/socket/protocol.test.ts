import { describe, expect, it } from 'vitest';
import { sampleArgs } from '../../../test/helpers/call-samples.js';
import { ENGINE_METHOD_NAMES, ENGINE_METHODS, isEngineMethod, LineReader } from './protocol.js';

function reader(max: number) {
  const lines: string[] = [];
  let tooLong = 0;
  const r = new LineReader(max, (l) => lines.push(l), () => tooLong++);
  return { r, lines, tooLong: () => tooLong };
}

describe('LineReader', () => {
  it('splits lines across and within chunks, multi-byte characters included', () => {
    const { r, lines } = reader(100);
    const bytes = Buffer.from('{"a":1}\n{"b":"é€"}\n\n{"c"', 'utf8');
    // Cut inside the two-byte é so a character spans two chunks.
    const cut = bytes.indexOf(Buffer.from('é')) + 1;
    r.push(bytes.subarray(0, cut));
    r.push(bytes.subarray(cut));
    expect(lines).toEqual(['{"a":1}', '{"b":"é€"}', '']);
    r.push(Buffer.from(':3}\n'));
    expect(lines.at(-1)).toBe('{"c":3}');
  });

  it('stops at the first line longer than the limit, whether or not its newline has come', () => {
    const a = reader(8);
    a.r.push(Buffer.from('12345678\n'));
    a.r.push(Buffer.from('1234'));
    a.r.push(Buffer.from('56789'));
    expect(a.lines).toEqual(['12345678']);
    expect(a.tooLong()).toBe(1);
    a.r.push(Buffer.from('\nmore\n'));
    expect(a.lines).toEqual(['12345678']);
    expect(a.tooLong()).toBe(1);

    const b = reader(8);
    b.r.push(Buffer.from('123456789\nnext\n'));
    expect(b.lines).toEqual([]);
    expect(b.tooLong()).toBe(1);
  });
});

describe('ENGINE_METHODS', () => {
  it('allows only the listed facade methods, each with strict positional arguments', () => {
    // Each takes arguments of its kinds, and not one more.
    for (const method of ENGINE_METHOD_NAMES) {
      const args = sampleArgs(ENGINE_METHODS[method].kinds);
      expect(ENGINE_METHODS[method].safeParse(args).success, method).toBe(true);
      expect(ENGINE_METHODS[method].safeParse([...args, 'extra']).success, `${method} with an extra argument`).toBe(false);
    }
    // Lifecycle and settings stay with the owner; a viewer's output stream belongs to the app
    // that hosts the terminal: no attach over the socket.
    for (const name of ['start', 'stop', 'refresh', 'prepare', 'setIdleThresholdMs', 'setSenderName', 'onEvent', 'attachTerminal', 'detachTerminal', 'constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(isEngineMethod(name), name).toBe(false);
    }
    expect(ENGINE_METHODS.thread.safeParse(['alpha', 'researcher']).success).toBe(true);
    expect(ENGINE_METHODS.thread.safeParse(['alpha']).success).toBe(false);
    expect(ENGINE_METHODS.roster.safeParse(['alpha', 'extra']).success).toBe(false);
    expect(ENGINE_METHODS.roster.safeParse(['a\u0000b']).success).toBe(false);
    expect(ENGINE_METHODS.send.safeParse([{ team: 'alpha', to: 'r', text: 'hi' }]).success).toBe(true);
    expect(ENGINE_METHODS.send.safeParse([{ team: 'alpha', to: 'r', text: 'hi', from: 'team-lead' }]).success).toBe(false);
    expect(ENGINE_METHODS.send.safeParse([{ team: 'alpha', to: 'r', text: 'x'.repeat(65_537) }]).success).toBe(false);
    expect(ENGINE_METHODS.timeline.safeParse(['alpha', 'researcher']).success).toBe(true);
    expect(ENGINE_METHODS.timeline.safeParse(['alpha', 'researcher', 10_000]).success).toBe(true);
    expect(ENGINE_METHODS.timeline.safeParse(['alpha', 'researcher', 10_001]).success).toBe(false);
    expect(ENGINE_METHODS.needs.safeParse([]).success).toBe(true);
    expect(ENGINE_METHODS.needs.safeParse(['alpha']).success).toBe(false);
    expect(ENGINE_METHODS.activity.safeParse(['alpha', 'x']).success).toBe(false);
    expect(ENGINE_METHODS.export.safeParse([{ team: 'alpha', member: 'researcher', format: 'md', timeZone: 'Europe/Paris' }]).success).toBe(true);
    expect(ENGINE_METHODS.export.safeParse([{ team: 'alpha', format: 'json' }]).success).toBe(true);
    expect(ENGINE_METHODS.export.safeParse([{ team: 'alpha', format: 'html' }]).success).toBe(false);
    expect(ENGINE_METHODS.export.safeParse([{ team: 'alpha', format: 'md', timeZone: 'Mars/Olympus' }]).success).toBe(false);
    expect(ENGINE_METHODS.export.safeParse([{ team: 'alpha', format: 'md', path: '/etc/passwd' }]).success).toBe(false);
    expect(ENGINE_METHODS.search.safeParse([{ query: 'retry "upload timer"', team: 'alpha', limit: 200, before: '1830000000000000' }]).success).toBe(true);
    for (const bad of [{ query: '' }, { query: '   ' }, { query: 'x'.repeat(1_001) }, { query: 'a', limit: 201 }, { query: 'a', limit: 0 }, { query: 'a', before: 'drop table' }, { query: 'a', sql: 'x' }]) {
      expect(ENGINE_METHODS.search.safeParse([bad]).success, JSON.stringify(bad).slice(0, 40)).toBe(false);
    }
  });
});
