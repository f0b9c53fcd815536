// Teamdeck's own messaging socket: where a lead's SendMessage replies and its receipts
// (peer_message_status, peer_idle_notice) arrive. It lives in the lead's socket directory
// (`<dir>/<Teamdeck's pid>.sock`), because Claude only sends receipts to a `.sock` beside its
// own (docs/claude-contract.md#socket). Every connection is another local process's words: lines
// are bounded, connections are bounded in size, count and time, and anything off-protocol drops
// that connection only; the endpoint keeps listening and counts what it refused.
import { lstat, mkdir, chmod, unlink } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { MAX_LINE_CHARS, parsePeerLine, peerAddress, type PeerControlLine, type PeerLineErrorCode, type PeerUserLine } from './peer-protocol.js';

/** A unix socket path longer than this does not fit sun_path (108 bytes with its NUL on Linux). */
export const MAX_SOCKET_PATH_BYTES = 103;

export interface PeerEndpointLimits {
  /** Characters a line may have before its newline (Claude's own cap). */
  maxLineChars: number;
  /** Characters one connection may send in all. */
  maxConnectionChars: number;
  /** Lines one connection may send. */
  maxConnectionLines: number;
  /** A connection silent this long is closed (Claude waits 30 s for a first line). */
  idleMs: number;
  /** A connection is closed after this long, however busy. */
  maxConnectionMs: number;
  /** Connections open at once; more are closed at once. */
  maxConnections: number;
}

export const DEFAULT_PEER_LIMITS: PeerEndpointLimits = {
  maxLineChars: MAX_LINE_CHARS,
  maxConnectionChars: 4 * 1024 * 1024,
  maxConnectionLines: 64,
  idleMs: 30_000,
  maxConnectionMs: 60_000,
  maxConnections: 64,
};

/** Where a line came from: which connection (numbered from 1), when it was read. */
export interface PeerLineMeta {
  connection: number;
  receivedAt: number;
}

export type PeerRefusal = PeerLineErrorCode | 'connection-too-big' | 'too-many-lines' | 'idle' | 'too-long-open' | 'too-many-connections' | 'socket-error';

export interface PeerEndpointStats {
  connections: number;
  lines: number;
  messages: number;
  controls: number;
  /** Auth lines (accepted and ignored: Teamdeck publishes no key, so there is nothing to check). */
  auths: number;
  /** Connections dropped for bad input, by reason. */
  refused: number;
  refusals: Partial<Record<PeerRefusal, number>>;
}

export interface PeerEndpointOptions {
  /** The lead's socket directory (the dirname of its messagingSocketPath). Created 0700 if absent. */
  dir: string;
  /** The socket's file name: `<pid>.sock` by default (a name Claude accepts as a reply address). */
  name?: string;
  onMessage: (line: PeerUserLine, meta: PeerLineMeta) => void;
  onControl: (line: PeerControlLine, meta: PeerLineMeta) => void;
  log?: (line: string) => void;
  limits?: Partial<PeerEndpointLimits>;
  now?: () => number;
}

export interface PeerEndpoint {
  path: string;
  /** `uds:<path>`: the `from` of Teamdeck's messages, where replies come back. */
  address: string;
  stats(): PeerEndpointStats;
  /** Stops listening, closes open connections, removes the socket file. */
  close(): Promise<void>;
}

export class PeerEndpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PeerEndpointError';
  }
}

const code = (e: unknown) => (e as NodeJS.ErrnoException | undefined)?.code;

/** The directory must be ours and private: a real directory (no link), owned by us, 0700. */
async function ensurePrivateDir(dir: string): Promise<void> {
  let st;
  try {
    st = await lstat(dir);
  } catch (e) {
    if (code(e) !== 'ENOENT') throw new PeerEndpointError(`the socket directory ${dir} cannot be examined (${code(e) ?? String(e)})`);
    try {
      await mkdir(dir, { mode: 0o700 });
    } catch (e2) {
      if (code(e2) !== 'EEXIST') throw new PeerEndpointError(`the socket directory ${dir} does not exist and cannot be made (${code(e2) ?? String(e2)})`);
    }
    st = await lstat(dir);
  }
  if (st.isSymbolicLink()) throw new PeerEndpointError(`the socket directory ${dir} is a symbolic link; not used`);
  if (!st.isDirectory()) throw new PeerEndpointError(`the socket directory ${dir} is not a directory`);
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) throw new PeerEndpointError(`the socket directory ${dir} belongs to another user (uid ${st.uid}); not used`);
  if ((st.mode & 0o077) !== 0) throw new PeerEndpointError(`the socket directory ${dir} is open to others (mode ${(st.mode & 0o777).toString(8)}); it must be 0700`);
}

/** Whether something listens at a socket path (a connect that succeeds). */
function listening(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = createConnection(path);
    const done = (v: boolean) => {
      c.destroy();
      resolve(v);
    };
    c.once('connect', () => done(true));
    c.once('error', () => done(false));
    c.setTimeout(1_000, () => done(true));
  });
}

/** Clears the path for our socket: a dead socket left by an earlier run goes; anything else stays. */
async function clearStale(path: string): Promise<void> {
  let st;
  try {
    st = await lstat(path);
  } catch (e) {
    if (code(e) === 'ENOENT') return;
    throw new PeerEndpointError(`${path} cannot be examined (${code(e) ?? String(e)})`);
  }
  if (!st.isSocket()) throw new PeerEndpointError(`${path} exists and is not a socket; not replaced`);
  if (await listening(path)) throw new PeerEndpointError(`another process is listening at ${path}; not replaced`);
  await unlink(path).catch((e) => {
    if (code(e) !== 'ENOENT') throw new PeerEndpointError(`the stale socket ${path} cannot be removed (${code(e)})`);
  });
}

export async function openPeerEndpoint(opts: PeerEndpointOptions): Promise<PeerEndpoint> {
  const limits = { ...DEFAULT_PEER_LIMITS, ...opts.limits };
  const now = opts.now ?? Date.now;
  const log = opts.log ?? (() => {});
  const name = opts.name ?? `${process.pid}.sock`;
  if (!/^[A-Za-z0-9_-]{1,64}\.sock$/.test(name)) throw new PeerEndpointError(`"${name}" is not a socket name Teamdeck uses (<letters, digits>.sock)`);
  const path = join(opts.dir, name);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) throw new PeerEndpointError(`the socket path ${path} is too long for a unix socket (${Buffer.byteLength(path)} bytes; at most ${MAX_SOCKET_PATH_BYTES})`);
  await ensurePrivateDir(opts.dir);
  await clearStale(path);

  const stats: PeerEndpointStats = { connections: 0, lines: 0, messages: 0, controls: 0, auths: 0, refused: 0, refusals: {} };
  const open = new Set<Socket>();
  let closing = false;

  const refuse = (socket: Socket, id: number, why: PeerRefusal, detail: string) => {
    if (socket.destroyed) return;
    stats.refused++;
    stats.refusals[why] = (stats.refusals[why] ?? 0) + 1;
    log(`peer socket: dropped connection ${id}: ${detail}`);
    socket.destroy();
  };

  const safely = (what: string, f: () => void) => {
    try {
      f();
    } catch (e) {
      log(`peer socket: the ${what} handler failed: ${(e as Error).message}`);
    }
  };

  const handle = (socket: Socket) => {
    const id = ++stats.connections;
    if (closing || open.size >= limits.maxConnections) {
      refuse(socket, id, 'too-many-connections', `${open.size} connections already open`);
      return;
    }
    open.add(socket);
    const decoder = new StringDecoder('utf8');
    let buffer = '';
    let total = 0;
    let lines = 0;
    const lifetime = setTimeout(() => refuse(socket, id, 'too-long-open', `open for ${limits.maxConnectionMs} ms`), limits.maxConnectionMs);
    lifetime.unref();
    socket.setTimeout(limits.idleMs, () => refuse(socket, id, 'idle', `silent for ${limits.idleMs} ms`));
    socket.on('close', () => {
      clearTimeout(lifetime);
      open.delete(socket);
    });
    socket.on('error', (e) => log(`peer socket: connection ${id}: ${e.message}`));

    /** One complete line; false when it got the connection dropped. */
    const take = (line: string): boolean => {
      if (line.trim() === '') return true;
      if (++lines > limits.maxConnectionLines) {
        refuse(socket, id, 'too-many-lines', `more than ${limits.maxConnectionLines} lines`);
        return false;
      }
      stats.lines++;
      const r = parsePeerLine(line);
      if (!r.ok) {
        refuse(socket, id, r.code, r.error);
        return false;
      }
      const meta = { connection: id, receivedAt: now() };
      if (r.line.type === 'auth') stats.auths++;
      else if (r.line.type === 'user') {
        stats.messages++;
        const l = r.line;
        safely('message', () => opts.onMessage(l, meta));
      } else {
        stats.controls++;
        const l = r.line;
        safely('control', () => opts.onControl(l, meta));
      }
      return true;
    };

    const feed = (chunk: string): boolean => {
      total += chunk.length;
      if (total > limits.maxConnectionChars) {
        refuse(socket, id, 'connection-too-big', `more than ${limits.maxConnectionChars} characters`);
        return false;
      }
      let rest = chunk;
      for (let nl = rest.indexOf('\n'); nl !== -1; nl = rest.indexOf('\n')) {
        const line = buffer + rest.slice(0, nl);
        buffer = '';
        rest = rest.slice(nl + 1);
        if (line.length > limits.maxLineChars) {
          refuse(socket, id, 'too-long', `a line of more than ${limits.maxLineChars} characters`);
          return false;
        }
        if (!take(line)) return false;
      }
      buffer += rest;
      if (buffer.length > limits.maxLineChars) {
        refuse(socket, id, 'too-long', `a line of more than ${limits.maxLineChars} characters`);
        return false;
      }
      return true;
    };

    socket.on('data', (data: Buffer) => {
      if (!socket.destroyed) feed(decoder.write(data));
    });
    socket.on('end', () => {
      if (socket.destroyed) return;
      // A last line without its newline counts, as it does for Claude.
      if (feed(decoder.end()) && buffer !== '') {
        const last = buffer;
        buffer = '';
        if (!take(last)) return;
      }
      socket.end();
    });
  };

  const server: Server = createServer({ allowHalfOpen: true }, handle);
  server.on('error', (e) => log(`peer socket: ${e.message}`));
  await new Promise<void>((resolve, reject) => {
    const fail = (e: Error) => reject(new PeerEndpointError(`cannot listen at ${path} (${code(e) ?? e.message})`));
    server.once('error', fail);
    server.listen(path, () => {
      server.off('error', fail);
      resolve();
    });
  });
  const ino = (await lstat(path)).ino;
  try {
    await chmod(path, 0o600);
  } catch (e) {
    server.close();
    // The chmod's failure is what the caller needs; a socket file left here is cleared by the next open (clearStale).
    await unlink(path).catch(() => {});
    throw new PeerEndpointError(`cannot make ${path} private (${code(e) ?? String(e)})`);
  }
  log(`peer socket: listening at ${path}`);

  return {
    path,
    address: peerAddress(path),
    stats: () => ({ ...stats, refusals: { ...stats.refusals } }),
    close: async () => {
      if (closing) return;
      closing = true;
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Only our own socket file: a later endpoint may have taken the path meanwhile.
      const st = await lstat(path).catch(() => undefined);
      // Gone already is what we want; one we could not remove is cleared by the next open (clearStale).
      if (st && st.ino === ino) await unlink(path).catch(() => {});
    },
  };
}
