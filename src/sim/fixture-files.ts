// Writing a fixture team's folder the way Claude writes it: config.json and one inbox per owner,
// pretty-printed with 2 spaces, each through a temp file renamed over the target.
import { lstat, mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inboxFileStem } from '../engine/claude/paths.js';
import type { Rng } from './prng.js';
import { USER } from './fixture-team-plan.js';
import type { InboxEntry } from './fixture-inboxes.js';

export interface GenInbox {
  owner: string;
  messages: number;
  bytes: number;
}

/** Writes config.json, then each owner's inbox in `byOwner`'s order; returns what each inbox holds. */
export async function writeTeamFolder(dir: string, config: Record<string, unknown>, byOwner: Map<string, InboxEntry[]>, rng: Rng): Promise<GenInbox[]> {
  await mkdir(join(dir, 'inboxes'), { recursive: true });
  await writeLikeClaude(join(dir, 'config.json'), JSON.stringify(config, null, 2), rng);
  const inboxes: GenInbox[] = [];
  for (const [owner, list] of byOwner) {
    // An inbox exists once someone wrote to it; Claude creates the lead's and each member's early.
    if (list.length === 0 && owner === USER) continue;
    const text = JSON.stringify(
      list.map((e) => e.msg),
      null,
      2,
    );
    await writeLikeClaude(join(dir, 'inboxes', `${inboxFileStem(owner)}.json`), text, rng);
    inboxes.push({ owner, messages: list.length, bytes: Buffer.byteLength(text) });
  }
  return inboxes;
}

/** Claude's current writer: the whole file to `<file>.tmp.<8 hex>`, renamed over the target. */
async function writeLikeClaude(path: string, text: string, rng: Rng): Promise<void> {
  const tmp = `${path}.tmp.${rng.int(0, 0xffffffff).toString(16).padStart(8, '0')}`;
  await writeFile(tmp, text);
  await rename(tmp, path);
}

/** Whether anything is at `p`, a dangling link included. */
export async function exists(p: string): Promise<boolean> {
  return lstat(p).then(
    () => true,
    () => false,
  );
}
