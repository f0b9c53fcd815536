// Real temporary folders for tests that touch the file system: created under the OS temp
// folder, removed after each test, never mocked.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach } from 'vitest';

export async function makeTempDir(prefix = 'teamdeck-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** A fresh temp dir per test (call inside a describe or at top level), removed afterwards. */
export function useTempDirs(): () => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });
  return async () => {
    const d = await makeTempDir();
    made.push(d);
    return d;
  };
}

/** The repository root, for spawning helpers with the project's own dependencies. */
export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

/** The captured Claude Code files, committed in the repository. */
export const CAPTURED_DIR = join(REPO_ROOT, 'test', 'fixtures', 'claude-captured');

/** Copies a fixture tree into `dest` so a test can never modify the committed files. */
export async function copyFixture(src: string, dest: string): Promise<string> {
  await cp(src, dest, { recursive: true });
  return dest;
}
