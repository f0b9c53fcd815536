// Sending into a Claude session's messaging socket (docs/claude-contract.md#socket), and finding
// what that takes: the socket path from `sessions/<pid>.json` and the auth token from the key file
// beside it. One connection per message, as Claude's own senders do: auth line (when a token is
// known), the user line, optionally notify_when_idle, then a half-close. Nothing answers on that
// connection; the receiver's receipts and replies come to Teamdeck's own endpoint
// (peer-endpoint.ts). Errors are PeerSendError, in words.
import { createHash } from 'node:crypto';
import { lstat, readdir } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { isAbsolute, join } from 'node:path';
import { readBounded, UnreadableFileError } from '../files/read-whole.js';
import { authLine, notifyWhenIdleLine, PeerProtocolError, userLine, type FromMode, type PeerPriority } from './peer-protocol.js';

export * from './peer-protocol.js';
export { openPeerEndpoint, PeerEndpointError, DEFAULT_PEER_LIMITS, type PeerEndpoint, type PeerEndpointOptions, type PeerEndpointStats, type PeerLineMeta } from './peer-endpoint.js';

/** Key and sessions files are under 1 KB; anything bigger is not Claude's. */
const MAX_SMALL_FILE_BYTES = 64 * 1024;
const TOKEN = /^[0-9a-f]{16,128}$/;

export type PeerSendErrorCode = 'gone' | 'not-listening' | 'refused' | 'timeout' | 'too-long' | 'bad-message' | 'failed';

export class PeerSendError extends Error {
  constructor(
    readonly code: PeerSendErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'PeerSendError';
  }
}

export interface PeerSend {
  /** The receiver's messagingSocketPath. */
  socketPath: string;
  /** The peerToken from the receiver's key file; without it the line goes unauthenticated (Linux/macOS accept that). */
  token?: string;
  /** Teamdeck's address (`endpoint.address`). */
  from: string;
  msgId: string;
  text: string;
  fromName: string;
  fromMode?: FromMode;
  priority?: PeerPriority;
  /** Also asks for a peer_idle_notice about this message. */
  notifyWhenIdle?: boolean;
  /** Connect and flush within this long (default 5 s). */
  timeoutMs?: number;
}

function inWords(e: NodeJS.ErrnoException, socketPath: string): PeerSendError {
  switch (e.code) {
    case 'ECONNREFUSED':
      return new PeerSendError('not-listening', "the session's socket does not answer (its process may be gone)");
    case 'ENOENT':
      return new PeerSendError('gone', `the session's socket ${socketPath} is not there (the session has ended)`);
    case 'EACCES':
    case 'EPERM':
      return new PeerSendError('refused', `Teamdeck may not connect to the session's socket ${socketPath} (${e.code})`);
    case 'ENOTSOCK':
      return new PeerSendError('refused', `${socketPath} is not a socket`);
    case 'EPIPE':
    case 'ECONNRESET':
      return new PeerSendError('failed', 'the session closed the connection before the message was written');
    default:
      return new PeerSendError('failed', `the message could not be written to the session's socket (${e.code ?? e.message})`);
  }
}

/**
 * Writes one message into a session's socket. Resolves once every line is flushed to the
 * receiver; that says the session got the bytes, not that its model saw them (a hold or a drop
 * comes back as a peer_message_status at Teamdeck's endpoint; the transcript proves delivery).
 */
export function sendPeerMessage(m: PeerSend): Promise<{ bytes: number }> {
  let payload: string;
  try {
    if (!isAbsolute(m.socketPath)) throw new PeerSendError('bad-message', `the socket path must be absolute (${m.socketPath})`);
    if (m.token !== undefined && !TOKEN.test(m.token)) throw new PeerSendError('bad-message', 'the auth token is not a peer token (hex)');
    const lines = [
      ...(m.token !== undefined ? [authLine(m.token)] : []),
      userLine({ from: m.from, msgId: m.msgId, text: m.text, fromName: m.fromName, fromMode: m.fromMode, priority: m.priority }),
      ...(m.notifyWhenIdle ? [notifyWhenIdleLine({ from: m.from, msgId: m.msgId, fromMode: m.fromMode })] : []),
    ];
    payload = lines.map((l) => `${l}\n`).join('');
  } catch (e) {
    if (e instanceof PeerSendError) return Promise.reject(e);
    if (e instanceof PeerProtocolError) return Promise.reject(new PeerSendError(e.code === 'too-long' ? 'too-long' : 'bad-message', e.message));
    return Promise.reject(e);
  }
  const timeoutMs = m.timeoutMs ?? 5_000;
  return new Promise((resolve, reject) => {
    const socket = createConnection({ path: m.socketPath, allowHalfOpen: true });
    let settled = false;
    const finish = (err?: PeerSendError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        socket.destroy();
        reject(err);
      } else {
        resolve({ bytes: Buffer.byteLength(payload) });
        // Nothing comes back; the receiver closes its side once it has read the lines.
        const linger = setTimeout(() => socket.destroy(), 2_000);
        linger.unref();
        socket.once('close', () => clearTimeout(linger));
        socket.resume();
      }
    };
    const timer = setTimeout(() => finish(new PeerSendError('timeout', `the session's socket did not take the message within ${timeoutMs} ms`)), timeoutMs);
    // Kept after settling too: a late EPIPE must not go unhandled.
    socket.on('error', (e: NodeJS.ErrnoException) => finish(inWords(e, m.socketPath)));
    socket.once('connect', () => {
      socket.end(payload, () => finish());
    });
  });
}

/** The file name of a session's key: `<pid>.<sha256 hex of its socket path>.key` (as Claude names it). */
export function peerKeyFileName(pid: number, socketPath: string): string {
  return `${pid}.${createHash('sha256').update(socketPath).digest('hex')}.key`;
}

export type PeerKeyRead = { kind: 'ok'; peerToken: string; file: string } | { kind: 'missing' } | { kind: 'invalid'; reason: string };

async function readSmallJson(path: string): Promise<{ json: unknown } | { missing: true } | { invalid: string }> {
  let buf: Buffer;
  try {
    buf = await readBounded(path, MAX_SMALL_FILE_BYTES);
  } catch (e) {
    if (e instanceof UnreadableFileError) return { invalid: e.message };
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { missing: true };
    return { invalid: `cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})` };
  }
  try {
    return { json: JSON.parse(buf.toString('utf8')) };
  } catch {
    return { invalid: 'is not valid JSON' };
  }
}

async function isRealDir(dir: string): Promise<boolean> {
  return lstat(dir).then(
    (st) => st.isDirectory(),
    () => false,
  );
}

/**
 * The peerToken a session published for its socket. The file's name hashes the socket path as
 * Claude spells it after its own Unicode clean-up; for a path that clean-up changes (rare), the
 * one `<pid>.<hash>.key` of that pid is taken instead. Never through a link; bounded.
 */
export async function readPeerKey(sessionsDir: string, pid: number, socketPath: string): Promise<PeerKeyRead> {
  if (!(await isRealDir(sessionsDir))) return { kind: 'missing' };
  let file = peerKeyFileName(pid, socketPath);
  let r = await readSmallJson(join(sessionsDir, file));
  if ('missing' in r) {
    const mine = new RegExp(`^${pid}\\.[0-9a-f]{64}\\.key$`);
    const names = (await readdir(sessionsDir).catch(() => [] as string[])).filter((n) => mine.test(n));
    if (names.length !== 1) return { kind: 'missing' };
    file = names[0]!;
    r = await readSmallJson(join(sessionsDir, file));
    if ('missing' in r) return { kind: 'missing' };
  }
  if ('invalid' in r) return { kind: 'invalid', reason: `${file} ${r.invalid}` };
  const token = (r.json as { peerToken?: unknown } | null)?.peerToken;
  if (typeof token !== 'string' || !TOKEN.test(token)) return { kind: 'invalid', reason: `${file} holds no peerToken` };
  return { kind: 'ok', peerToken: token, file };
}

export interface LeadPeer {
  pid: number;
  socketPath: string;
  /** The session's name (`proj-4a`): what its replies carry as from-name. */
  name?: string;
  peerToken?: string;
}

export type LeadPeerRead = { kind: 'ok'; peer: LeadPeer } | { kind: 'missing' } | { kind: 'invalid'; reason: string };

/**
 * What it takes to message a lead over its socket: `messagingSocketPath` from
 * `sessions/<pid>.json` (peerProtocol 1) and, when published, the token from its key file.
 */
export async function readLeadPeer(sessionsDir: string, pid: number): Promise<LeadPeerRead> {
  if (!(await isRealDir(sessionsDir))) return { kind: 'missing' };
  const r = await readSmallJson(join(sessionsDir, `${pid}.json`));
  if ('missing' in r) return { kind: 'missing' };
  if ('invalid' in r) return { kind: 'invalid', reason: `${pid}.json ${r.invalid}` };
  const s = r.json as { pid?: unknown; peerProtocol?: unknown; messagingSocketPath?: unknown; name?: unknown } | null;
  if (!s || s.pid !== pid) return { kind: 'invalid', reason: `${pid}.json is not that session's file` };
  if (s.peerProtocol !== 1) return { kind: 'invalid', reason: `the session speaks peer protocol ${JSON.stringify(s.peerProtocol ?? null)}, not 1` };
  const socketPath = s.messagingSocketPath;
  if (typeof socketPath !== 'string' || !isAbsolute(socketPath) || !socketPath.endsWith('.sock') || socketPath.length > 400) {
    return { kind: 'invalid', reason: 'the session names no messaging socket' };
  }
  const key = await readPeerKey(sessionsDir, pid, socketPath);
  return {
    kind: 'ok',
    peer: {
      pid,
      socketPath,
      ...(typeof s.name === 'string' && s.name.length <= 200 && { name: s.name }),
      ...(key.kind === 'ok' && { peerToken: key.peerToken }),
    },
  };
}
