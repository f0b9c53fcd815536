import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../../test/helpers/tmp.js';
import { preserveBytes } from './preserve.js';

const tempDir = useTempDirs();

describe('preserveBytes', () => {
  it('keeps a byte-identical copy, creating the folder', async () => {
    const dir = join(await tempDir(), 'preserved', 'deep');
    const bytes = Buffer.from([0x5b, 0x7b, 0xff, 0xfe, 0x00, 0x0a]);
    const path = await preserveBytes(dir, 'my-team/inboxes/team-lead.json', bytes);
    expect((await readFile(path)).equals(bytes)).toBe(true);
    expect(path.startsWith(dir)).toBe(true);
  });

  it('keeps one copy per distinct content', async () => {
    const dir = await tempDir();
    const a1 = await preserveBytes(dir, 'x.json', Buffer.from('[1'));
    const a2 = await preserveBytes(dir, 'x.json', Buffer.from('[1'));
    const b = await preserveBytes(dir, 'x.json', Buffer.from('[2'));
    expect(a2).toBe(a1);
    expect(b).not.toBe(a1);
    expect((await readdir(dir)).sort()).toEqual([basename(a1), basename(b)].sort());
  });

  it('flattens the label into one safe file name inside the folder', async () => {
    const dir = await tempDir();
    const path = await preserveBytes(dir, '../../etc/passwd', Buffer.from('x'));
    expect(join(dir, basename(path))).toBe(path);
    expect(basename(path)).toMatch(/^[a-zA-Z0-9_.-]+\.[0-9a-f]{16}\.bad$/);
  });
});
