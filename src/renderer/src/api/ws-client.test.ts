import { describe, expect, it, vi } from 'vitest';
import { sampleArgs } from '../../../../test/helpers/call-samples';
import { CALL_NAMES, CALLS, type AppEvent } from '../../../shared/contract';
import { createWsClient, hostSocketUrl, type SocketLike } from './ws-client';

/** A socket the test drives by hand: open, answer, push, drop. */
class FakeSocket implements SocketLike {
  readyState = 0;
  sent: { t: string; id: number; name: string; args: unknown[] }[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.drop();
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({});
  }
  reply(id: number, result: unknown) {
    this.onmessage?.({ data: JSON.stringify({ t: 'result', id, result }) });
  }
  push(event: AppEvent) {
    this.onmessage?.({ data: JSON.stringify({ t: 'event', event }) });
  }
}

function setup(extra: { boot?: string } = {}) {
  const sockets: FakeSocket[] = [];
  const opened: string[] = [];
  const client = createWsClient({
    ...extra,
    url: 'ws://127.0.0.1:9/ws?token=t',
    createSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    backoff: { minMs: 5, maxMs: 20 },
    openLink: (u) => opened.push(u),
  });
  return { client, sockets, opened, last: () => sockets[sockets.length - 1]! };
}

describe('createWsClient', () => {
  it('sends the activity, timeline, tasks and needs calls with only the arguments given', () => {
    const { client, last } = setup();
    last().open();
    void client.getActivity('alpha');
    void client.getTimeline('alpha', 'researcher');
    void client.getTimeline('alpha', 'researcher', 50);
    void client.getTasks('alpha');
    void client.getNeeds();
    // No trailing null for a limit left out: the host's schema takes two arguments or three.
    expect(last().sent.map((m) => [m.name, m.args])).toEqual([
      ['getActivity', ['alpha']],
      ['getTimeline', ['alpha', 'researcher']],
      ['getTimeline', ['alpha', 'researcher', 50]],
      ['getTasks', ['alpha']],
      ['getNeeds', []],
    ]);
    client.close();
  });

  it('sends every call in the table but openExternal by its name, with its arguments as given, trailing undefined left out', () => {
    const { client, last } = setup();
    last().open();
    const sent = CALL_NAMES.filter((name) => name !== 'openExternal');
    for (const name of sent) void (client[name] as (...a: unknown[]) => Promise<unknown>)(...sampleArgs(CALLS[name].args), undefined);
    expect(last().sent.map((m) => [m.name, m.args])).toEqual(sent.map((name) => [name, sampleArgs(CALLS[name].args)]));
    client.close();
  });

  it('sends the channel, launch and terminal calls as the contract names them', () => {
    const { client, last } = setup();
    last().open();
    void client.getChannels('session-1', 'team-lead');
    void client.launchTeam({ cwd: '~/proj', permissionMode: 'plan' });
    void client.getTerminals();
    void client.attachTerminal('t-0123456789ab', 120, 40);
    void client.terminalInput('t-0123456789ab', 'ls\r');
    void client.resizeTerminal('t-0123456789ab', 100, 30);
    void client.detachTerminal('t-0123456789ab');
    void client.closeTerminal('t-0123456789ab');
    expect(last().sent.map((m) => [m.name, m.args])).toEqual([
      ['getChannels', ['session-1', 'team-lead']],
      ['launchTeam', [{ cwd: '~/proj', permissionMode: 'plan' }]],
      ['getTerminals', []],
      ['attachTerminal', ['t-0123456789ab', 120, 40]],
      ['terminalInput', ['t-0123456789ab', 'ls\r']],
      ['resizeTerminal', ['t-0123456789ab', 100, 30]],
      ['detachTerminal', ['t-0123456789ab']],
      ['closeTerminal', ['t-0123456789ab']],
    ]);
    client.close();
  });

  it('passes terminal events through with their escape sequences intact', () => {
    const { client, last } = setup();
    last().open();
    const got: AppEvent[] = [];
    client.onEvent((e) => got.push(e));
    last().push({ type: 'terminal-output', id: 't-0123456789ab', data: '\u001b[1mhi\u001b[0m\r\n' });
    last().push({ type: 'terminals', terminals: [] });
    expect(got).toEqual([
      { type: 'terminal-output', id: 't-0123456789ab', data: '\u001b[1mhi\u001b[0m\r\n' },
      { type: 'terminals', terminals: [] },
    ]);
    client.close();
  });

  it('queues calls until the socket opens, then matches answers by id', async () => {
    const { client, last } = setup();
    const a = client.getRoster('alpha');
    const b = client.getThread('alpha', 'researcher');
    const s = last();
    expect(s.sent).toEqual([]);
    s.open();
    expect(s.sent.map((m) => [m.name, m.args])).toEqual([
      ['getRoster', ['alpha']],
      ['getThread', ['alpha', 'researcher']],
    ]);
    s.reply(s.sent[1]!.id, { ok: true, value: ['thread'] });
    s.reply(s.sent[0]!.id, { ok: true, value: ['roster'] });
    expect(await a).toEqual({ ok: true, value: ['roster'] });
    expect(await b).toEqual({ ok: true, value: ['thread'] });
    client.close();
  });

  it('delivers pushed events to subscribers until they unsubscribe', () => {
    const { client, last } = setup();
    last().open();
    const got: AppEvent[] = [];
    const off = client.onEvent((e) => got.push(e));
    last().push({ type: 'queued-count', count: 1 });
    off();
    last().push({ type: 'queued-count', count: 2 });
    expect(got).toEqual([{ type: 'queued-count', count: 1 }]);
    client.close();
  });

  it('fails calls in flight when the connection drops, reconnects with backoff and resyncs', async () => {
    const { client, sockets, last } = setup();
    last().open();
    const got: AppEvent[] = [];
    client.onEvent((e) => got.push(e));
    const inFlight = client.send({ team: 't', to: 'm', text: 'hi' });
    sockets[0]!.drop();
    expect(await inFlight).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(client.connected).toBe(false);
    await vi.waitFor(() => expect(sockets.length).toBe(2));
    const s2 = last();
    s2.open();
    expect(client.connected).toBe(true);
    // After a reconnect the client asks for a snapshot and hands it to listeners.
    const snap = s2.sent.find((m) => m.name === 'getSnapshot');
    expect(snap).toBeDefined();
    s2.reply(snap!.id, { ok: true, value: { teams: [] } });
    await vi.waitFor(() => expect(got).toEqual([{ type: 'snapshot', snapshot: { teams: [] } }]));
    client.close();
    expect(sockets.length).toBe(2);
  });

  it("names the page's boot on its first socket only, and loads a fresh snapshot when the host says resync", async () => {
    const { client, sockets, last } = setup({ boot: 'b1' });
    expect(sockets[0]!.url).toBe('ws://127.0.0.1:9/ws?token=t&boot=b1');
    const got: AppEvent[] = [];
    client.onEvent((e) => got.push(e));
    last().open();
    // The boot's events come first, as events; no snapshot is asked for.
    last().push({ type: 'queued-count', count: 1 });
    expect(last().sent).toEqual([]);
    expect(got).toEqual([{ type: 'queued-count', count: 1 }]);
    last().onmessage?.({ data: JSON.stringify({ t: 'resync' }) });
    const snap = last().sent.find((m) => m.name === 'getSnapshot');
    expect(snap).toBeDefined();
    last().reply(snap!.id, { ok: true, value: { teams: [] } });
    await vi.waitFor(() => expect(got.at(-1)).toEqual({ type: 'snapshot', snapshot: { teams: [] } }));
    sockets[0]!.drop();
    await vi.waitFor(() => expect(sockets.length).toBe(2));
    expect(sockets[1]!.url).toBe('ws://127.0.0.1:9/ws?token=t');
    client.close();
  });

  it('keeps retrying when the host refuses the connection', async () => {
    const { client, sockets } = setup();
    sockets[0]!.drop();
    await vi.waitFor(() => expect(sockets.length).toBe(2));
    sockets[1]!.drop();
    await vi.waitFor(() => expect(sockets.length).toBe(3));
    client.close();
  });

  it('opens only http(s) links, locally, never through the host', async () => {
    const { client, last, opened } = setup();
    last().open();
    expect(await client.openExternal('https://example.com/a b')).toEqual({ ok: true, value: null });
    expect(await client.openExternal('javascript:alert(1)')).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(await client.openExternal('file:///etc/passwd')).toMatchObject({ ok: false });
    expect(opened).toEqual(['https://example.com/a%20b']);
    expect(last().sent).toEqual([]);
    client.close();
  });

  it('resolves calls after close as failures instead of hanging', async () => {
    const { client } = setup();
    const p = client.getSnapshot();
    client.close();
    expect(await p).toMatchObject({ ok: false });
    expect(await client.getSnapshot()).toMatchObject({ ok: false });
  });
});

describe('hostSocketUrl', () => {
  it('points at /ws on the page host with the token in the query', () => {
    expect(hostSocketUrl({ protocol: 'http:', host: '127.0.0.1:4000' }, 'a+b')).toBe('ws://127.0.0.1:4000/ws?token=a%2Bb');
    expect(hostSocketUrl({ protocol: 'http:', host: 'localhost:4000' }, undefined)).toBe('ws://localhost:4000/ws');
  });
});
