import { describe, expect, it } from 'vitest';
import { chunkInput, createInputQueue } from './terminal-input';

describe('chunkInput', () => {
  it('leaves input within the limit whole, and splits longer input into pieces of the limit, in order', () => {
    expect(chunkInput('abc', 4)).toEqual(['abc']);
    expect(chunkInput('abcd', 4)).toEqual(['abcd']);
    expect(chunkInput('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(chunkInput('', 4)).toEqual([]);
  });

  it('never cuts a surrogate pair (an emoji) in half', () => {
    const s = 'abc😀def';
    const pieces = chunkInput(s, 4);
    expect(pieces).toEqual(['abc', '😀de', 'f']);
    expect(pieces.join('')).toBe(s);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(4);
  });

  it('splits a large paste into pieces the contract accepts, that join back to the paste', () => {
    const paste = '\u001b[200~' + 'line of text 😀\r'.repeat(10_000) + '\u001b[201~';
    const pieces = chunkInput(paste, 65_536);
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.every((p) => p.length <= 65_536)).toBe(true);
    expect(pieces.join('')).toBe(paste);
  });
});

/** A host that answers each call when the test says so, recording what it got. */
function slowHost() {
  const got: string[] = [];
  const answers: (() => void)[] = [];
  const send = (data: string) =>
    new Promise<{ ok: boolean; error?: { message: string } }>((resolve) => {
      got.push(data);
      answers.push(() => resolve(data.includes('bad') ? { ok: false, error: { message: 'the lead has exited' } } : { ok: true }));
    });
  const answerNext = async () => {
    answers.shift()?.();
    await Promise.resolve();
    await Promise.resolve();
  };
  return { got, send, answerNext, waiting: () => answers.length };
}

describe('createInputQueue', () => {
  it('sends one call at a time, and coalesces what was typed meanwhile into the next', async () => {
    const host = slowHost();
    const q = createInputQueue(host.send, { max: 8 });
    q.push('a');
    q.push('b');
    q.push('c');
    expect(host.got).toEqual(['a']);
    await host.answerNext();
    expect(host.got).toEqual(['a', 'bc']);
    await host.answerNext();
    await q.idle();
    expect(host.got).toEqual(['a', 'bc']);
  });

  it('splits a paste over the limit into ordered calls, each awaited before the next', async () => {
    const host = slowHost();
    const q = createInputQueue(host.send, { max: 4 });
    q.push('0123456789');
    q.push('!');
    expect(host.got).toEqual(['0123']);
    expect(host.waiting()).toBe(1);
    await host.answerNext();
    expect(host.got).toEqual(['0123', '4567']);
    await host.answerNext();
    expect(host.got).toEqual(['0123', '4567', '89!']);
    await host.answerNext();
    await q.idle();
    expect(host.got.join('')).toBe('0123456789!');
  });

  it('reports a refused call in words and goes on with later input', async () => {
    const host = slowHost();
    const errors: string[] = [];
    const q = createInputQueue(host.send, { max: 16, onError: (m) => errors.push(m) });
    q.push('bad');
    await host.answerNext();
    q.push('x');
    await host.answerNext();
    await q.idle();
    expect(errors).toEqual(['the lead has exited']);
    expect(host.got).toEqual(['bad', 'x']);
  });

  it('drops what was not sent once closed', async () => {
    const host = slowHost();
    const q = createInputQueue(host.send, { max: 4 });
    q.push('12345678');
    q.close();
    q.push('more');
    await host.answerNext();
    await q.idle();
    expect(host.got).toEqual(['1234']);
  });

  it('picks up input that arrives just as the previous round ends', async () => {
    const got: string[] = [];
    const q = createInputQueue(async (d) => {
      got.push(d);
      return { ok: true };
    }, { max: 4 });
    q.push('a');
    await q.idle();
    q.push('b');
    await q.idle();
    expect(got).toEqual(['a', 'b']);
  });
});
