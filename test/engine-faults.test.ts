// Faults at the OS edge, caused for real: a folder the engine may not write (EACCES) and a
// full file system (ENOSPC). Sends answer `queued` with the reason, nothing lands while the
// fault lasts, and once it is cleared every message arrives once, in order.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { appendFile, chmod, chown, mkdir, mkdtemp, readdir, rm, rmdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TeamService } from '../src/engine/service/team-service.js';
import type { SendResult } from '../src/shared/types.js';
import { tempTeams, writeTeam, type TempTeams } from './helpers/team-fixture.js';
import { has, runs, spawnHelper, until, type Proc } from './helpers/engine-proc.js';
import { readInboxMessages } from './helpers/engine-check.js';
import type { SentLine } from './helpers/engine-runner.js';

const TEAM = 'alpha';
const NOBODY = 65_534;
const isRoot = process.getuid?.() === 0;
const isWindows = process.platform === 'win32';

// Decided at load time. As root, permission bits do not stop writes, so the engine runs in a
// child process with an unprivileged uid; that needs setpriv, and the repository must be
// readable (and runnable through tsx) by that uid.
const DROP = ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'];
const canDropPrivileges = isRoot && runs(DROP[0]!, [...DROP.slice(1), process.execPath, '--import', 'tsx', '-e', '0']);
const eaccesUnavailable = isWindows
  ? 'Windows folders do not take POSIX permission bits'
  : isRoot && !canDropPrivileges
    ? `running as root and cannot drop privileges (setpriv to uid ${NOBODY} with node and tsx does not run)`
    : '';

// A small tmpfs needs root and a kernel/container that allows mounting it.
function probeTmpfs(): string {
  if (!isRoot || process.platform !== 'linux') return 'mounting a tmpfs needs root on Linux';
  const dir = join(tmpdir(), `teamdeck-tmpfs-probe-${process.pid}`);
  try {
    spawnSync('mkdir', ['-p', dir]);
    const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', dir], { encoding: 'utf8' });
    if (m.status !== 0) return `mount -t tmpfs failed: ${(m.stderr || m.error?.message || '').trim()}`;
    spawnSync('umount', [dir]);
    return '';
  } catch (e) {
    return `mount -t tmpfs failed: ${(e as Error).message}`;
  } finally {
    spawnSync('rmdir', [dir]);
  }
}
const enospcUnavailable = probeTmpfs();
if (eaccesUnavailable) console.log(`EACCES fault test skipped: ${eaccesUnavailable}`);
if (enospcUnavailable) console.log(`ENOSPC fault test skipped: ${enospcUnavailable}`);

const procs: Proc[] = [];
afterEach(() => {
  for (const p of procs.splice(0)) p.kill();
});

function expectOnceInOrder(entries: Array<{ id: string }>, ids: string[]): void {
  expect(entries.map((e) => e.id)).toEqual(ids);
  expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
}

describe('EACCES: the inboxes folder is not writable by the engine', () => {
  let t: TempTeams;
  beforeEach(async () => {
    t = await tempTeams('teamdeck-eacces-');
  });
  afterEach(async () => {
    await chmod(join(t.root, TEAM, 'inboxes'), 0o755).catch(() => {});
    await t.cleanup();
  });

  it.skipIf(eaccesUnavailable !== '')(
    `queues with the EACCES reason and delivers once, in order, after the permission is restored${eaccesUnavailable ? ` (skipped: ${eaccesUnavailable})` : ''}`,
    async () => {
      await writeTeam(t.root, TEAM, ['ann', 'bob'], { inboxes: { ann: [], bob: [] } });
      await mkdir(t.stateDir, { recursive: true });
      if (isRoot) await chownTree(t.base, NOBODY);
      const inboxes = join(t.root, TEAM, 'inboxes');
      const engine = spawnHelper('engine-runner.ts', [JSON.stringify({ teamsRoot: t.root, stateDir: t.stateDir, backoff: { initialMs: 30, maxMs: 150 } })], isRoot ? DROP : []);
      procs.push(engine);
      await engine.waitFor(has('ready'));
      const send = async (to: string, text: string): Promise<SentLine> => {
        const tag = text;
        const line = await engine.ask<{ sent: SentLine }>({ cmd: 'send', team: TEAM, to, text, tag }, (l) => has('sent')(l) && (l as { sent: SentLine }).sent.tag === tag);
        return line.sent;
      };

      const before = await send('ann', 'before the fault');
      expect(before.status).toBe('accepted');
      // The engine really runs without root: its journal belongs to the unprivileged uid.
      if (isRoot) expect((await stat(join(t.stateDir, 'journal', TEAM))).uid).toBe(NOBODY);

      await chmod(inboxes, 0o555);
      const during: SentLine[] = [];
      for (const [to, text] of [['ann', 'one'], ['bob', 'two'], ['ann', 'three'], ['ann', 'four']] as const) during.push(await send(to, text));
      for (const r of during) {
        expect(r.status, JSON.stringify(r)).toBe('queued');
        expect(r.reason).toMatch(/EACCES/);
      }
      // Nothing landed and nothing was left behind.
      expect((await readInboxMessages(join(inboxes, 'ann.json'))).map((m) => m.text)).toEqual(['before the fault']);
      expect(await readInboxMessages(join(inboxes, 'bob.json'))).toEqual([]);

      await chmod(inboxes, 0o755);
      await until(async () => (await engine.ask<{ queued: number }>({ cmd: 'queued' }, has('queued'))).queued === 0);
      const after = await send('ann', 'after the fault');
      expect(after.status).toBe('accepted');
      await engine.ask({ cmd: 'stop' }, has('stopped'));

      expectOnceInOrder(await readInboxMessages(join(inboxes, 'ann.json')), [before.id!, during[0]!.id!, during[2]!.id!, during[3]!.id!, after.id!]);
      expectOnceInOrder(await readInboxMessages(join(inboxes, 'bob.json')), [during[1]!.id!]);
      // Every queued message was later announced accepted.
      const accepted = engine.lines.filter((l) => has('event')(l) && (l as { event: { status: string } }).event.status === 'accepted').map((l) => (l as { event: { id: string } }).event.id);
      for (const r of during) expect(accepted).toContain(r.id);
      expect((await readdir(inboxes)).filter((n) => n.includes('.tmp.') || n.endsWith('.lock'))).toEqual([]);
    },
  );
});

describe('ENOSPC: the teams root is on a full file system', () => {
  let base: string;
  let root: string;
  let mounted = false;
  let svc: TeamService | undefined;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'teamdeck-enospc-'));
    root = join(base, 'teams');
    await mkdir(root);
  });
  afterEach(async () => {
    await svc?.stop();
    svc = undefined;
    if (mounted) spawnSync('umount', [root]);
    mounted = false;
    await rmdir(root).catch(() => {});
    await rm(base, { recursive: true, force: true });
  });

  it.skipIf(enospcUnavailable !== '')(
    `queues with the ENOSPC reason and delivers once, in order, after space is freed${enospcUnavailable ? ` (skipped: ${enospcUnavailable})` : ''}`,
    async () => {
      const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', root], { encoding: 'utf8' });
      expect(m.status, m.stderr).toBe(0);
      mounted = true;
      await writeTeam(root, TEAM, ['ann', 'bob'], { inboxes: { ann: [], bob: [] } });
      const inboxes = join(root, TEAM, 'inboxes');
      // The journal lives elsewhere (the state dir is not on the full disk).
      svc = new TeamService({ teamsRoot: root, stateDir: join(base, 'state'), watch: false, backoff: { initialMs: 30, maxMs: 150 } });
      await svc.start();
      const first = await svc.send({ team: TEAM, to: 'ann', text: 'before the disk filled' });
      expect(first.status).toBe('accepted');

      const filler = join(root, 'filler');
      await fill(filler);

      const during: SendResult[] = [];
      for (const [to, text] of [['ann', 'one'], ['bob', 'two'], ['ann', 'three'], ['ann', 'four']] as const) during.push(await svc.send({ team: TEAM, to, text }));
      for (const r of during) {
        expect(r.status, JSON.stringify(r)).toBe('queued');
        expect(r.status === 'queued' && r.reason).toMatch(/ENOSPC/);
      }
      expect((await readInboxMessages(join(inboxes, 'ann.json'))).map((x) => x.text)).toEqual(['before the disk filled']);
      expect(await readInboxMessages(join(inboxes, 'bob.json'))).toEqual([]);
      expect(svc.queuedCount()).toBe(4);

      await rm(filler);
      await until(() => svc!.queuedCount() === 0);
      const last = await svc.send({ team: TEAM, to: 'ann', text: 'after' });
      expect(last.status).toBe('accepted');
      expectOnceInOrder(await readInboxMessages(join(inboxes, 'ann.json')), [first.id, during[0]!.id, during[2]!.id, during[3]!.id, last.id]);
      expectOnceInOrder(await readInboxMessages(join(inboxes, 'bob.json')), [during[1]!.id]);
      expect((await readdir(inboxes)).filter((n) => n.includes('.tmp.') || n.endsWith('.lock'))).toEqual([]);

      // A restart finds nothing left to deliver and writes nothing again.
      await svc.stop();
      svc = new TeamService({ teamsRoot: root, stateDir: join(base, 'state'), watch: false });
      await svc.start();
      expect(svc.queuedCount()).toBe(0);
      expect((await readInboxMessages(join(inboxes, 'ann.json'))).length).toBe(5);
      expect((await svc.thread(TEAM, 'ann')).map((x) => x.status)).toEqual(['accepted', 'accepted', 'accepted', 'accepted', 'accepted']);
    },
  );
});

/** Fills the file system holding `file` until a write fails with ENOSPC. */
async function fill(file: string): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  for (let i = 0; i < 10_000; i++) {
    try {
      await appendFile(file, chunk);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOSPC') return;
      throw e;
    }
  }
  throw new Error('the file system never filled up');
}

async function chownTree(dir: string, uid: number): Promise<void> {
  await chown(dir, uid, uid);
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) await chownTree(p, uid);
    else await chown(p, uid, uid);
  }
}
