// The simulated lead's process identity and its `<config>/sessions/<pid>.json`
// (docs/claude-contract.md#config for leadProcess, #sessions): written when the lead starts (first
// without a status), rewritten on every busy/idle change, removed at a clean exit, left behind by
// SIGKILL.
import { readFileSync, readlinkSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { randomBytes as bytes } from 'node:crypto';
import { hostname } from 'node:os';
import { basename, dirname } from 'node:path';
import { CLAUDE_VERSION, claudeSidePaths } from './claude-paths.js';

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot): tells a reused pid apart. */
export function procStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (the command) may hold spaces and parentheses: count from after its closing one.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return rest[22 - 3];
  } catch {
    return undefined;
  }
}

/**
 * `leadProcess.pidSpace`, e.g. "vm#pid:[4026531836]": a host and the pid namespace. The doc
 * shows one value; reading the part before '#' as the host name is inferred.
 */
export function pidSpace(pid: number): string {
  let ns = 'pid:[0]';
  try {
    ns = readlinkSync(`/proc/${pid}/ns/pid`);
  } catch {
    // not Linux: the host alone still separates machines
  }
  return `${hostname()}#${ns}`;
}

/** The sessions file's `pidDomain`, e.g. "linux:<machine-id>:pid:[4026531836]"; undefined off Linux. */
export function pidDomain(pid: number): string | undefined {
  try {
    const ns = readlinkSync(`/proc/${pid}/ns/pid`);
    const machine = readFileSync('/etc/machine-id', 'utf8').trim();
    return `linux:${machine}:${ns}`;
  } catch {
    return undefined;
  }
}

export interface LeadProcess {
  pid: number;
  pidSpace: string;
  claimedAt: number;
  procStart?: string;
}

export function leadProcessOf(pid: number, claimedAt: number): LeadProcess {
  const lp: LeadProcess = { pid, pidSpace: pidSpace(pid), claimedAt };
  const start = procStart(pid);
  if (start !== undefined) lp.procStart = start;
  return lp;
}

export type LeadStatus = 'busy' | 'idle';

export interface SessionFileOptions {
  teamsDir: string;
  pid: number;
  sessionId: string;
  cwd: string;
  startedAt: number;
  now?: () => number;
}

/**
 * One lead's sessions file: one line of JSON, keys in 2.1.332's order. Left out because the
 * simulated lead binds no socket and runs in no tmux: peerProtocol, peerFeatures, tmux,
 * messagingSocketPath (and the `.key` file beside it). `name` is "<cwd's basename>-<2 hex>"
 * like the captured "proj-e0"; how Claude derives its suffix is not known. Writes are
 * serialized; remove() wins over any write still queued.
 */
export class SessionFile {
  readonly path: string;
  private status: LeadStatus | undefined;
  private statusAt: number | undefined;
  private queue: Promise<void> = Promise.resolve();
  private removed = false;
  private readonly name: string;

  constructor(private readonly o: SessionFileOptions) {
    this.path = claudeSidePaths(o.teamsDir).sessionFile(o.pid);
    this.name = `${basename(o.cwd) || 'root'}-${bytes(1).toString('hex')}`;
  }

  private body(): Record<string, unknown> {
    const b: Record<string, unknown> = {
      pid: this.o.pid,
      sessionId: this.o.sessionId,
      cwd: this.o.cwd,
      startedAt: this.o.startedAt,
    };
    const start = procStart(this.o.pid);
    if (start !== undefined) b.procStart = start;
    b.version = CLAUDE_VERSION;
    b.kind = 'interactive';
    b.entrypoint = 'cli';
    const domain = pidDomain(this.o.pid);
    if (domain !== undefined) b.pidDomain = domain;
    b.asksForConvertedSkills = null;
    b.name = this.name;
    b.nameSource = 'derived';
    b.nameSince = this.o.startedAt;
    // The first version has neither: they come with the first status.
    if (this.status !== undefined) {
      b.status = this.status;
      b.updatedAt = this.statusAt;
      b.statusUpdatedAt = this.statusAt;
    }
    return b;
  }

  private write(): Promise<void> {
    const job = this.queue.then(async () => {
      if (this.removed) return;
      await mkdir(dirname(this.path), { recursive: true });
      const tmp = `${this.path}.tmp.${bytes(4).toString('hex')}`;
      await writeFile(tmp, JSON.stringify(this.body()));
      await rename(tmp, this.path);
    });
    // The caller gets this write's failure from `job`; the queue only orders the writes.
    this.queue = job.catch(() => undefined);
    return job;
  }

  /** The first version, written at start: no status yet. */
  start(): Promise<void> {
    return this.write();
  }

  setStatus(status: LeadStatus): Promise<void> {
    if (status === this.status) return this.queue;
    this.status = status;
    this.statusAt = (this.o.now ?? Date.now)();
    return this.write();
  }

  async remove(): Promise<void> {
    this.removed = true;
    await this.queue;
    await rm(this.path, { force: true });
  }
}
