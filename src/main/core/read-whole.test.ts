import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { readWhole } from './read-whole.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'teamdeck-read-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readWhole', () => {
  it('reads exactly what readFile reads, empty and large', async () => {
    for (const bytes of [Buffer.alloc(0), Buffer.from('[]'), randomBytes(3_000_001)]) {
      const p = join(dir, 'f');
      await writeFile(p, bytes);
      expect((await readWhole(p)).equals(await readFile(p))).toBe(true);
    }
  });

  it('fails like readFile for a missing file', async () => {
    await expect(readWhole(join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
