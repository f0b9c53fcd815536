// An independent re-implementation of how Claude Code itself writes and consumes an inbox
// (claude-teams-format.md, "How Claude Code writes/reads an inbox"). The simulator and the
// interop tests use it as "the other side"; it deliberately shares no code with the core's
// writer, so the two are checked against each other rather than against themselves.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import lockfile from 'proper-lockfile';

export interface ClaudeMessage {
  from: string;
  text: string;
  timestamp: string;
  read: boolean;
  summary?: string;
  color?: string;
  [k: string]: unknown;
}

export type ConsumeMode = 'prune' | 'flag';

/** proper-lockfile as Claude Code uses it, on inboxes and on config.json alike. */
export function claudeLock(path: string): Promise<() => Promise<void>> {
  return lockfile.lock(path, {
    lockfilePath: `${path}.lock`,
    stale: 10_000,
    retries: { retries: 10, minTimeout: 5, maxTimeout: 100 },
    realpath: false,
  });
}

async function withClaudeLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  await mkdir(dirname(path), { recursive: true });
  try {
    await writeFile(path, '[]', { flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const release = await claudeLock(path);
  try {
    return await fn();
  } finally {
    await release();
  }
}

/** Claude treats a file that does not parse as an empty inbox. */
async function readLikeClaude(path: string): Promise<ClaudeMessage[]> {
  try {
    const v: unknown = JSON.parse(await readFile(path, 'utf8'));
    return Array.isArray(v) ? (v as ClaudeMessage[]) : [];
  } catch {
    return [];
  }
}

/** Claude's current writer: temp file + rename, no fsync. */
async function writeLikeClaude(path: string, messages: ClaudeMessage[]): Promise<void> {
  const tmp = `${path}.tmp.${randomBytes(4).toString('hex')}`;
  await writeFile(tmp, JSON.stringify(messages, null, 2));
  await rename(tmp, path);
}

export async function claudeAppend(path: string, message: ClaudeMessage): Promise<void> {
  await withClaudeLock(path, async () => {
    const all = await readLikeClaude(path);
    all.push(message);
    await writeLikeClaude(path, all);
  });
}

/** Takes the unread messages; prune removes every read message, flag marks them read in place. */
export async function claudeConsume(path: string, mode: ConsumeMode): Promise<ClaudeMessage[]> {
  return withClaudeLock(path, async () => {
    const all = await readLikeClaude(path);
    const unread = all.filter((m) => !m.read);
    if (unread.length === 0 && (mode === 'flag' || all.length === 0)) return [];
    const next = mode === 'prune' ? [] : all.map((m) => ({ ...m, read: true }));
    await writeLikeClaude(path, next);
    return unread;
  });
}
