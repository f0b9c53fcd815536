import { open, readFile, rename, unlink, mkdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { StateDirBusyError } from './service-types.js';

interface Owner {
  pid: number;
  host: string;
  startedAt: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One process owns a state dir at a time. The lock is a file naming its owner; a lock whose
 * owner process is gone (on this host) is taken over at once, so a restart after a crash
 * does not wait for a timeout. A takeover renames the dead lock away first: only one of two
 * racing starters can win that rename.
 */
export async function acquireStateLock(stateDir: string): Promise<() => Promise<void>> {
  await mkdir(stateDir, { recursive: true });
  const path = join(stateDir, 'owner.lock');
  const me: Owner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fh = await open(path, 'wx');
      await fh.writeFile(JSON.stringify(me));
      await fh.sync();
      await fh.close();
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        await unlink(path).catch(() => {});
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let owner: Owner | undefined;
    try {
      owner = JSON.parse(await readFile(path, 'utf8')) as Owner;
    } catch {
      owner = undefined; // being written right now, or damaged: look again shortly
    }
    if (owner && typeof owner.pid === 'number') {
      if (owner.host === me.host && !alive(owner.pid)) {
        await rename(path, `${path}.dead-${randomBytes(4).toString('hex')}`).catch(() => {});
        continue;
      }
      if (owner.pid === process.pid && owner.host === me.host) {
        throw new StateDirBusyError(`state dir ${stateDir} is already open in this process`);
      }
      throw new StateDirBusyError(
        `state dir ${stateDir} is in use by another Teamdeck process (pid ${owner.pid} on ${owner.host}, since ${owner.startedAt}); stop it or pass a different --state-dir`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new StateDirBusyError(`state dir ${stateDir} is locked (${path}) and its owner cannot be determined`);
}
