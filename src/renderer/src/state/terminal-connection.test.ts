import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppEvent, Result } from '../../../shared/contract';
import { MAX_TERMINAL_INPUT } from '../../../shared/contract-schema';
import { createFakeApi, type FakeApi } from '../dev/fake-api';
import { connectTerminal, type TerminalApi } from './terminal-connection';

const fakes: FakeApi[] = [];
afterEach(() => {
  for (const f of fakes.splice(0)) f.stopTimers();
});

/** The demo's running terminal (its lead made session-7ec79863). */
async function demo() {
  const api = createFakeApi({ stepMs: 0 });
  fakes.push(api);
  const snap = await api.getSnapshot();
  if (!snap.ok) throw new Error('no snapshot');
  const id = snap.value.terminals[0]!.id;
  return { api, id };
}

/** A host whose attach the test answers by hand, to see what happens to output around it. */
function manualHost() {
  const listeners = new Set<(e: AppEvent) => void>();
  const calls: [string, ...unknown[]][] = [];
  let answerAttach: ((r: Result<{ screen: string }>) => void) | undefined;
  const api: TerminalApi = {
    onEvent: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    attachTerminal: (...args) => {
      calls.push(['attach', ...args]);
      return new Promise((r) => (answerAttach = r));
    },
    terminalInput: async (...args) => {
      calls.push(['input', ...args]);
      return { ok: true, value: null };
    },
    resizeTerminal: async (...args) => {
      calls.push(['resize', ...args]);
      return { ok: true, value: null };
    },
    detachTerminal: async (...args) => {
      calls.push(['detach', ...args]);
      return { ok: true, value: null };
    },
  };
  const push = (e: AppEvent) => {
    for (const l of [...listeners]) l(e);
  };
  return { api, calls, push, answer: (r: Result<{ screen: string }>) => answerAttach!(r), listeners };
}

describe('connectTerminal', () => {
  it('paints the screen the host returns, then what the terminal prints, and echoes what is typed', async () => {
    const { api, id } = await demo();
    const written: string[] = [];
    const conn = connectTerminal(api, id, { write: (d) => written.push(d) });
    expect(await conn.attach(100, 30)).toBeUndefined();
    expect(written[0]).toContain('Claude Code');
    conn.input('hello');
    await conn.idle();
    expect(written.slice(1).join('')).toContain('hello');
    expect(api.terminals.viewers(id)).toBe(1);
    conn.close();
    expect(api.terminals.viewers(id)).toBe(0);
    // Closed: nothing more reaches the sink.
    const before = written.length;
    api.terminals.typeTurn(id, 'late');
    expect(written.length).toBe(before);
  });

  it('paints output that arrives before the attach is answered after the screen, and ignores other terminals', async () => {
    const h = manualHost();
    const written: string[] = [];
    const conn = connectTerminal(h.api, 't-000000000001', { write: (d) => written.push(d) });
    const attached = conn.attach(80, 24);
    h.push({ type: 'terminal-output', id: 't-000000000001', data: 'after-capture' });
    h.push({ type: 'terminal-output', id: 't-000000000002', data: 'someone else' });
    expect(written).toEqual([]);
    h.answer({ ok: true, value: { screen: 'SCREEN' } });
    await attached;
    h.push({ type: 'terminal-output', id: 't-000000000001', data: 'live' });
    expect(written).toEqual(['SCREEN', 'after-capture', 'live']);
    conn.close();
  });

  it('detaches a viewer closed while its attach was on its way, once the host has counted it', async () => {
    const h = manualHost();
    const conn = connectTerminal(h.api, 't-000000000001', { write: () => {} });
    const attached = conn.attach(80, 24);
    conn.close();
    expect(h.calls.map((c) => c[0])).toEqual(['attach']);
    h.answer({ ok: true, value: { screen: 'x' } });
    await attached;
    expect(h.calls.map((c) => c[0])).toEqual(['attach', 'detach']);
    expect(h.listeners.size).toBe(0);
  });

  it('reports a refused attach in words and never detaches what was not attached', async () => {
    const h = manualHost();
    const conn = connectTerminal(h.api, 't-000000000001', { write: () => {} });
    const attached = conn.attach(80, 24);
    h.answer({ ok: false, error: { code: 'not_found', message: 'No terminal t-000000000001.' } });
    expect(await attached).toBe('No terminal t-000000000001.');
    conn.close();
    expect(h.calls.map((c) => c[0])).toEqual(['attach']);
  });

  it('sends a paste larger than one call allows as ordered pieces that join back to it', async () => {
    const h = manualHost();
    const conn = connectTerminal(h.api, 't-000000000001', { write: () => {} });
    const paste = '\u001b[200~' + 'x'.repeat(MAX_TERMINAL_INPUT * 2 + 10) + '\u001b[201~';
    conn.input(paste);
    await conn.idle();
    const pieces = h.calls.filter((c) => c[0] === 'input').map((c) => c[2] as string);
    expect(pieces.length).toBe(3);
    expect(pieces.every((p) => p.length <= MAX_TERMINAL_INPUT)).toBe(true);
    expect(pieces.join('')).toBe(paste);
    conn.close();
  });

  it('sends only the last of a quick series of resizes, within the contract’s bounds, and not the size it attached at', async () => {
    vi.useFakeTimers();
    try {
      const h = manualHost();
      const conn = connectTerminal(h.api, 't-000000000001', { write: () => {} }, { resizeDelayMs: 100 });
      void conn.attach(80, 24);
      conn.resize(81, 24);
      conn.resize(90, 30);
      conn.resize(5_000, 0);
      await vi.advanceTimersByTimeAsync(99);
      expect(h.calls.filter((c) => c[0] === 'resize')).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(h.calls.filter((c) => c[0] === 'resize')).toEqual([['resize', 't-000000000001', 1_000, 1]]);
      conn.resize(80, 24);
      conn.resize(1_000, 1);
      await vi.advanceTimersByTimeAsync(200);
      expect(h.calls.filter((c) => c[0] === 'resize')).toHaveLength(1);
      conn.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
