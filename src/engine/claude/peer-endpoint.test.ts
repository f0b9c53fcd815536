// Teamdeck's listening socket against other local processes: real unix sockets in real temp
// dirs, and a child process that sends what a hostile or broken neighbour would.
import { execFile, spawn } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPeerEndpoint, type PeerEndpoint, type PeerEndpointOptions } from './peer-endpoint.js';
import type { PeerControlLine, PeerUserLine } from './peer-protocol.js';

let root: string;
let dir: string;
const opened: PeerEndpoint[] = [];

beforeEach(() => {
  // Short: a unix socket path must fit 108 bytes.
  root = realpathSync(mkdtempSync(join(tmpdir(), 'tdps-')));
  dir = join(root, 'cc-socks');
  mkdirSync(dir, { mode: 0o700 });
});
afterEach(async () => {
  for (const e of opened.splice(0)) await e.close();
  rmSync(root, { recursive: true, force: true });
});

function collect(extra: Partial<PeerEndpointOptions> = {}) {
  const messages: PeerUserLine[] = [];
  const controls: PeerControlLine[] = [];
  const logs: string[] = [];
  const open = async () => {
    const e = await openPeerEndpoint({ dir, onMessage: (m) => messages.push(m), onControl: (c) => controls.push(c), log: (l) => logs.push(l), ...extra });
    opened.push(e);
    return e;
  };
  return { messages, controls, logs, open };
}

async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Writes `text` in one connection and half-closes; resolves when the server has closed too. */
function sendRaw(path: string, text: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const c = createConnection({ path, allowHalfOpen: true });
    c.on('error', reject);
    c.on('connect', () => c.end(text));
    c.resume();
    c.on('close', () => resolve());
  });
}

const good = (text: string) => `${JSON.stringify({ type: 'user', message: { role: 'user', content: `<cross-session-message from="uds:/x/1.sock" from-name="lead">\n${text}\n</cross-session-message>` }, from: 'uds:/x/1.sock' })}\n`;

/** A neighbour process: runs `script` (CommonJS) with the socket path as argv[1]; resolves with its stdout. */
function neighbour(path: string, script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', script, path], { timeout: 30_000, maxBuffer: 1 << 20 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)));
  });
}

describe('openPeerEndpoint', () => {
  it('listens at <dir>/<pid>.sock, 0600 in a 0700 dir, and takes a reply and a receipt', async () => {
    const c = collect();
    const e = await c.open();
    expect(e.path).toBe(join(dir, `${process.pid}.sock`));
    expect(e.address).toBe(`uds:${e.path}`);
    expect(lstatSync(e.path).isSocket()).toBe(true);
    expect(statSync(e.path).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    await sendRaw(e.path, good('the answer'));
    await sendRaw(e.path, '{"type":"control","action":"peer_idle_notice","orig_msg_id":"m1","state":"idle","finished_at":5}');
    await until(() => c.messages.length === 1 && c.controls.length === 1, 'a message and a notice');
    expect(c.messages[0]).toMatchObject({ text: 'the answer', envelope: { fromName: 'lead' } });
    expect(c.controls[0]).toMatchObject({ action: 'peer_idle_notice', origMsgId: 'm1', finishedAt: 5 });
    expect(e.stats()).toMatchObject({ connections: 2, messages: 1, controls: 1, refused: 0 });
  });

  it('makes a missing socket directory 0700, and refuses one open to others, a link, or a file', async () => {
    rmSync(dir, { recursive: true });
    const c = collect();
    await c.open();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const e of opened.splice(0)) await e.close();

    chmodSync(dir, 0o755);
    await expect(c.open()).rejects.toThrow(/open to others \(mode 755\)/);
    chmodSync(dir, 0o700);

    const link = join(root, 'link');
    symlinkSync(dir, link);
    await expect(openPeerEndpoint({ dir: link, onMessage: () => {}, onControl: () => {} })).rejects.toThrow(/symbolic link/);
    const file = join(root, 'file');
    writeFileSync(file, '');
    await expect(openPeerEndpoint({ dir: file, onMessage: () => {}, onControl: () => {} })).rejects.toThrow(/not a directory/);
  });

  it('replaces a dead socket from an earlier run, but not a live one or a plain file', async () => {
    const path = join(dir, 'stale.sock');
    // A socket file nobody listens on: an earlier run killed before it could clean up.
    const earlier = spawn(process.execPath, ['-e', "require('node:net').createServer().listen(process.argv[1], () => console.log('up'))", path], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((r) => earlier.stdout!.once('data', r));
    earlier.kill('SIGKILL');
    await new Promise((r) => earlier.once('exit', r));
    expect(lstatSync(path).isSocket()).toBe(true);
    const c = collect({ name: 'stale.sock' });
    const e = await c.open();
    await sendRaw(e.path, good('after replace'));
    await until(() => c.messages.length === 1, 'the message');

    await expect(collect({ name: 'stale.sock' }).open()).rejects.toThrow(/another process is listening/);
    writeFileSync(join(dir, 'plain.sock'), 'x');
    await expect(collect({ name: 'plain.sock' }).open()).rejects.toThrow(/is not a socket; not replaced/);
  });

  it('removes its socket file on close, and closes open connections', async () => {
    const e = await collect().open();
    const c = createConnection(e.path);
    await new Promise((r) => c.once('connect', r));
    const closed = new Promise((r) => c.once('close', r));
    c.on('error', () => {});
    await e.close();
    await closed;
    expect(() => lstatSync(e.path)).toThrow(/ENOENT/);
  });

  it('drops a silent connection after the idle time', async () => {
    const c = collect({ limits: { idleMs: 150 } });
    const e = await c.open();
    const s = createConnection(e.path);
    s.on('error', () => {});
    const t0 = Date.now();
    await new Promise((r) => s.once('close', r));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(100);
    expect(e.stats().refusals.idle).toBe(1);
  });

  it('takes a last line without its newline, and a line split across writes and inside a UTF-8 character', async () => {
    const c = collect();
    const e = await c.open();
    const bytes = Buffer.from(good('é split'));
    const at = bytes.indexOf(Buffer.from('é')) + 1;
    await new Promise<void>((resolve, reject) => {
      const s = createConnection({ path: e.path, allowHalfOpen: true });
      s.on('error', reject);
      s.on('connect', () => {
        s.write(bytes.subarray(0, at));
        setTimeout(() => s.end(bytes.subarray(at)), 30);
      });
      s.resume();
      s.on('close', () => resolve());
    });
    await sendRaw(e.path, good('no newline').trimEnd());
    await until(() => c.messages.length === 2, 'both messages');
    expect(c.messages.map((m) => m.text)).toEqual(['é split', 'no newline']);
  });

  it('survives a neighbour sending junk: each bad connection is dropped and counted, the endpoint keeps taking messages', async () => {
    const c = collect();
    const e = await c.open();
    const script = String.raw`
      const net = require('node:net');
      const path = process.argv[1];
      const out = {};
      const once = (name, data) => new Promise((resolve) => {
        const s = net.createConnection({ path, allowHalfOpen: true });
        s.on('error', () => {});
        s.on('connect', () => s.end(data));
        s.resume();
        s.on('close', () => { out[name] = 'closed'; resolve(); });
      });
      const endless = () => new Promise((resolve) => {
        const s = net.createConnection(path);
        let sent = 0;
        const chunk = 'a'.repeat(64 * 1024);
        const pump = () => { while (!s.destroyed && sent < 64 * 1024 * 1024 && s.write(chunk)) sent += chunk.length; };
        s.on('connect', pump);
        s.on('drain', () => { sent += chunk.length; pump(); });
        s.on('error', () => {});
        s.on('close', () => { out.endlessSent = sent; resolve(); });
      });
      (async () => {
        await once('oversized', JSON.stringify({ type: 'user', message: { role: 'user', content: 'x'.repeat(1048576) } }) + '\n');
        await once('malformed', '{"type":"user","message":\n');
        await once('wrongTypes', '{"type":"user","message":{"role":"user","content":42}}\n');
        await once('unknownType', '{"type":"exec","cmd":"rm -rf /"}\n');
        await once('binary', Buffer.from([0, 1, 2, 255, 254, 10, 0x80, 0x81, 10]));
        await once('tooManyLines', '{"type":"auth","token":"ab"}\n'.repeat(65));
        await endless();
        // 1000 connections as fast as they open, each with one valid notice.
        let connected = 0;
        await Promise.all(Array.from({ length: 1000 }, (_, i) => new Promise((resolve) => {
          const s = net.createConnection({ path, allowHalfOpen: true });
          s.on('error', () => {});
          s.on('connect', () => { connected++; s.end(JSON.stringify({ type: 'control', action: 'peer_idle_notice', orig_msg_id: 'n' + i, state: 'idle' }) + '\n'); });
          s.resume();
          s.on('close', resolve);
        })));
        out.flood = { connected };
        process.stdout.write(JSON.stringify(out));
      })();
    `;
    const out = JSON.parse(await neighbour(e.path, script));
    expect(out).toMatchObject({ oversized: 'closed', malformed: 'closed', wrongTypes: 'closed', unknownType: 'closed', binary: 'closed', tooManyLines: 'closed' });
    // The never-ending line was cut off near the line cap, not read to the end.
    expect(out.endlessSent).toBeLessThan(8 * 1024 * 1024);
    const s = e.stats();
    expect(s.refusals).toMatchObject({ 'too-long': 2, 'not-json': 2, 'bad-shape': 1, 'unknown-type': 1, 'too-many-lines': 1 });
    expect(out.flood.connected).toBeGreaterThan(500);
    // Every flood connection that got in was either taken or turned away at the connection cap.
    const flood = s.connections - 7;
    expect(flood).toBeGreaterThanOrEqual(out.flood.connected);
    expect(c.controls.length + (s.refusals['too-many-connections'] ?? 0)).toBe(flood);
    expect(c.controls.length).toBeGreaterThan(0);
    expect(c.messages).toEqual([]);
    // Still listening, still taking good lines.
    await sendRaw(e.path, good('still here'));
    await until(() => c.messages.length === 1, 'a message after the junk');
    expect(c.messages[0]!.text).toBe('still here');
    expect(statSync(e.path).mode & 0o777).toBe(0o600);
  }, 60_000);

  it('keeps running when a handler throws', async () => {
    const logs: string[] = [];
    const e = await openPeerEndpoint({
      dir,
      onMessage: () => {
        throw new Error('boom');
      },
      onControl: () => {},
      log: (l) => logs.push(l),
    });
    opened.push(e);
    await sendRaw(e.path, good('one') + good('two'));
    await until(() => e.stats().messages === 2, 'both lines');
    expect(logs.filter((l) => l.includes('boom'))).toHaveLength(2);
  });

  it('refuses a socket path too long for a unix socket', async () => {
    const deep = join(dir, 'd'.repeat(90));
    await expect(openPeerEndpoint({ dir: deep, onMessage: () => {}, onControl: () => {} })).rejects.toThrow(/too long for a unix socket/);
  });
});
