import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, symlink, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { childrenPerTest } from '../../../test/helpers/child.js';
import { REPO_ROOT, useTempDirs } from '../../../test/helpers/tmp.js';
import { folderSyncsSettled } from '../files/atomic-write.js';
import { inboxReleasesSettled, readLockedInbox } from './inbox-lock.js';
import { appendToInbox, claudeLockOptions, ensureInbox, userInboxEntry } from './inbox-writer.js';

const tempDir = useTempDirs();
const TS = '2026-02-17T15:30:00.000Z';
const HOLD_LOCK = join(REPO_ROOT, 'test', 'helpers', 'hold-lock.ts');

async function inboxIn(dir: string): Promise<string> {
  await mkdir(join(dir, 'team', 'inboxes'), { recursive: true });
  return join(dir, 'team', 'inboxes', 'ann.json');
}

describe('readLockedInbox', () => {
  it('reads a small inbox (synchronously) and one over 1 MiB (through the pool) byte for byte', async () => {
    const dir = await tempDir();
    for (const size of [0, 10, 300_000, 3_000_000]) {
      const path = join(dir, `i${size}.json`);
      const bytes = Buffer.alloc(size, 0x61);
      await writeFile(path, bytes);
      const r = await readLockedInbox(path);
      expect(r.bytes.equals(bytes)).toBe(true);
      r.letGo();
    }
  });

  it('refuses a FIFO swapped in for the inbox without waiting for a writer, and never follows a link', async () => {
    const dir = await tempDir();
    const fifo = join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    await expect(readLockedInbox(fifo)).rejects.toThrow(/not a regular file/);
    const target = join(dir, 'outside.json');
    await writeFile(target, '["secret"]');
    const link = join(dir, 'link.json');
    await symlink(target, link);
    await expect(readLockedInbox(link)).rejects.toMatchObject({ code: 'ELOOP' });
  });
});

describe('a write that answers before its tail (afterWrite: background)', () => {
  const spawn = childrenPerTest();

  it('lands every message once and in order when each write follows the last at once, and leaves no lock behind', async () => {
    const path = await inboxIn(await tempDir());
    await ensureInbox(path);
    for (let i = 0; i < 30; i++) {
      const r = await appendToInbox(path, userInboxEntry(`id-${i}`, `m${i}`, TS), { afterWrite: 'background' });
      expect(r).toEqual({ duplicate: false, count: i + 1 });
    }
    await inboxReleasesSettled();
    await folderSyncsSettled();
    expect(existsSync(claudeLockOptions(path).lockfilePath!)).toBe(false);
    const entries = JSON.parse(await readFile(path, 'utf8')) as Array<{ text: string }>;
    expect(entries.map((e) => e.text)).toEqual(Array.from({ length: 30 }, (_, i) => `m${i}`));
  });

  it('waits for a lock another process holds (the synchronous try fails over to Claude\'s retries)', async () => {
    const path = await inboxIn(await tempDir());
    await ensureInbox(path);
    const holder = spawn(HOLD_LOCK, [path, 'from the holder']);
    await holder.waitForLine(/^locked$/);
    const append = appendToInbox(path, userInboxEntry('id-1', 'mine', TS), { afterWrite: 'background', lockOptions: { retries: { retries: 100, minTimeout: 5, maxTimeout: 100 } } });
    await new Promise((r) => setTimeout(r, 100));
    expect(await readFile(path, 'utf8')).toBe('[]');
    holder.send('release');
    expect(await append).toMatchObject({ duplicate: false });
    await inboxReleasesSettled();
    const entries = JSON.parse(await readFile(path, 'utf8')) as Array<{ text: string }>;
    expect(entries.map((e) => e.text)).toEqual(['from the holder', 'mine']);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});
