// The hosted terminals on disk: one `<stateDir>/terminals/<id>.json` per terminal, so a lead
// that runs on in tmux after Teamdeck quits is found again by the next start. The folder is
// owner-only (0700) and so is each record (0600): they name project folders and pids.
import { chmod, mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { PermissionModeChoice, TerminalBackend } from '../../shared/types.js';
import { writeFileAtomic } from '../files/atomic-write.js';
import { InOrder } from '../in-order.js';

export interface TerminalRecord {
  id: string;
  backend: TerminalBackend;
  cwd: string;
  pid: number;
  /** The lead's start time from /proc/<pid>/stat (Linux), to tell a reused pid. */
  procStart?: number;
  startedAt: number;
  permissionMode?: PermissionModeChoice;
  team?: string;
  exitedAt?: number;
  exitCode?: number;
}

/** `t-` and 12 hex digits: also the tmux session's name, so nothing in it needs quoting. */
export const TERMINAL_ID = /^t-[0-9a-f]{12}$/;

const BACKENDS: readonly string[] = ['tmux', 'pty'];

/** A record read back, or undefined when the file is not one (torn, hand-edited, foreign). */
function parseRecord(text: string, id: string): TerminalRecord | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const pid = num(r.pid);
  const startedAt = num(r.startedAt);
  if (r.id !== id || typeof r.backend !== 'string' || !BACKENDS.includes(r.backend) || typeof r.cwd !== 'string') return undefined;
  if (pid === undefined || startedAt === undefined) return undefined;
  const rec: TerminalRecord = { id, backend: r.backend as TerminalBackend, cwd: r.cwd, pid, startedAt };
  if (num(r.procStart) !== undefined) rec.procStart = num(r.procStart);
  if (typeof r.permissionMode === 'string') rec.permissionMode = r.permissionMode as PermissionModeChoice;
  if (typeof r.team === 'string') rec.team = r.team;
  if (num(r.exitedAt) !== undefined) rec.exitedAt = num(r.exitedAt);
  if (num(r.exitCode) !== undefined) rec.exitCode = num(r.exitCode);
  return rec;
}

export class TerminalRecords {
  readonly dir: string;
  /** Per record, the write or removal in flight: each waits for the one before (last wins). */
  /** Each record's writes and its removal, in the order asked for. */
  private readonly writes = new InOrder();

  constructor(stateDir: string) {
    this.dir = join(stateDir, 'terminals');
  }

  /** Makes the folder (0700, also when it existed with a wider mode). */
  async ensureDir(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await chmod(this.dir, 0o700);
  }

  async readAll(): Promise<TerminalRecord[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const out: TerminalRecord[] = [];
    for (const name of names) {
      const id = name.endsWith('.json') ? name.slice(0, -'.json'.length) : '';
      if (!TERMINAL_ID.test(id)) continue;
      try {
        const rec = parseRecord(await readFile(join(this.dir, name), 'utf8'), id);
        if (rec) out.push(rec);
      } catch {
        // Vanished meanwhile.
      }
    }
    return out;
  }

  /** Writes the record as `get()` returns it when its turn comes (so queued writes coalesce to the latest). */
  write(id: string, get: () => TerminalRecord | undefined): Promise<void> {
    return this.writes.run(id, async () => {
      const rec = get();
      if (rec) await writeFileAtomic(join(this.dir, `${id}.json`), `${JSON.stringify(rec, null, 2)}\n`, { mode: 0o600 });
    });
  }

  remove(id: string): Promise<void> {
    return this.writes.run(id, () => unlink(join(this.dir, `${id}.json`)).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    }));
  }

  /** Waits for every write and removal queued so far. */
  async settle(): Promise<void> {
    await this.writes.settled();
  }
}
