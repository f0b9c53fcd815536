// One pane's link to a hosted terminal, over a scripted host: what it asks (attach, input,
// resize, detach) and what reaches the pane. What the terminal program makes of it is tested
// against the real core in e2e/terminal.spec.ts.
import { describe, expect, it, vi } from 'vitest';
import type { Result } from '../../../shared/contract';
import { MAX_TERMINAL_INPUT } from '../../../shared/contract-schema';
import { held, ok, scriptedApi } from '../testing/scripted-api';
import { connectTerminal } from './terminal-connection';

const ID = 't-000000000001';

/** A host whose attach the test answers by hand, to see what happens to output around it. */
function manualHost() {
  const attach = held<Result<{ screen: string }>>();
  const api = scriptedApi({ attachTerminal: () => attach.promise, terminalInput: ok(null), resizeTerminal: ok(null), detachTerminal: ok(null) });
  const calls = () => api.asked.map((c) => [c.name, ...c.args] as [string, ...unknown[]]);
  return { api, calls, answer: attach.settle };
}

describe('connectTerminal', () => {
  it('paints the screen the host returns, then what the terminal prints; sends what is typed, and detaches when closed', async () => {
    const api = scriptedApi({ attachTerminal: ok({ screen: 'Claude Code v2.1.332' }), terminalInput: ok(null), detachTerminal: ok(null) });
    const written: string[] = [];
    const conn = connectTerminal(api, ID, { write: (d) => written.push(d) });
    expect(await conn.attach(100, 30)).toBeUndefined();
    expect(api.argsOf('attachTerminal')).toEqual([[ID, 100, 30]]);
    expect(written[0]).toContain('Claude Code');
    conn.input('hello');
    await conn.idle();
    expect(api.argsOf('terminalInput')).toEqual([[ID, 'hello']]);
    api.push({ type: 'terminal-output', id: ID, data: 'hello' });
    expect(written.slice(1).join('')).toContain('hello');
    conn.close();
    expect(api.argsOf('detachTerminal')).toEqual([[ID]]);
    expect(api.subscribers).toBe(0);
    // Closed: nothing more reaches the sink.
    const before = written.length;
    api.push({ type: 'terminal-output', id: ID, data: 'late' });
    expect(written.length).toBe(before);
  });

  it('paints output that arrives before the attach is answered after the screen, and ignores other terminals', async () => {
    const h = manualHost();
    const written: string[] = [];
    const conn = connectTerminal(h.api, ID, { write: (d) => written.push(d) });
    const attached = conn.attach(80, 24);
    h.api.push({ type: 'terminal-output', id: ID, data: 'after-capture' });
    h.api.push({ type: 'terminal-output', id: 't-000000000002', data: 'someone else' });
    expect(written).toEqual([]);
    h.answer({ ok: true, value: { screen: 'SCREEN' } });
    await attached;
    h.api.push({ type: 'terminal-output', id: ID, data: 'live' });
    expect(written).toEqual(['SCREEN', 'after-capture', 'live']);
    conn.close();
  });

  it('detaches a viewer closed while its attach was on its way, once the host has counted it', async () => {
    const h = manualHost();
    const conn = connectTerminal(h.api, ID, { write: () => {} });
    const attached = conn.attach(80, 24);
    conn.close();
    expect(h.calls().map((c) => c[0])).toEqual(['attachTerminal']);
    h.answer({ ok: true, value: { screen: 'x' } });
    await attached;
    expect(h.calls().map((c) => c[0])).toEqual(['attachTerminal', 'detachTerminal']);
    expect(h.api.subscribers).toBe(0);
  });

  it('reports a refused attach in words and never detaches what was not attached', async () => {
    const h = manualHost();
    const conn = connectTerminal(h.api, ID, { write: () => {} });
    const attached = conn.attach(80, 24);
    h.answer({ ok: false, error: { code: 'not_found', message: 'No terminal t-000000000001.' } });
    expect(await attached).toBe('No terminal t-000000000001.');
    conn.close();
    expect(h.calls().map((c) => c[0])).toEqual(['attachTerminal']);
  });

  it('sends a paste larger than one call allows as ordered pieces that join back to it', async () => {
    const h = manualHost();
    const conn = connectTerminal(h.api, ID, { write: () => {} });
    const paste = '\u001b[200~' + 'x'.repeat(MAX_TERMINAL_INPUT * 2 + 10) + '\u001b[201~';
    conn.input(paste);
    await conn.idle();
    const pieces = h.calls().filter((c) => c[0] === 'terminalInput').map((c) => c[2] as string);
    expect(pieces.length).toBe(3);
    expect(pieces.every((p) => p.length <= MAX_TERMINAL_INPUT)).toBe(true);
    expect(pieces.join('')).toBe(paste);
    conn.close();
  });

  it('sends only the last of a quick series of resizes, within the contract’s bounds, and not the size it attached at', async () => {
    vi.useFakeTimers();
    try {
      const h = manualHost();
      const conn = connectTerminal(h.api, ID, { write: () => {} }, { resizeDelayMs: 100 });
      void conn.attach(80, 24);
      conn.resize(81, 24);
      conn.resize(90, 30);
      conn.resize(5_000, 0);
      await vi.advanceTimersByTimeAsync(99);
      expect(h.calls().filter((c) => c[0] === 'resizeTerminal')).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(h.calls().filter((c) => c[0] === 'resizeTerminal')).toEqual([['resizeTerminal', ID, 1_000, 1]]);
      conn.resize(80, 24);
      conn.resize(1_000, 1);
      await vi.advanceTimersByTimeAsync(200);
      expect(h.calls().filter((c) => c[0] === 'resizeTerminal')).toHaveLength(1);
      conn.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
