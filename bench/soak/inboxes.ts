// Reading back where the soak's messages ended up: the members' inboxes (read with retries, as
// a member may be rewriting one) and the log of what each member took.
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TakenLine } from '../soak-members.js';
import { TARGETS } from './team.js';

interface InboxEntry {
  from?: unknown;
  text?: unknown;
  read?: unknown;
}

async function readInbox(path: string): Promise<InboxEntry[]> {
  for (let attempt = 0; ; attempt++) {
    try {
      const v: unknown = JSON.parse(await readFile(path, 'utf8'));
      return Array.isArray(v) ? (v as InboxEntry[]) : [];
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      if (attempt >= 20) throw e;
      await sleep(25);
    }
  }
}

export async function unreadFromUser(inbox: (m: string) => string): Promise<number> {
  let n = 0;
  for (const m of TARGETS) n += (await readInbox(inbox(m))).filter((e) => e.from === 'user' && e.read !== true).length;
  return n;
}

/** Messages from the user still unread in each inbox (should be none once the members are done). */
export async function remainingUnread(inbox: (m: string) => string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const m of TARGETS) out.set(m, (await readInbox(inbox(m))).filter((e) => e.from === 'user' && e.read !== true).map((e) => String(e.text)));
  return out;
}

export async function readTaken(path: string): Promise<TakenLine[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as TakenLine)
    .filter((l) => l.from === 'user');
}
