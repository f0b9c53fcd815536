// Folder watches for Claude's folders outside the teams root (sessions, tasks, transcripts).
// As in watcher.ts, an event is a hint to re-read, never a fact: it names the file, and the
// reader looks at the file as it is now. A folder that is a link is never watched.
import { watch, type FSWatcher } from 'node:fs';
import { lstat } from 'node:fs/promises';

/** Watches of several folders, each at most once; a failed, removed or replaced one is set up again by the next add(). */
export class FolderWatches {
  private watches = new Map<string, { w: FSWatcher; ino: number }>();
  private closed = false;

  /** Watches `dir` (when it is a real folder) and calls `onName` with each changed entry's name. */
  async add(dir: string, onName: (name: string) => void): Promise<void> {
    if (this.closed) return;
    const st = await lstat(dir).catch(() => undefined);
    const had = this.watches.get(dir);
    // A folder removed (or replaced) since it was watched: the old watch sees nothing any more.
    if (had && (!st || st.ino !== had.ino)) this.drop(dir, had.w);
    if (!st?.isDirectory() || this.closed || this.watches.has(dir)) return;
    try {
      const w = watch(dir, { persistent: false }, (_event, name) => {
        if (name) onName(name.toString());
      });
      w.on('error', () => this.drop(dir, w));
      this.watches.set(dir, { w, ino: st.ino });
    } catch {
      // Out of watches, or gone already: the rescan tick still looks.
    }
  }

  has(dir: string): boolean {
    return this.watches.has(dir);
  }

  /** Stops watching folders not in `keep`. */
  retain(keep: ReadonlySet<string>): void {
    for (const [dir, { w }] of this.watches) if (!keep.has(dir)) this.drop(dir, w);
  }

  private drop(dir: string, w: FSWatcher): void {
    w.close();
    if (this.watches.get(dir)?.w === w) this.watches.delete(dir);
  }

  close(): void {
    this.closed = true;
    for (const { w } of this.watches.values()) w.close();
    this.watches.clear();
  }
}
