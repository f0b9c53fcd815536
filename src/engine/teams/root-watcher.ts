// Watches the teams root and tells the service which file to re-read. Events are hints, not
// counts: chokidar coalesces rapid writes, so every hint schedules a re-read of the file's
// current state, and a hint that arrives during a read schedules one more (the trailing read).
import { watch, type FSWatcher } from 'chokidar';
import { watch as watchFolder, type FSWatcher as FolderWatcher } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { DELETED_TEAM_FOLDER } from '../claude/lifecycle.js';
import { fileSignature } from '../files/file-signature.js';

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
  // `<dir>.deleted-<uuid>`: Claude renamed a team away to remove it; only the root changed.
  if (DELETED_TEAM_FOLDER.test(team)) return { kind: 'root' };
  if (parts.length === 1) return { kind: 'team', team };
  if (parts.length === 2 && parts[1] === 'config.json') return { kind: 'config', team };
  if (parts.length === 2 && parts[1] === 'inboxes') return { kind: 'team', team };
  if (parts.length === 3 && parts[1] === 'inboxes' && parts[2]!.endsWith('.json') && !isIgnoredPath(p)) {
    return { kind: 'inbox', team, owner: parts[2]!.slice(0, -'.json'.length) };
  }
  return undefined;
}

export interface RootWatcher {
  ready: Promise<void>;
  /**
   * Whether the watch may have missed something since the last call: not ready yet, an error,
   * or a folder watch that could not be made or broke. The engine's safety net then runs at once.
   */
  troubled(): boolean;
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
  let closed = false;
  let isReady = false;
  let trouble = false;
  // chokidar watches each file by its inode and, after a rename over the file (how Claude and
  // Teamdeck write), watches the new one: a write in that gap is missed (about 1 in 25 writes
  // 40-160 ms apart; the safety net would find it late). A folder watch reports every rename into the
  // folder by name, so every team folder and its inboxes/ folder get one as well.
  const folders = new Map<string, FolderWatcher>();
  const watchFolderAt = async (dir: string) => {
    if (closed || folders.has(dir)) return;
    // lstat: a symbolic link is not a folder, and is never followed.
    if (!(await lstat(dir).then((st) => st.isDirectory(), () => false)) || closed || folders.has(dir)) return;
    try {
      const fw = watchFolder(dir, { persistent: false }, (_event, name) => {
        if (!name) return;
        // The folder itself was removed or renamed away: this watch is dead; a folder made
        // there again is watched anew (now, or on chokidar's hint for it).
        if (name.toString() === basename(dir)) {
          fw.close();
          if (folders.get(dir) === fw) folders.delete(dir);
          void watchFolderAt(dir);
        }
        hint(join(dir, name.toString()));
      });
      fw.on('error', () => {
        trouble = true;
        fw.close();
        if (folders.get(dir) === fw) folders.delete(dir);
      });
      folders.set(dir, fw);
      // A folder made while the engine runs (a new team's inboxes/): whatever was written into it
      // before this watch existed raised no event here, and chokidar may not have seen it yet.
      if (isReady) void readdir(dir).then((names) => names.forEach((n) => hint(join(dir, n))), () => {});
    } catch {
      // Gone already, or out of watches: chokidar and the safety net still cover it.
      trouble = true;
    }
  };
  const watchTeamFolders = (teamDir: string) => {
    void watchFolderAt(teamDir);
    void watchFolderAt(join(teamDir, 'inboxes'));
  };
  // Both watchers report most changes, and one change can raise several events: a file hint is
  // passed on only when the file looks different from the last time one was, so an unchanged
  // file is never read (or parsed) again because of a duplicate event.
  const lastSeen = new Map<string, string>();
  const hint = (p: string) => {
    const t = classifyPath(root, p);
    if (!t) return;
    if (t.kind === 'team') {
      watchTeamFolders(relative(root, p).split(sep).length === 1 ? p : join(p, '..'));
      onTarget(t);
      return;
    }
    if (t.kind === 'root') return onTarget(t);
    void fileSignature(p).then((sig) => {
      if (closed || lastSeen.get(p) === sig) return;
      lastSeen.set(p, sig);
      onTarget(t);
    });
  };
  w.on('add', hint).on('change', hint).on('unlink', hint).on('addDir', hint).on('unlinkDir', hint);
  w.on('error', (e) => {
    trouble = true;
    onError(e instanceof Error ? e : new Error(String(e)));
  });
  void readdir(root).then(
    (names) => {
      for (const n of names) if (!n.startsWith('.')) watchTeamFolders(join(root, n));
    },
    () => {},
  );
  const ready = new Promise<void>((r) =>
    w.once('ready', () => {
      isReady = true;
      r();
    }),
  );
  return {
    ready,
    troubled: () => {
      const t = trouble || !isReady;
      trouble = false;
      return t;
    },
    close: async () => {
      closed = true;
      for (const fw of folders.values()) fw.close();
      folders.clear();
      await w.close();
    },
  };
}
