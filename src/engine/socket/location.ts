// Where an engine's socket lives and how a client finds it: `<state>/engine.sock` when that
// path fits in a Unix socket address, else an owner-only folder under $XDG_RUNTIME_DIR or the
// OS temp folder; on Windows a named pipe. Either way `<state>/engine-socket.json` (0600) names
// the socket, the owner's pid and the token a client must present.
import { randomBytes } from 'node:crypto';
import { lstat, mkdtemp, readFile, rename, rmdir, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';

export const SOCKET_NAME = 'engine.sock';
export const INFO_NAME = 'engine-socket.json';
/** Prefix of the owner-only folder used when the state path is too long for a socket address. */
export const RUNTIME_DIR_PREFIX = 'teamdeck-engine-';
/**
 * sun_path holds 108 bytes on Linux and 104 on macOS and the BSDs, the terminating NUL
 * included; the smaller limit everywhere keeps the choice the same on every Unix.
 */
export const MAX_SOCKET_PATH_BYTES = 103;

const isWindows = process.platform === 'win32';

export const engineInfoSchema = z.object({
  protocol: z.number().int(),
  pid: z.number().int(),
  path: z.string().min(1).max(4096),
  token: z.string().regex(/^[0-9a-f]{64}$/),
});
export type EngineInfo = z.infer<typeof engineInfoSchema>;

export function infoPath(stateDir: string): string {
  return join(stateDir, INFO_NAME);
}

export function fitsSocketAddress(path: string): boolean {
  return Buffer.byteLength(path, 'utf8') <= MAX_SOCKET_PATH_BYTES;
}

/** Where an owner-only runtime folder is made when the state path is too long. */
export function runtimeBase(env: NodeJS.ProcessEnv = process.env): string {
  return env.XDG_RUNTIME_DIR || tmpdir();
}

export interface SocketPlace {
  path: string;
  /** The owner-only folder made for it, removed when the server closes. */
  ownDir?: string;
}

/** Picks the socket's address for a state dir; the caller holds the state lock. */
export async function chooseSocketPlace(stateDir: string, env: NodeJS.ProcessEnv = process.env): Promise<SocketPlace> {
  // Named pipes live in their own namespace, not in the file system: untested here, kept simple.
  if (isWindows) return { path: `\\\\.\\pipe\\teamdeck-engine-${randomBytes(12).toString('hex')}` };
  const inState = join(stateDir, SOCKET_NAME);
  if (fitsSocketAddress(inState)) return { path: inState };
  // mkdtemp makes the folder 0700 with an unguessable name, so no one else can have made it first.
  const ownDir = await mkdtemp(join(runtimeBase(env), RUNTIME_DIR_PREFIX));
  const path = join(ownDir, SOCKET_NAME);
  if (!fitsSocketAddress(path)) {
    // The error below is what the caller needs; an empty folder left in the runtime dir is harmless.
    await rmdir(ownDir).catch(() => {});
    throw new Error(`no socket address short enough: both ${inState} and ${path} are longer than ${MAX_SOCKET_PATH_BYTES} bytes`);
  }
  return { path, ownDir };
}

/** The info file, or a reason in words when there is none a client can use. */
export async function readEngineInfo(stateDir: string): Promise<EngineInfo> {
  let raw: string;
  try {
    raw = await readFile(infoPath(stateDir), 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new Error(code === 'ENOENT' ? 'its owner serves no engine socket' : `cannot read ${INFO_NAME}: ${code ?? (e as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error(`${INFO_NAME} is not JSON`);
  }
  const r = engineInfoSchema.safeParse(parsed);
  if (!r.success) throw new Error(`${INFO_NAME} is not an engine socket description`);
  return r.data;
}

/** Writes the info file 0600, atomically, so a client never reads half of it. */
export async function writeEngineInfo(stateDir: string, info: EngineInfo): Promise<void> {
  const tmp = `${infoPath(stateDir)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, JSON.stringify(info) + '\n', { mode: 0o600, flag: 'wx' });
  try {
    await rename(tmp, infoPath(stateDir));
  } catch (e) {
    // The rename's error is what the caller needs; a temp file left is never read as the info file.
    await unlink(tmp).catch(() => {});
    throw e;
  }
}

/** Removes the info file if it is still the one with this token (a later owner may have replaced it). */
export async function removeEngineInfo(stateDir: string, token: string): Promise<void> {
  // One we cannot read is not ours to remove.
  const now = await readEngineInfo(stateDir).catch(() => undefined);
  // Gone already is what we want; one left names a socket that no longer answers, which a
  // client is told, and the next owner writes its own over it.
  if (now?.token === token) await unlink(infoPath(stateDir)).catch(() => {});
}

/**
 * Clears what a crashed owner left: the socket file in the state dir, and the runtime folder
 * its info file names. Only the process holding the state lock calls this. A runtime folder is
 * removed only when it has our prefix and holds nothing but the socket (rmdir, not rm -r), so a
 * tampered info file cannot make us delete anything else.
 */
export async function clearStaleSocket(stateDir: string): Promise<void> {
  if (isWindows) return; // a dead process's named pipe disappears with it
  // No info file we can read: no runtime folder to clear.
  const old = await readEngineInfo(stateDir).catch(() => undefined);
  if (old && old.path !== join(stateDir, SOCKET_NAME) && basename(dirname(old.path)).startsWith(RUNTIME_DIR_PREFIX)) {
    // Best effort: what a crashed owner left outside the state dir never stands in the way of this engine's socket.
    await removeSocketFile(old.path).catch(() => {});
    // A folder holding anything else stays, as intended (see above).
    await rmdir(dirname(old.path)).catch(() => {});
  }
  await removeSocketFile(join(stateDir, SOCKET_NAME));
}

/** Unlinks `path` if it is a socket; anything else there is not ours to remove. */
export async function removeSocketFile(path: string): Promise<void> {
  // Nothing we can look at there: nothing to remove (a listen there says why it cannot).
  const st = await lstat(path).catch(() => undefined);
  if (!st) return;
  if (!st.isSocket()) throw new Error(`${path} exists and is not a socket; move it away so the engine can serve its socket`);
  await unlink(path).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
}
