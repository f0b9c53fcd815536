// Claude Code 2.1.332-2.1.337: `<config>/sessions/<pid>.json`, one per running lead (interactive
// or headless), never for teammates; removed at a clean exit, left behind by a SIGKILL
// (docs/claude-contract.md#sessions). Since 2.1.337 a `claude` started inside a Claude shell
// writes one too, and `unwatched` may appear (docs/claude-contract.md#changes-2-1-337): such a
// nested session is never taken for a team's lead.
// Claude rewrites it IN PLACE (same inode) on every status change, so a read can see a torn
// file: a failed parse is retried, and the last good copy is kept. The first version has no
// `status` at all. Links are never followed and the file is bounded.
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { readBounded, UnreadableFileError } from '../files/read-whole.js';

/** A sessions file larger than this is not Claude's (the real ones are under 1 KB). */
export const MAX_SESSION_FILE_BYTES = 64 * 1024;
/** Sessions files looked at when the lead's pid is not known (2.1.199 has no leadProcess). */
const MAX_SCANNED = 256;
const RETRIES = 3;
const RETRY_DELAY_MS = 20;

export type SessionStatus = 'busy' | 'idle' | 'waiting' | 'shell';

export interface LeadSession {
  pid: number;
  sessionId: string;
  /** Absent in the first version of the file, or a value this Teamdeck does not know. */
  status?: SessionStatus;
  /** With `waiting`: `permission prompt`, `dialog open`, `input needed`, `worker request`, `sandbox request`. */
  waitingFor?: string;
  updatedAt?: number;
  statusUpdatedAt?: number;
  version?: string;
  kind?: string;
  /** The session's messaging socket (docs/claude-contract.md#socket), when it binds one. */
  messagingSocketPath?: string;
  /** `cli`, `sdk-cli`, ...; a nested session's is forced to `cli`, so it tells nothing apart. */
  entrypoint?: string;
  /** 2.1.337: a background session nobody views. Read, shown nowhere yet: the status says more. */
  unwatched?: boolean;
  /**
   * The file says it is a nested session's (`nestedSession: true`). 2.1.337 marks only the
   * transcript rows so, and its `entrypoint` is forced to `cli` like a lead's: what keeps a nested
   * session from being taken for the lead is the lead's pid (config.leadProcess) and session id.
   */
  nested?: boolean;
}

const sessionSchema = z.looseObject({
  pid: z.number().int(),
  sessionId: z.string().max(200),
  status: z.string().max(100).optional().catch(undefined),
  waitingFor: z.string().max(500).optional().catch(undefined),
  updatedAt: z.number().optional().catch(undefined),
  statusUpdatedAt: z.number().optional().catch(undefined),
  version: z.string().max(100).optional().catch(undefined),
  kind: z.string().max(100).optional().catch(undefined),
  messagingSocketPath: z.string().max(4096).optional().catch(undefined),
  entrypoint: z.string().max(100).optional().catch(undefined),
  unwatched: z.boolean().optional().catch(undefined),
  nestedSession: z.boolean().optional().catch(undefined),
});

const STATUSES = new Set<string>(['busy', 'idle', 'waiting', 'shell']);

export type SessionRead =
  | { kind: 'ok'; session: LeadSession }
  | { kind: 'missing' }
  /** Not a sessions file Teamdeck reads: a link, too big, not JSON after retries, not the shape. */
  | { kind: 'invalid'; reason: string };

/** Parses one sessions file's text, or says why it is not (yet) a whole one. */
export function parseSession(text: string): LeadSession | { invalid: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { invalid: 'not valid JSON' };
  }
  const r = sessionSchema.safeParse(json);
  if (!r.success) return { invalid: 'not a sessions file (no pid or sessionId)' };
  const d = r.data;
  const s: LeadSession = { pid: d.pid, sessionId: d.sessionId };
  if (d.status !== undefined && STATUSES.has(d.status)) s.status = d.status as SessionStatus;
  if (d.waitingFor !== undefined) s.waitingFor = d.waitingFor;
  if (d.updatedAt !== undefined) s.updatedAt = d.updatedAt;
  if (d.statusUpdatedAt !== undefined) s.statusUpdatedAt = d.statusUpdatedAt;
  if (d.version !== undefined) s.version = d.version;
  if (d.kind !== undefined) s.kind = d.kind;
  if (d.messagingSocketPath !== undefined) s.messagingSocketPath = d.messagingSocketPath;
  if (d.entrypoint !== undefined) s.entrypoint = d.entrypoint;
  if (d.unwatched === true) s.unwatched = true;
  if (d.nestedSession === true) s.nested = true;
  return s;
}

/** Reads one sessions file: never through a link, bounded, a torn read retried. */
export async function readSessionFile(path: string): Promise<SessionRead> {
  let last = 'not valid JSON';
  for (let attempt = 0; attempt < RETRIES; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, RETRY_DELAY_MS));
    let st;
    try {
      st = await lstat(path);
    } catch {
      return { kind: 'missing' };
    }
    if (st.isSymbolicLink()) return { kind: 'invalid', reason: 'is a symbolic link; not followed' };
    let text: string;
    try {
      text = (await readBounded(path, MAX_SESSION_FILE_BYTES)).toString('utf8');
    } catch (e) {
      if (e instanceof UnreadableFileError) return { kind: 'invalid', reason: e.message };
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { kind: 'missing' };
      last = `cannot be read (${code ?? 'error'})`;
      continue;
    }
    const parsed = parseSession(text);
    if ('invalid' in parsed) {
      last = parsed.invalid;
      continue;
    }
    return { kind: 'ok', session: parsed };
  }
  return { kind: 'invalid', reason: last };
}

/**
 * Follows one lead's sessions file. The file is `<pid>.json` for the pid in config.leadProcess,
 * whichever file was followed before; without one, the file found before, else the folder is
 * searched for the file whose sessionId is the lead's. A read that fails keeps the last good
 * copy; a file that is gone (clean exit) forgets it.
 */
export class LeadSessionReader {
  private path: string | undefined;
  private good: LeadSession | undefined;
  private signature = '';

  constructor(
    private readonly configDir: string,
    readonly leadSessionId: string,
  ) {}

  get sessionsDir(): string {
    return join(this.configDir, 'sessions');
  }

  /** The file name (`<pid>.json`) being followed, once found. */
  get fileName(): string | undefined {
    return this.path?.slice(this.sessionsDir.length + 1);
  }

  /** The lead's session as of now, or the last good copy when the file cannot be read whole. */
  async read(pid?: number): Promise<LeadSession | undefined> {
    // The folder itself must be a real folder: a link to one is never followed.
    if (!(await lstat(this.sessionsDir).then((st) => st.isDirectory(), () => false))) return this.forget();
    // With a pid, only that pid's file: a restarted lead rewrites config.leadProcess, and the old
    // lead's file may outlive it (a SIGKILL leaves it behind) with the same session id (a resume).
    const candidates = pid !== undefined ? [join(this.sessionsDir, `${pid}.json`)] : this.path ? [this.path] : [];
    for (const p of candidates) {
      const r = await this.readIfChanged(p);
      if (r !== 'other') return r;
    }
    if (pid !== undefined) return this.forget();
    // No pid to go by: look through the folder for the lead's file.
    for (const name of await listSessionFiles(this.sessionsDir)) {
      const p = join(this.sessionsDir, name);
      if (candidates.includes(p)) continue;
      const r = await this.readIfChanged(p);
      if (r !== 'other') return r;
    }
    return this.forget();
  }

  private forget(): undefined {
    this.path = undefined;
    this.good = undefined;
    this.signature = '';
    return undefined;
  }

  /** The session in `p` if it is the lead's; 'other' when it is someone else's or absent. */
  private async readIfChanged(p: string): Promise<LeadSession | undefined | 'other'> {
    let sig: string;
    try {
      const st = await lstat(p);
      sig = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    } catch {
      return 'other';
    }
    // An unchanged file says what it said last time.
    if (p === this.path && sig === this.signature && this.good) return this.good;
    const r = await readSessionFile(p);
    if (r.kind === 'missing') return 'other';
    if (r.kind === 'invalid') return p === this.path ? this.good : 'other';
    // Another session's file, or a nested session's (a `claude --resume` run inside the lead's
    // shell carries the lead's id): never the lead's (docs/claude-contract.md#changes-2-1-337).
    if (r.session.sessionId !== this.leadSessionId || r.session.nested) return 'other';
    this.path = p;
    this.good = r.session;
    this.signature = sig;
    return r.session;
  }
}

/** `<pid>.json` names in the sessions folder (never `.key` files), bounded. */
export async function listSessionFiles(dir: string): Promise<string[]> {
  try {
    if (!(await lstat(dir)).isDirectory()) return [];
    return (await readdir(dir)).filter((n) => /^\d+\.json$/.test(n)).slice(0, MAX_SCANNED);
  } catch {
    return [];
  }
}
