// Where each of a team's transcripts was read to, kept in the state folder so that a restart
// reads only the bytes appended since (docs/claude-contract.md#record). A file replaced since
// (another inode, or shorter) is read from its start again; what it held is matched by id.
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../files/atomic-write.js';

/** In a team's journal folder. */
export const TRANSCRIPT_OFFSETS_FILE = 'transcript-offsets.json';

export type Offsets = Record<string, { offset: number; ino: number }>;

export async function readOffsets(file: string): Promise<Offsets> {
  try {
    const v = JSON.parse(await readFile(file, 'utf8')) as { v?: unknown; files?: unknown };
    if (v.v !== 1 || !v.files || typeof v.files !== 'object') return {};
    const out: Offsets = {};
    for (const [path, at] of Object.entries(v.files as Record<string, { offset?: unknown; ino?: unknown }>)) {
      if (typeof at?.offset === 'number' && typeof at.ino === 'number' && at.offset >= 0) out[path] = { offset: at.offset, ino: at.ino };
    }
    return out;
  } catch {
    // None kept (or unreadable): every transcript is read from its start, and matched by id.
    return {};
  }
}

export async function writeOffsets(file: string, offsets: Offsets): Promise<void> {
  await writeFileAtomic(file, JSON.stringify({ v: 1, files: offsets }) + '\n');
}
