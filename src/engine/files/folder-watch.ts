// Folder watches for Claude's folders outside the teams root (sessions, tasks, transcripts).
// As in teams/root-watcher.ts, an event is a hint to re-read, never a fact: it names the file, and the
// reader looks at the file as it is now. A folder that is a link is never watched. A folder
// asked for that is not there yet is remembered, and looked for again by retryMissing() (a
// stat per missing folder, on the engine's cheap tick) until it appears; so is a watched folder
// that is removed or renamed away (its watch says so by naming the folder itself).
import { watch, type FSWatcher } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { basename } from 'node:path';

/** Watches of several folders, each at most once; a failed, removed or replaced one is set up again by the next add(). */
export class FolderWatches {
  private watches = new Map<string, { w: FSWatcher; ino: number }>();
  /** Folders asked for that are not watched (absent, or their watch failed): their callbacks. */
  private missing = new Map<string, (name: string) => void>();
  private closed = false;
  private trouble = false;

  /** Watches `dir` (when it is a real folder) and calls `onName` with each changed entry's name. */
  async add(dir: string, onName: (name: string) => void): Promise<void> {
    if (this.closed) return;
    // Not there, or not to be looked at: it is watched as missing, and looked for again on the tick.
    const st = await lstat(dir).catch(() => undefined);
    const had = this.watches.get(dir);
    // A folder removed (or replaced) since it was watched: the old watch sees nothing any more.
    if (had && (!st || st.ino !== had.ino)) this.drop(dir, had.w);
    if (this.closed || this.watches.has(dir)) return;
    if (!st?.isDirectory()) {
      this.missing.set(dir, onName);
      return;
    }
    try {
      const w = watch(dir, { persistent: false }, (_event, name) => {
        if (!name) return;
        // The folder itself was removed or renamed away: its watch sees nothing from now on.
        // Set up again (now, or by retryMissing once a folder of that name is back).
        if (name.toString() === basename(dir)) {
          this.drop(dir, w);
          void this.add(dir, onName);
        }
        onName(name.toString());
      });
      w.on('error', () => {
        this.trouble = true;
        this.drop(dir, w);
        this.missing.set(dir, onName);
      });
      this.watches.set(dir, { w, ino: st.ino });
      this.missing.delete(dir);
    } catch {
      // Out of watches, or gone already: the safety net looks until a watch can be made.
      this.trouble = true;
      this.missing.set(dir, onName);
    }
  }

  /** Looks again for the folders asked for that are not watched yet; watches those now there. */
  async retryMissing(): Promise<void> {
    for (const [dir, onName] of [...this.missing]) await this.add(dir, onName);
  }

  /** A watch failed (could not be made, or broke) since the last call. */
  troubled(): boolean {
    const t = this.trouble;
    this.trouble = false;
    return t;
  }

  has(dir: string): boolean {
    return this.watches.has(dir);
  }

  /** Stops watching (and looking for) folders not in `keep`. */
  retain(keep: ReadonlySet<string>): void {
    for (const [dir, { w }] of this.watches) if (!keep.has(dir)) this.drop(dir, w);
    for (const dir of [...this.missing.keys()]) if (!keep.has(dir)) this.missing.delete(dir);
  }

  private drop(dir: string, w: FSWatcher): void {
    w.close();
    if (this.watches.get(dir)?.w === w) this.watches.delete(dir);
  }

  close(): void {
    this.closed = true;
    for (const { w } of this.watches.values()) w.close();
    this.watches.clear();
    this.missing.clear();
  }
}
