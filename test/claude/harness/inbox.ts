// Writes an entry into a member's inbox the way Claude Code itself does
// (docs/claude-contract.md#inbox-writes), with proper-lockfile on the same lock path, so the test's
// write interoperates with Claude's readers and writers exactly as Teamdeck's must. Deliberately
// not Teamdeck's own writer (src/engine/claude/inbox-writer.ts): these tests pin what Claude does
// with a correct write; tests of Teamdeck's writer against Claude use that one on the same harness.
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';

export interface InboxEntry {
  from: string;
  text: string;
  summary?: string;
  timestamp: string;
  msgV: number;
  msg_id: string;
  type: string;
  read: boolean;
}

/** An entry in Claude's key order, optional fields omitted (never null). */
export function inboxEntry(from: string, text: string, summary?: string): InboxEntry {
  return {
    from,
    text,
    ...(summary !== undefined ? { summary } : {}),
    timestamp: new Date().toISOString(),
    msgV: 1,
    msg_id: randomUUID(),
    type: 'message',
    read: false,
  };
}

/**
 * Appends `entry` to `<teamDir>/inboxes/<member>.json`: only while the team's config.json
 * exists; create with `wx`; lock dir `<inbox>.lock`; re-read, push, temp file + rename; release.
 */
export async function appendInboxEntry(teamDir: string, member: string, entry: InboxEntry): Promise<InboxEntry> {
  if (!existsSync(join(teamDir, 'config.json'))) throw new Error(`no config.json in ${teamDir}: the team is gone, writing would make a ghost`);
  const inboxes = join(teamDir, 'inboxes');
  const inbox = join(inboxes, `${member.replace(/[^a-zA-Z0-9_-]/g, '-')}.json`);
  await mkdir(inboxes, { recursive: true });
  let created = false;
  try {
    await writeFile(inbox, '[]', { flag: 'wx' });
    created = true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const release = await lockfile.lock(inbox, {
    lockfilePath: `${inbox}.lock`,
    stale: 10_000,
    retries: { retries: 10, minTimeout: 5, maxTimeout: 100 },
    realpath: false,
  });
  try {
    let entries: unknown[] = [];
    try {
      const parsed = JSON.parse(await readFile(inbox, 'utf8'));
      if (Array.isArray(parsed)) entries = parsed;
    } catch {
      // Claude reads unparseable text as empty and overwrites it: so does this writer.
    }
    entries.push(entry);
    const tmp = `${inbox}.tmp.${randomBytes(4).toString('hex')}`;
    await writeFile(tmp, JSON.stringify(entries, null, 2), { flag: 'wx' });
    await rename(tmp, inbox);
  } finally {
    await release().catch(() => {});
  }
  if (!existsSync(join(teamDir, 'config.json')) && created) await rm(inbox, { force: true });
  return entry;
}
