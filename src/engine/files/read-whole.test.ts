import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { readBounded, readWhole } from './read-whole.js';

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

describe('readBounded', () => {
  it('reads files of every size up to the bound byte for byte, and refuses one past it', async () => {
    for (const size of [0, 1, 4096, 100_000]) {
      const p = join(dir, `f${size}`);
      const bytes = randomBytes(size);
      await writeFile(p, bytes);
      expect((await readBounded(p, 100_000)).equals(bytes)).toBe(true);
    }
    await writeFile(join(dir, 'big'), randomBytes(100_001));
    await expect(readBounded(join(dir, 'big'), 100_000)).rejects.toThrow(/at most 100000/);
  });

  // /proc files say they are 0 bytes and hold more: a file that is longer than its stat said.
  it.skipIf(process.platform !== 'linux')('reads a file longer than its stat said, growing up to the bound, and refuses it past the bound', async () => {
    const whole = await readBounded('/proc/self/status', 1 << 20);
    expect(whole.length).toBeGreaterThan(100);
    expect(whole.toString('utf8')).toMatch(/^Name:/);
    await expect(readBounded('/proc/self/status', 100)).rejects.toThrow(/grew past 100 bytes/);
  });
});

