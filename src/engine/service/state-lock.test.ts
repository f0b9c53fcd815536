import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readdir, readFile, writeFile, mkdir, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { acquireStateLock } from './state-lock.js';
import { StateDirBusyError } from './service-types.js';
import { TeamService } from './team-service.js';
import { tempTeams, type TempTeams } from '../../../test/helpers/team-fixture.js';
import { has, spawnHelper, type Proc } from '../../../test/helpers/engine-proc.js';

let t: TempTeams;
const procs: Proc[] = [];
const releases: Array<() => Promise<void>> = [];
beforeEach(async () => {
  t = await tempTeams('teamdeck-statelock-');
});
afterEach(async () => {
  for (const r of releases.splice(0)) await r();
  for (const p of procs.splice(0)) p.kill();
  await t.cleanup();
});

/** Another process that owns (or tries to own) the state dir. */
async function otherProcess(): Promise<Proc & { result: Promise<{ owned?: number; busy?: string; name?: string }> }> {
  const p = spawnHelper('engine-state-owner.ts', [t.stateDir]);
  procs.push(p);
  await p.waitFor(has('waiting'));
  return Object.assign(p, { result: p.ask<{ owned?: number; busy?: string; name?: string }>('go', (l) => has('owned')(l) || has('busy')(l)) });
}

describe('state dir lock', () => {
  it('makes a missing state dir owner-only (it will hold the journal and the engine socket)', async () => {
    const dir = join(t.stateDir, 'fresh', 'state');
    const release = await acquireStateLock(dir);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    await release();
  });

  it('refuses a second process with StateDirBusyError naming the owner pid', async () => {
    const owner = await otherProcess();
    expect((await owner.result).owned).toBe(owner.pid);

    const err = await acquireStateLock(t.stateDir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StateDirBusyError);
    expect((err as Error).message).toContain(`pid ${owner.pid}`);
    // The engine's start refuses the same way, and leaves the owner's lock alone.
    const svc = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false });
    await expect(svc.start()).rejects.toThrow(new RegExp(`pid ${owner.pid}\\b`));
    expect(JSON.parse(await readFile(join(t.stateDir, 'owner.lock'), 'utf8'))).toMatchObject({ pid: owner.pid });

    // And the other way round: while this process owns it, another process is refused.
    owner.send('release');
    await owner.waitFor(has('released'));
    releases.push(await acquireStateLock(t.stateDir));
    const second = await otherProcess();
    const r = await second.result;
    expect(r.name).toBe('StateDirBusyError');
    expect(r.busy).toContain(`pid ${process.pid}`);
  });

  it('takes over the lock of a SIGKILLed owner at once', async () => {
    const owner = await otherProcess();
    expect((await owner.result).owned).toBe(owner.pid);
    owner.kill('SIGKILL');
    await owner.exited;

    const started = performance.now();
    const svc = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false });
    await svc.start();
    const took = performance.now() - started;
    try {
      expect(took).toBeLessThan(1_000);
      expect(JSON.parse(await readFile(join(t.stateDir, 'owner.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
      // The dead owner's lock was moved aside and tidied away.
      expect((await readdir(t.stateDir)).filter((n) => n.startsWith('owner.lock'))).toEqual(['owner.lock']);
    } finally {
      await svc.stop();
    }
    // Released on stop: the next start (another process) owns it.
    const next = await otherProcess();
    expect((await next.result).owned).toBe(next.pid);
  });

  it('takes over a lock file left empty by an owner that died while creating it', async () => {
    // The state a crash between creating owner.lock and writing its content leaves behind.
    await mkdir(t.stateDir, { recursive: true });
    await writeFile(join(t.stateDir, 'owner.lock'), '');
    const old = new Date(Date.now() - 60_000);
    await utimes(join(t.stateDir, 'owner.lock'), old, old);
    const release = await acquireStateLock(t.stateDir);
    releases.push(release);
    expect(JSON.parse(await readFile(join(t.stateDir, 'owner.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('waits for an owner file that is being written instead of taking it over', async () => {
    await mkdir(t.stateDir, { recursive: true });
    await writeFile(join(t.stateDir, 'owner.lock'), '');
    // A live process fills it in a moment later.
    setTimeout(() => void writeFile(join(t.stateDir, 'owner.lock'), JSON.stringify({ pid: process.ppid, host: hostname(), startedAt: 'now' })), 150);
    const err = await acquireStateLock(t.stateDir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StateDirBusyError);
    expect((err as Error).message).toContain(`pid ${process.ppid}`);
  });

  it('lets exactly one of several processes racing on a dead owner’s lock win, every time', async () => {
    // Four processes, started ahead, try to take over the same dead owner's lock at the same
    // moment; many rounds, because the race is a matter of a fraction of a millisecond.
    const racers = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const p = spawnHelper('engine-state-owner.ts');
        procs.push(p);
        await p.waitFor(has('waiting'));
        return p;
      }),
    );
    const doubleOwned: string[] = [];
    for (let round = 0; round < 25; round++) {
      const dir = join(t.base, `round-${round}`);
      await mkdir(dir);
      // The lock of an owner that has died (a pid that cannot be running).
      await writeFile(join(dir, 'owner.lock'), JSON.stringify({ pid: 2 ** 22 + 1 + round, host: hostname(), startedAt: new Date().toISOString() }));
      const results = await Promise.all(racers.map((p) => p.ask<{ owned?: number; busy?: string }>(`go ${dir}`, (l) => has('owned')(l) || has('busy')(l))));
      const owners = results.filter((r) => r.owned !== undefined);
      if (owners.length !== 1) doubleOwned.push(`round ${round}: ${owners.length} owners`);
      for (const r of results) if (r.busy !== undefined) expect(r.busy).toMatch(/in use by another Teamdeck process \(pid \d+/);
      await Promise.all(racers.map((p) => p.ask('release', has('released'))));
    }
    expect(doubleOwned).toEqual([]);
  });
});
