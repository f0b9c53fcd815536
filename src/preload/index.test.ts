import { describe, expect, it, vi } from 'vitest';
import { sampleArgs } from '../../test/helpers/call-samples.js';
import { CALL_NAMES, CALLS, CHANNELS, type TeamdeckApi } from '../shared/contract.js';

const exposed: Record<string, unknown> = {};
const invoke = vi.fn(async (..._args: unknown[]) => ({ ok: true, value: null }));
const listeners = new Map<string, Set<(...a: unknown[]) => void>>();

vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (key: string, api: unknown) => {
      exposed[key] = api;
    },
  },
  ipcRenderer: {
    invoke: (...args: unknown[]) => invoke(...args),
    on: (channel: string, fn: (...a: unknown[]) => void) => {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)!.add(fn);
    },
    removeListener: (channel: string, fn: (...a: unknown[]) => void) => {
      listeners.get(channel)?.delete(fn);
    },
  },
}));

await import('./index.js');
const api = exposed.teamdeck as TeamdeckApi;

describe('preload', () => {
  it('exposes exactly the contract calls plus onEvent, as functions, under window.teamdeck', () => {
    expect(Object.keys(exposed)).toEqual(['teamdeck']);
    expect(Object.keys(api).sort()).toEqual([...CALL_NAMES, 'onEvent'].sort());
    for (const v of Object.values(api)) expect(typeof v).toBe('function');
  });

  it('invokes each call on its channel with its arguments', async () => {
    await api.getThread('t', 'm');
    expect(invoke).toHaveBeenLastCalledWith(CHANNELS.invoke('getThread'), 't', 'm');
    await api.send({ team: 't', to: 'm', text: 'hi' });
    expect(invoke).toHaveBeenLastCalledWith(CHANNELS.invoke('send'), { team: 't', to: 'm', text: 'hi' });
    await api.getSnapshot();
    expect(invoke).toHaveBeenLastCalledWith('renderer:getSnapshot');
  });

  it('carries every call in the table on its own channel, with its arguments and nothing else', async () => {
    for (const name of CALL_NAMES) {
      const args = sampleArgs(CALLS[name].args);
      await (api[name] as (...a: unknown[]) => Promise<unknown>)(...args);
      expect(invoke, name).toHaveBeenLastCalledWith(`renderer:${name}`, ...args);
    }
  });

  it('onEvent passes only the payload and unsubscribes', () => {
    const got: unknown[] = [];
    const off = api.onEvent((e) => got.push(e));
    const fire = (payload: unknown) => {
      for (const fn of listeners.get(CHANNELS.event) ?? []) fn({ sender: 'ipc-internals' }, payload);
    };
    fire({ type: 'queued-count', count: 2 });
    off();
    fire({ type: 'queued-count', count: 3 });
    expect(got).toEqual([{ type: 'queued-count', count: 2 }]);
    expect(listeners.get(CHANNELS.event)?.size).toBe(0);
  });
});
