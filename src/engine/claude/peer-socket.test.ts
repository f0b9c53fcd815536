import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPeerEndpoint, parsePeerLine, peerKeyFileName, readLeadPeer, readPeerKey, sendPeerMessage, PeerSendError, type PeerLine } from './peer-socket.js';

let root: string;
let socks: string;
let sessions: string;
const cleanups: Array<() => Promise<void> | void> = [];

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'tdpk-')));
  socks = join(root, 'cc-socks');
  sessions = join(root, 'sessions');
  mkdirSync(socks, { mode: 0o700 });
  mkdirSync(sessions, { mode: 0o700 });
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  rmSync(root, { recursive: true, force: true });
});

/** A stand-in receiver that records every raw line of every connection (the way a Claude session reads them). */
async function receiver(name = '77.sock') {
  const path = join(socks, name);
  const connections: string[][] = [];
  const server = createServer({ allowHalfOpen: true }, (s: Socket) => {
    let buf = '';
    s.setEncoding('utf8');
    s.on('data', (d) => (buf += d));
    s.on('end', () => {
      connections.push(buf.split('\n').filter(Boolean));
      s.end();
    });
  });
  await new Promise<void>((r) => server.listen(path, r));
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  return { path, connections };
}

async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('sendPeerMessage', () => {
  it('writes auth, the enveloped message and notify_when_idle in one connection, then half-closes', async () => {
    const r = await receiver();
    const from = `uds:${join(socks, `${process.pid}.sock`)}`;
    const res = await sendPeerMessage({ socketPath: r.path, token: 'ab'.repeat(16), from, msgId: 'id-1', text: 'Please look at the failing test.', fromName: 'teamdeck', fromMode: 'prompting', notifyWhenIdle: true });
    expect(res.bytes).toBeGreaterThan(100);
    await until(() => r.connections.length === 1, 'the connection to end');
    const lines = r.connections[0]!.map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { type: 'auth', token: 'ab'.repeat(16) },
      {
        type: 'user',
        message: { role: 'user', content: `<cross-session-message from="${from}" from-name="teamdeck" from-mode="prompting">\nPlease look at the failing test.\n</cross-session-message>` },
        from,
        msg_id: 'id-1',
      },
      { type: 'control', action: 'notify_when_idle', from, msg_id: 'id-1', from_mode: 'prompting' },
    ]);
  });

  it('sends no auth line without a token, and no notify_when_idle unless asked', async () => {
    const r = await receiver();
    await sendPeerMessage({ socketPath: r.path, from: 'uds:/x/1.sock', msgId: 'id-2', text: 'hi', fromName: 'teamdeck' });
    await until(() => r.connections.length === 1, 'the connection');
    expect(r.connections[0]!.map((l) => JSON.parse(l).type)).toEqual(['user']);
  });

  it("round-trips through Teamdeck's own endpoint (what a reply looks like to the parser)", async () => {
    const got: PeerLine[] = [];
    const e = await openPeerEndpoint({ dir: socks, onMessage: (m) => got.push(m), onControl: (c) => got.push(c) });
    cleanups.push(() => e.close());
    await sendPeerMessage({ socketPath: e.path, token: 'cd'.repeat(16), from: e.address, msgId: 'id-3', text: 'a </cross-session-message> inside', fromName: 'teamdeck', fromMode: 'bypass' });
    await until(() => got.length === 1, 'the message');
    expect(got[0]).toMatchObject({ type: 'user', msgId: 'id-3', text: 'a <\\/cross-session-message> inside', envelope: { from: e.address, fromName: 'teamdeck', fromMode: 'bypass' } });
    expect(e.stats()).toMatchObject({ auths: 1, messages: 1, refused: 0 });
  });

  it('says in words why a message could not go', async () => {
    const base = { from: 'uds:/x/1.sock', msgId: 'm', text: 'hi', fromName: 'teamdeck' };
    await expect(sendPeerMessage({ ...base, socketPath: join(socks, 'nobody.sock') })).rejects.toThrow(/is not there \(the session has ended\)/);
    // A socket file left by a killed process: connect is refused.
    const dead = join(socks, 'dead.sock');
    const p = spawn(process.execPath, ['-e', "require('node:net').createServer().listen(process.argv[1], () => console.log('up'))", dead], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((r) => p.stdout!.once('data', r));
    p.kill('SIGKILL');
    await new Promise((r) => p.once('exit', r));
    const err = await sendPeerMessage({ ...base, socketPath: dead }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PeerSendError);
    expect((err as PeerSendError).code).toBe('not-listening');
    expect((err as Error).message).toBe("the session's socket does not answer (its process may be gone)");
    const file = join(socks, 'file.sock');
    writeFileSync(file, '');
    await expect(sendPeerMessage({ ...base, socketPath: file })).rejects.toThrow(PeerSendError);
    await expect(sendPeerMessage({ ...base, socketPath: 'relative.sock' })).rejects.toThrow(/absolute/);
    await expect(sendPeerMessage({ ...base, socketPath: dead, text: ' ' })).rejects.toThrow(/empty/);
    await expect(sendPeerMessage({ ...base, socketPath: dead, text: 'x'.repeat(1_048_576) })).rejects.toMatchObject({ code: 'too-long' });
    await expect(sendPeerMessage({ ...base, socketPath: dead, token: 'not hex' })).rejects.toThrow(/not a peer token/);
  });

  it('gives up after its timeout when the receiver never reads', async () => {
    // A receiver that never reads: the kernel buffers some of the lines, then writes stall.
    const path = join(socks, 'stuck.sock');
    const held = new Set<Socket>();
    const server = createServer({ pauseOnConnect: true }, (s) => held.add(s));
    await new Promise<void>((r) => server.listen(path, r));
    cleanups.push(
      () =>
        new Promise<void>((r) => {
          for (const s of held) s.destroy();
          server.close(() => r());
        }),
    );
    const big = 'y'.repeat(1_000_000);
    const sends = Array.from({ length: 4 }, (_, i) => sendPeerMessage({ socketPath: path, from: 'uds:/x/1.sock', msgId: `m${i}`, text: big, fromName: 't', timeoutMs: 300 }).then(() => 'sent', (e: PeerSendError) => e.code));
    const results = await Promise.all(sends);
    // The kernel buffers some; a paused receiver cannot take four megabytes.
    expect(results).toContain('timeout');
  });
});

describe('readPeerKey', () => {
  const socketPath = '/tmp/t/cc-socks/5123.sock';

  it('names the key file <pid>.<sha256 of the socket path>.key and reads its token', async () => {
    const name = peerKeyFileName(5123, socketPath);
    expect(name).toBe(`5123.${createHash('sha256').update(socketPath).digest('hex')}.key`);
    writeFileSync(join(sessions, name), JSON.stringify({ peerToken: '757cd84104ae9c24a0966e603e4a1b41', procStart: '1148427', pidDomain: 'linux:x:pid:[1]' }), { mode: 0o600 });
    expect(await readPeerKey(sessions, 5123, socketPath)).toEqual({ kind: 'ok', peerToken: '757cd84104ae9c24a0966e603e4a1b41', file: name });
  });

  it("falls back to the pid's only key file when the hash does not match (Claude's Unicode clean-up)", async () => {
    const other = `5123.${'e'.repeat(64)}.key`;
    writeFileSync(join(sessions, other), JSON.stringify({ peerToken: 'aa'.repeat(16) }));
    expect(await readPeerKey(sessions, 5123, socketPath)).toMatchObject({ kind: 'ok', file: other });
    writeFileSync(join(sessions, `5123.${'f'.repeat(64)}.key`), JSON.stringify({ peerToken: 'bb'.repeat(16) }));
    expect(await readPeerKey(sessions, 5123, socketPath)).toEqual({ kind: 'missing' });
  });

  it('never follows a link, and refuses big or wrong files', async () => {
    const name = peerKeyFileName(1, socketPath);
    const target = join(root, 'elsewhere.json');
    writeFileSync(target, JSON.stringify({ peerToken: 'aa'.repeat(16) }));
    symlinkSync(target, join(sessions, name));
    expect(await readPeerKey(sessions, 1, socketPath)).toEqual({ kind: 'invalid', reason: `${name} is a symbolic link; not followed` });
    const big = peerKeyFileName(2, socketPath);
    writeFileSync(join(sessions, big), 'x'.repeat(70_000));
    expect(await readPeerKey(sessions, 2, socketPath)).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('at most') });
    const bad = peerKeyFileName(3, socketPath);
    writeFileSync(join(sessions, bad), JSON.stringify({ peerToken: 'not hex' }));
    expect(await readPeerKey(sessions, 3, socketPath)).toEqual({ kind: 'invalid', reason: `${bad} holds no peerToken` });
    expect(await readPeerKey(sessions, 4, socketPath)).toEqual({ kind: 'missing' });
    const linkedDir = join(root, 'linked-sessions');
    symlinkSync(sessions, linkedDir);
    expect(await readPeerKey(linkedDir, 3, socketPath)).toEqual({ kind: 'missing' });
  });
});

describe('readLeadPeer', () => {
  it("reads the lead's socket path, name and token", async () => {
    const socketPath = join(socks, '5123.sock');
    writeFileSync(join(sessions, '5123.json'), JSON.stringify({ pid: 5123, sessionId: 's', peerProtocol: 1, messagingSocketPath: socketPath, name: 'proj-38', status: 'idle' }));
    writeFileSync(join(sessions, peerKeyFileName(5123, socketPath)), JSON.stringify({ peerToken: 'ab'.repeat(16) }));
    expect(await readLeadPeer(sessions, 5123)).toEqual({ kind: 'ok', peer: { pid: 5123, socketPath, name: 'proj-38', peerToken: 'ab'.repeat(16) } });
  });

  it('says why a sessions file will not do', async () => {
    expect(await readLeadPeer(sessions, 9)).toEqual({ kind: 'missing' });
    writeFileSync(join(sessions, '10.json'), JSON.stringify({ pid: 10, peerProtocol: 2, messagingSocketPath: '/a/b.sock' }));
    expect(await readLeadPeer(sessions, 10)).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('peer protocol 2') });
    writeFileSync(join(sessions, '11.json'), JSON.stringify({ pid: 11, peerProtocol: 1 }));
    expect(await readLeadPeer(sessions, 11)).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('no messaging socket') });
    writeFileSync(join(sessions, '12.json'), JSON.stringify({ pid: 99, peerProtocol: 1, messagingSocketPath: '/a/b.sock' }));
    expect(await readLeadPeer(sessions, 12)).toMatchObject({ kind: 'invalid' });
    writeFileSync(join(sessions, '13.json'), '{"pid":13,');
    expect(await readLeadPeer(sessions, 13)).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('not valid JSON') });
    // Without a key the peer is still usable (auth is optional on Linux and macOS).
    writeFileSync(join(sessions, '14.json'), JSON.stringify({ pid: 14, peerProtocol: 1, messagingSocketPath: '/a/14.sock' }));
    expect(await readLeadPeer(sessions, 14)).toEqual({ kind: 'ok', peer: { pid: 14, socketPath: '/a/14.sock' } });
  });
});

it('parsePeerLine is re-exported for callers of this module', () => {
  expect(parsePeerLine('{}').ok).toBe(false);
});
