// Reading back what the other side saw: the consumers' logs and what is still in the inboxes,
// and counting each sent message's copies across both.
import { readFile } from 'node:fs/promises';
import type { ConsumedLine } from './engine-consumer.js';

export interface Seen {
  id: string;
  text: string;
  /** Where this copy was found. */
  where: 'consumed' | 'inbox';
}

export async function readConsumed(log: string): Promise<ConsumedLine[]> {
  let text: string;
  try {
    text = await readFile(log, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as ConsumedLine);
}

/** The messages in an inbox file, in file order; a missing file is empty. Throws on a file that does not parse. */
export async function readInboxMessages(path: string): Promise<Array<{ id: string; text: string; from: string }>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const arr = JSON.parse(text) as Array<Record<string, unknown>>;
  return arr.map((m) => ({ id: String(m.messageId ?? m.msg_id), text: String(m.text), from: String(m.from) }));
}

/** Everything the target got, in arrival order: first what its consumer took, then what is still in the file. */
export async function arrivals(inbox: string, consumed: ConsumedLine[], inboxName: string): Promise<Seen[]> {
  const out: Seen[] = consumed.filter((c) => c.inbox === inboxName).map((c) => ({ id: c.id, text: c.text, where: 'consumed' as const }));
  for (const m of await readInboxMessages(inbox)) out.push({ id: m.id, text: m.text, where: 'inbox' });
  return out;
}

/** Copies of each id. */
export function copies(seen: Seen[]): Map<string, number> {
  const n = new Map<string, number>();
  for (const s of seen) n.set(s.id, (n.get(s.id) ?? 0) + 1);
  return n;
}

/** The order of first arrivals (a re-delivered copy does not move a message). */
export function firstArrivalOrder(seen: Seen[]): string[] {
  const done = new Set<string>();
  const out: string[] = [];
  for (const s of seen) {
    if (done.has(s.id)) continue;
    done.add(s.id);
    out.push(s.id);
  }
  return out;
}
