// Watches the teams root and tells the service which file to re-read. Events are hints, not
// counts: chokidar coalesces rapid writes, so every hint schedules a re-read of the file's
// current state, and a hint that arrives during a read schedules one more (the trailing read).
import { watch, type FSWatcher } from 'chokidar';
import { relative, sep } from 'node:path';

export type WatchTarget =
  | { kind: 'inbox'; team: string; owner: string }
  | { kind: 'config'; team: string }
  | { kind: 'team'; team: string }
  | { kind: 'root' };

/** Temp files of atomic writes and proper-lockfile lock folders are never interesting. */
export function isIgnoredPath(p: string): boolean {
  return /\.tmp\.[^/\\]*$/.test(p) || /\.lock([/\\]|$)/.test(p);
}

/** Maps a path under the root to what it means, or undefined for anything else. */
export function classifyPath(root: string, p: string): WatchTarget | undefined {
  const rel = relative(root, p);
  if (rel === '') return { kind: 'root' };
  if (rel.startsWith('..')) return undefined;
  const parts = rel.split(sep);
  const team = parts[0]!;
  if (team.startsWith('.')) return undefined;
  if (parts.length === 1) return { kind: 'team', team };
  if (parts.length === 2 && parts[1] === 'config.json') return { kind: 'config', team };
  if (parts.length === 2 && parts[1] === 'inboxes') return { kind: 'team', team };
  if (parts.length === 3 && parts[1] === 'inboxes' && parts[2]!.endsWith('.json') && !isIgnoredPath(p)) {
    return { kind: 'inbox', team, owner: parts[2]!.slice(0, -'.json'.length) };
  }
  return undefined;
}

/** Runs `task(key)` for each scheduled key, never two at once per key, always once more after a hint. */
export class Coalescer {
  private state = new Map<string, { running: boolean; dirty: boolean }>();
  private idle: Array<() => void> = [];

  constructor(private readonly task: (key: string) => Promise<void>) {}

  schedule(key: string): void {
    let s = this.state.get(key);
    if (!s) this.state.set(key, (s = { running: false, dirty: false }));
    if (s.running) {
      s.dirty = true;
      return;
    }
    s.running = true;
    void this.run(key, s);
  }

  private async run(key: string, s: { running: boolean; dirty: boolean }): Promise<void> {
    do {
      s.dirty = false;
      try {
        await this.task(key);
      } catch {
        // the task reports its own problems
      }
    } while (s.dirty);
    s.running = false;
    this.state.delete(key);
    if (this.state.size === 0) for (const f of this.idle.splice(0)) f();
  }

  /** Resolves when nothing is scheduled or running. */
  settled(): Promise<void> {
    if (this.state.size === 0) return Promise.resolve();
    return new Promise((r) => this.idle.push(r));
  }
}

export interface RootWatcher {
  ready: Promise<void>;
  close(): Promise<void>;
}

export function watchTeamsRoot(
  root: string,
  onTarget: (t: WatchTarget) => void,
  onError: (e: Error) => void,
): RootWatcher {
  const w: FSWatcher = watch(root, {
    ignoreInitial: true,
    depth: 2,
    ignored: (p: string) => isIgnoredPath(p),
    // Rename-over writes (Claude's and ours) must surface as changes, fast.
    atomic: true,
  });
  const handle = (p: string) => {
    const t = classifyPath(root, p);
    if (t) onTarget(t);
  };
  w.on('add', handle).on('change', handle).on('unlink', handle).on('addDir', handle).on('unlinkDir', handle);
  w.on('error', (e) => onError(e instanceof Error ? e : new Error(String(e))));
  const ready = new Promise<void>((r) => w.once('ready', () => r()));
  return { ready, close: () => w.close() };
}
