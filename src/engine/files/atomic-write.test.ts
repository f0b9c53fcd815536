import { watch } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../../test/helpers/tmp.js';
import { fsyncDir, writeFileAtomic } from './atomic-write.js';

const tempDir = useTempDirs();

describe('writeFileAtomic', () => {
  it('creates a file and leaves no temp file behind', async () => {
    const dir = await tempDir();
    await writeFileAtomic(join(dir, 'a.json'), '[1]');
    expect(await readFile(join(dir, 'a.json'), 'utf8')).toBe('[1]');
    expect(await readdir(dir)).toEqual(['a.json']);
  });

  it('replaces an existing file whole, bytes included', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'a.json'), 'x'.repeat(10_000));
    const bytes = Buffer.from([0, 1, 2, 255]);
    await writeFileAtomic(join(dir, 'a.json'), bytes, { fsync: false });
    expect((await readFile(join(dir, 'a.json'))).equals(bytes)).toBe(true);
    expect(await readdir(dir)).toEqual(['a.json']);
  });

  it('fails without a trace when the folder is missing', async () => {
    const dir = await tempDir();
    await expect(writeFileAtomic(join(dir, 'missing', 'a.json'), '[]')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readdir(dir)).toEqual([]);
  });

  it('removes its temp file when the rename fails', async () => {
    const dir = await tempDir();
    // A non-empty folder at the target makes rename fail after the temp file was written.
    await mkdir(join(dir, 'target'));
    await writeFile(join(dir, 'target', 'child'), '');
    await expect(writeFileAtomic(join(dir, 'target'), 'data')).rejects.toBeTruthy();
    expect((await readdir(dir)).filter((n) => n.includes('.tmp.'))).toEqual([]);
  });

  it('names its temp file <file>.tmp.<8 hex>, the pattern watchers ignore', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'target'));
    await writeFile(join(dir, 'target', 'child'), '');
    const seen: string[] = [];
    const w = watch(dir, (_e, name) => name && seen.push(String(name)));
    await writeFileAtomic(join(dir, 'target'), 'data').catch(() => {});
    await new Promise((r) => setTimeout(r, 50));
    w.close();
    const tmps = seen.filter((n) => n.includes('.tmp.'));
    expect(tmps.length).toBeGreaterThan(0);
    for (const n of tmps) expect(n).toMatch(/^target\.tmp\.[0-9a-f]{8}$/);
  });
});

describe('fsyncDir', () => {
  it('does not throw on a folder or on a missing path', async () => {
    const dir = await tempDir();
    await expect(fsyncDir(dir)).resolves.toBeUndefined();
    await expect(fsyncDir(join(dir, 'absent'))).resolves.toBeUndefined();
  });
});
