// Pane teammates' transcripts (docs/claude-contract.md#transcripts): a teammate Claude runs in a
// terminal pane of its own (teammate mode `tmux`) is a session of its own, so its transcript is
// `<config>/projects/<slug>/<itsSessionId>.jsonl` beside the lead's, not under the lead's
// `subagents/`, and nothing in the team's folder names its session. Its rows carry `teamName`
// and `agentName`, so a session file is known for a pane teammate's by its first rows. Each file
// is looked at once (its head, at most HEAD_BYTES, never through a link) and the verdict kept
// for the whole process: the import opens hundreds of teams over the same project folders.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { openNoFollow } from '../files/read-whole.js';

/** How much of a session file's start is read to find whose it is. */
const HEAD_BYTES = 64 * 1024;
/** Rows looked at for `teamName`: Claude writes it on a pane teammate's first rows. */
const HEAD_ROWS = 20;
/** A file whose head named no team is decided for good once it is this old (ms), or has HEAD_ROWS rows. */
const SETTLED_AFTER_MS = 10_000;
/** Verdicts kept at most (the oldest are forgotten, and looked at again if asked). */
const MAX_VERDICTS = 50_000;

const SESSION_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/;

export interface PaneOwner {
  teamName: string;
  agentName: string;
}

/** path → what its head says (null: no team's pane teammate), per inode. */
const verdicts = new Map<string, { ino: number; owner: PaneOwner | null }>();

/** Whose pane session the file is, from its first rows; `undefined` while that cannot be told yet. */
export async function paneOwnerOf(path: string, now = Date.now()): Promise<PaneOwner | null | undefined> {
  let head: Buffer;
  let ino: number;
  let mtimeMs: number;
  try {
    const fh = await openNoFollow(path);
    try {
      const st = await fh.stat();
      if (!st.isFile()) return null;
      ino = st.ino;
      mtimeMs = st.mtimeMs;
      const known = verdicts.get(path);
      if (known && known.ino === ino) return known.owner;
      const buf = Buffer.allocUnsafe(Math.min(HEAD_BYTES, st.size));
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      head = buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  } catch {
    return undefined;
  }
  let rows = 0;
  let owner: PaneOwner | null = null;
  for (let start = 0; rows < HEAD_ROWS; rows++) {
    const nl = head.indexOf(10, start);
    if (nl < 0) break;
    const line = head.toString('utf8', start, nl);
    start = nl + 1;
    let row: Record<string, unknown>;
    try {
      row = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (typeof row.teamName === 'string' && row.teamName !== '' && typeof row.agentName === 'string' && row.agentName !== '') {
      owner = { teamName: row.teamName, agentName: row.agentName };
      break;
    }
  }
  // A file just begun may name its team in a row not yet written: decided later.
  if (!owner && rows < HEAD_ROWS && head.length < HEAD_BYTES && now - mtimeMs < SETTLED_AFTER_MS) return undefined;
  if (verdicts.size >= MAX_VERDICTS) verdicts.delete(verdicts.keys().next().value!);
  verdicts.set(path, { ino, owner });
  return owner;
}

/**
 * The pane teammates' session files of `teamName` in one project folder, each with its
 * teammate's name; `undecided`: a file could not be told yet (look again). `skip`: files
 * already followed, or the lead's own.
 */
export async function paneTranscripts(projectDir: string, teamName: string, skip: (path: string) => boolean): Promise<{ found: Array<{ path: string; agent: string }>; undecided: boolean }> {
  let names: string[];
  try {
    names = await readdir(projectDir);
  } catch {
    return { found: [], undecided: false };
  }
  const found: Array<{ path: string; agent: string }> = [];
  let undecided = false;
  for (const n of names.sort()) {
    if (!SESSION_FILE.test(n)) continue;
    const path = join(projectDir, n);
    if (skip(path)) continue;
    const owner = await paneOwnerOf(path);
    if (owner === undefined) undecided = true;
    else if (owner && owner.teamName === teamName) found.push({ path, agent: owner.agentName });
  }
  return { found, undecided };
}
