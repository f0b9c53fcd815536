import { createHash } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';

/**
 * Keeps a byte-for-byte copy of a file that does not parse, before anything (Claude's next
 * write treats it as empty and overwrites it) can destroy it. Same bytes, same copy: idempotent.
 */
export async function preserveBytes(preserveDir: string, label: string, bytes: Uint8Array): Promise<string> {
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const safe = label.replace(/[^a-zA-Z0-9_.-]/g, '_').slice(0, 120);
  const path = join(preserveDir, `${safe}.${hash}.bad`);
  try {
    await stat(path);
    return path;
  } catch {
    // not kept yet
  }
  await mkdir(preserveDir, { recursive: true });
  await writeFileAtomic(path, bytes);
  return path;
}
