// Pane teammates' transcripts (docs/claude-contract.md#transcripts): a teammate Claude runs in a
// terminal pane of its own (teammate mode `tmux`) is a session of its own, so its transcript is
// `<config>/projects/<slug>/<itsSessionId>.jsonl` beside the lead's, not under the lead's
// `subagents/`, and nothing in the team's folder names its session. Its rows carry `teamName`
// and `agentName`, so a session file is known for a pane teammate's by its first real row. Each
// file is looked at once (its head, HEAD_BYTES, more only for a longer first row; never through
// a link) and the verdict kept for the whole process: the import opens hundreds of teams over
// the same project folders.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { openNoFollow } from '../files/read-whole.js';
import { sessionOfTranscript } from './paths.js';

/** How much of a session file's start is read to find whose it is; more only when its first rows are longer. */
const HEAD_BYTES = 16 * 1024;
const MAX_HEAD_BYTES = 256 * 1024;
/** Rows looked at for the first one with a `uuid` (a pane teammate's comes fifth, after its metadata rows). */
const HEAD_ROWS = 20;
/** A file whose head holds no such row yet is decided (no one's) once it is this old (ms). */
const SETTLED_AFTER_MS = 10_000;
/** Verdicts kept at most (the oldest are forgotten, and looked at again if asked). */
const MAX_VERDICTS = 50_000;


export interface PaneOwner {
  teamName: string;
  agentName: string;
}

/**
 * path → what its head said (null: no team's pane teammate). A session file is named by its
 * session's id and only ever appended to, so a verdict holds for good: a listing asks no file
 * twice.
 */
const verdicts = new Map<string, PaneOwner | null>();

async function readHead(fh: Awaited<ReturnType<typeof openNoFollow>>, length: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(length);
  const { bytesRead } = await fh.read(buf, 0, length, 0);
  return buf.subarray(0, bytesRead);
}

/**
 * Whose session the head is: its first row with a `uuid` (a user, assistant, attachment or
 * system row) says, since every such row of a pane teammate's carries `teamName` and
 * `agentName` and no other session's does; the metadata rows before it carry neither.
 * `decided: false` while no such row is whole in the head.
 */
function ownerIn(head: Buffer): { owner: PaneOwner | null; decided: boolean } {
  for (let start = 0, rows = 0; rows < HEAD_ROWS; rows++) {
    const nl = head.indexOf(10, start);
    if (nl < 0) break;
    let row: Record<string, unknown> | undefined;
    try {
      row = JSON.parse(head.toString('utf8', start, nl)) as Record<string, unknown>;
    } catch {
      row = undefined;
    }
    start = nl + 1;
    if (!row || typeof row.uuid !== 'string') continue;
    if (typeof row.teamName === 'string' && row.teamName !== '' && typeof row.agentName === 'string' && row.agentName !== '') {
      return { owner: { teamName: row.teamName, agentName: row.agentName }, decided: true };
    }
    return { owner: null, decided: true };
  }
  return { owner: null, decided: false };
}

/** Whose pane session the file is, from its first rows; `undefined` while that cannot be told yet. */
export async function paneOwnerOf(path: string, now = Date.now()): Promise<PaneOwner | null | undefined> {
  const known = verdicts.get(path);
  if (known !== undefined) return known;
  let head: Buffer;
  let mtimeMs: number;
  try {
    const fh = await openNoFollow(path);
    try {
      const st = await fh.stat();
      if (!st.isFile()) return null;
      mtimeMs = st.mtimeMs;
      head = await readHead(fh, Math.min(HEAD_BYTES, st.size));
      // A first row longer than the head (a long spawn prompt): read further, once.
      if (!ownerIn(head).decided && st.size > HEAD_BYTES) head = await readHead(fh, Math.min(MAX_HEAD_BYTES, st.size));
    } finally {
      await fh.close();
    }
  } catch (e) {
    // A link (never followed), a file gone or not ours to read is no one's pane; anything else is asked again.
    return ['ELOOP', 'ENOENT', 'EACCES', 'EISDIR', 'ENXIO'].includes((e as NodeJS.ErrnoException).code ?? '') ? null : undefined;
  }
  const { owner, decided } = ownerIn(head);
  // A file just begun may name its team in a row not yet written: decided later.
  if (!decided && now - mtimeMs < SETTLED_AFTER_MS) return undefined;
  if (verdicts.size >= MAX_VERDICTS) verdicts.delete(verdicts.keys().next().value!);
  verdicts.set(path, owner);
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
    if (sessionOfTranscript(n) === undefined) continue;
    const path = join(projectDir, n);
    if (skip(path)) continue;
    const owner = await paneOwnerOf(path);
    if (owner === undefined) undecided = true;
    else if (owner && owner.teamName === teamName) found.push({ path, agent: owner.agentName });
  }
  return { found, undecided };
}
