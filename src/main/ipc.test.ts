import { describe, expect, it, vi } from 'vitest';
import { sampleArgs } from '../../test/helpers/call-samples.js';
import { CALL_NAMES, CALLS, CHANNELS } from '../shared/contract.js';
import { isTrustedSender, registerIpc, type TrustEvent } from './ipc.js';

const APP = 'file:///app/out/renderer/index.html';
const isAppUrl = (u: string) => u.split('#')[0] === APP;

function setup() {
  const mainFrame = { processId: 4, routingId: 1, parent: null, url: APP };
  const webContents = { mainFrame };
  const win = { isDestroyed: () => false, webContents };
  const handles = new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>();
  const ipc = {
    handle: (channel: string, fn: (event: unknown, ...args: unknown[]) => Promise<unknown>) => void handles.set(channel, fn),
    removeHandler: (channel: string) => void handles.delete(channel),
  };
  const dispatch = vi.fn(async (name: unknown, args: unknown) => ({ ok: true as const, value: { name, args } }));
  const off = registerIpc(ipc as never, { dispatch }, () => win as never, isAppUrl);
  const event = (frame: Partial<typeof mainFrame> | null = {}, sender: unknown = webContents) =>
    ({ sender, senderFrame: frame === null ? null : { ...mainFrame, ...frame } }) as unknown as TrustEvent;
  return { handles, dispatch, off, event, win, webContents };
}

describe('registerIpc', () => {
  it('registers one handler per call on its renderer: channel', () => {
    const { handles, off } = setup();
    expect([...handles.keys()].sort()).toEqual(CALL_NAMES.map((n) => CHANNELS.invoke(n)).sort());
    off();
    expect(handles.size).toBe(0);
  });

  it('runs a valid call from the main frame', async () => {
    const { handles, dispatch, event } = setup();
    const r = await handles.get('renderer:getThread')!(event(), 'team', 'researcher');
    expect(r).toEqual({ ok: true, value: { name: 'getThread', args: ['team', 'researcher'] } });
    expect(dispatch).toHaveBeenCalledOnce();
  });

  it('serves every call in the table: its arguments, validated, reach dispatch under its name', async () => {
    const { handles, dispatch, event } = setup();
    for (const name of CALL_NAMES) {
      const args = sampleArgs(CALLS[name].args);
      expect(await handles.get(`renderer:${name}`)!(event(), ...args), name).toEqual({ ok: true, value: { name, args } });
    }
    expect(dispatch).toHaveBeenCalledTimes(CALL_NAMES.length);
  });

  it('refuses senders other than the main window main frame on the app URL', async () => {
    const { handles, dispatch, event } = setup();
    const h = handles.get('renderer:getSnapshot')!;
    const refused = { ok: false, error: { code: 'refused', message: expect.any(String) } };
    expect(await h(event({ url: 'https://evil.example/' }))).toEqual(refused);
    expect(await h(event({ routingId: 2 }))).toEqual(refused);
    expect(await h(event({ parent: {} as never }))).toEqual(refused);
    expect(await h(event(null))).toEqual(refused);
    expect(await h(event({}, { mainFrame: {} }))).toEqual(refused);
    expect(dispatch).not.toHaveBeenCalled();
  });

  it('validates arguments before dispatching', async () => {
    const { handles, dispatch, event } = setup();
    const r = await handles.get('renderer:send')!(event(), { team: 't', to: 'm', text: 'hi', from: 'team-lead' });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid' } });
    const r2 = await handles.get('renderer:openExternal')!(event(), 'file:///etc/passwd');
    expect(r2).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(dispatch).not.toHaveBeenCalled();
  });
});

describe('isTrustedSender', () => {
  it('is false once the window is gone', () => {
    const { event, webContents } = setup();
    expect(isTrustedSender(event(), { isDestroyed: () => true, webContents } as never, isAppUrl)).toBe(false);
    expect(isTrustedSender(event(), undefined, isAppUrl)).toBe(false);
  });
});
