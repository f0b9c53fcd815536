import { open, readdir, readFile, rm, unlink, mkdir, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { StateDirBusyError } from './service-types.js';
import { pidAlive as alive } from '../pid-alive.js';

interface Owner {
  pid: number;
  host: string;
  startedAt: string;
}


/** A takeover whose token is older than this was abandoned by a process that died mid-way. */
const TAKEOVER_STALE_MS = 5_000;
/** An owner file that still has no readable owner after this long was left by a crashed start. */
const TORN_OWNER_MS = 1_000;

/**
 * One process owns a state dir at a time. The lock is a file naming its owner; a lock whose
 * owner process is gone (on this host) is taken over at once, so a restart after a crash
 * does not wait for a timeout. A takeover is itself exclusive: only the process that creates
 * the token named after that dead owner (`owner.lock.dead-*`, tidied by the next owner) may
 * remove the lock, and only if it still holds exactly the bytes judged dead; everyone else
 * looks again. (Renaming the dead lock away was not enough: a racer that had read the dead
 * owner could rename away the lock the winner had just created, and both would own the dir.)
 */
export async function acquireStateLock(stateDir: string): Promise<() => Promise<void>> {
  // Owner-only where Teamdeck makes it: it holds the journal, the settings and the engine socket.
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  const path = join(stateDir, 'owner.lock');
  const me: Owner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 60; attempt++) {
    try {
      const fh = await open(path, 'wx');
      await fh.writeFile(JSON.stringify(me));
      await fh.sync();
      await fh.close();
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        // Best effort: a lock left behind names its owner's pid, and is taken over once that process is gone.
        await unlink(path).catch(() => {});
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let raw: Buffer | undefined;
    let owner: Owner | undefined;
    try {
      raw = await readFile(path);
      owner = JSON.parse(raw.toString('utf8')) as Owner;
    } catch {
      owner = undefined; // being written right now, or left torn by a crash: look again shortly
    }
    if (owner && typeof owner.pid === 'number') {
      if (owner.host === me.host && !alive(owner.pid)) {
        await takeOver(path, raw!, `${owner.pid}`);
        continue;
      }
      if (owner.pid === process.pid && owner.host === me.host) {
        throw new StateDirBusyError(`state dir ${stateDir} is already open in this process`);
      }
      throw new StateDirBusyError(
        `state dir ${stateDir} is in use by another Teamdeck process (pid ${owner.pid} on ${owner.host}, since ${owner.startedAt}); stop it or pass a different --state-dir`,
      );
    }
    if (raw && (await ageMs(path)) > TORN_OWNER_MS) {
      // Nobody writes an owner file for this long: its creator died before writing it.
      await takeOver(path, raw, 'torn');
      continue;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new StateDirBusyError(`state dir ${stateDir} is locked (${path}) and its owner cannot be determined`);
}

async function ageMs(path: string): Promise<number> {
  try {
    return Date.now() - (await stat(path)).mtimeMs;
  } catch {
    return 0;
  }
}

/** Removes a dead owner's lock if this process wins the takeover of exactly those bytes. */
async function takeOver(path: string, dead: Buffer, label: string): Promise<void> {
  const token = `${path}.dead-${label}-${createHash('sha256').update(dead).digest('hex').slice(0, 16)}`;
  try {
    await writeFile(token, String(process.pid), { flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    // Another process is taking it over. If that process died doing so, the token goes stale
    // (and whoever removes it first wins; the others look again).
    if ((await ageMs(token)) > TAKEOVER_STALE_MS) await unlink(token).catch(() => {});
    else await new Promise((r) => setTimeout(r, 20));
    return;
  }
  // Only the token holder removes the lock, so it is still the dead one, or already gone.
  const now = await readFile(path).catch(() => undefined);
  // One that stays is found dead again on the next look.
  if (now?.equals(dead)) await unlink(path).catch(() => {});
}

/** Removes `.dead-*` lock leftovers from crashed owners. */
export async function tidyStateDir(stateDir: string): Promise<void> {
  for (const n of await readdir(stateDir).catch(() => [] as string[])) {
    if (n.startsWith('owner.lock.dead-')) await rm(join(stateDir, n), { force: true });
  }
}
