// Records every distinct state of the team files and session files as Claude writes them.
// Claude prunes an inbox within about a second of reading it, so entries exist only briefly:
// sampling every ~10 ms and keying a state on content + inode + mtime (a prune rewrites `[]`
// as `[]` through a rename) catches them. Files and folders vanish at any moment: ENOENT is
// an ordinary answer, never an error.
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from './wait.js';

export interface FileState {
  /** Date.now() when the state was first seen. */
  t: number;
  /** Relative to the config dir, e.g. `teams/session-1a2b3c4d/inboxes/researcher.json`. */
  path: string;
  /** undefined: the file is gone. */
  content?: string;
  ino?: bigint;
  mtimeNs?: bigint;
}

export interface DirEvent {
  t: number;
  /** Relative to the config dir, e.g. `teams/session-1a2b3c4d.deleted-<uuid>`. */
  path: string;
  present: boolean;
}

/** An inbox entry with when it was first seen and when it left the file (pruned). */
export interface SeenEntry {
  entry: Record<string, unknown>;
  firstSeen: number;
  goneAt?: number;
}

/** A name inotify reported in teams/ (catches folders that live for a few ms, like `*.deleted-<uuid>`). */
export interface NameEvent {
  t: number;
  /** Relative to the config dir. */
  path: string;
}

export interface Observer {
  states: FileState[];
  dirEvents: DirEvent[];
  /** Every name a watch on teams/ reported, in order (sampling misses the ~5 ms `.deleted-` folder). */
  teamNames: NameEvent[];
  /** Distinct states of one file, in order (a removal is a state without content). */
  statesOf(path: string): FileState[];
  /** Every entry ever seen in an inbox file, in order of first sight. */
  entriesSeen(path: string): SeenEntry[];
  waitForEntry(path: string, predicate: (e: Record<string, unknown>) => boolean, timeoutMs: number, what?: string): Promise<SeenEntry>;
  /** Paths (relative) of every file that had at least one state. */
  files(): string[];
  stop(): void;
}

function entryKey(e: Record<string, unknown>): string {
  return typeof e.msg_id === 'string' ? e.msg_id : `${String(e.from)}|${String(e.timestamp)}|${String(e.text)}`;
}

function parseArray(content: string | undefined): Array<Record<string, unknown>> | undefined {
  if (content === undefined) return [];
  try {
    const v = JSON.parse(content);
    return Array.isArray(v) ? v : undefined;
  } catch {
    // A torn or half-written file: not a state of the queue.
    return undefined;
  }
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Content, inode and mtime of one file read through one descriptor, so they belong together. */
function readState(abs: string): { content: string; ino: bigint; mtimeNs: bigint } | undefined {
  let fd: number;
  try {
    fd = openSync(abs, 'r');
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd, { bigint: true });
    if (!st.isFile()) return undefined;
    return { content: readFileSync(fd, 'utf8'), ino: st.ino, mtimeNs: st.mtimeNs };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Samples `<configDir>/teams` (team folders, config.json, inboxes/*.json) and
 * `<configDir>/sessions` (*.json, *.key) every `intervalMs`.
 */
export function startObserver(configDir: string, intervalMs = 10): Observer {
  const states: FileState[] = [];
  const dirEvents: DirEvent[] = [];
  const last = new Map<string, FileState>();
  const dirs = new Set<string>();
  const teamNames: NameEvent[] = [];
  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  // Only teams/ itself, not recursive: a recursive watch of the config dir crashed on
  // vanishing plugin folders. Attached as soon as Claude creates teams/.
  const watchTeams = () => {
    if (watcher || stopped) return;
    try {
      watcher = watch(join(configDir, 'teams'), (_event, name) => {
        if (name) teamNames.push({ t: Date.now(), path: `teams/${name}` });
      });
      watcher.on('error', () => {
        watcher?.close();
        watcher = undefined;
      });
    } catch {
      // teams/ does not exist yet
    }
  };

  const note = (rel: string, t: number) => {
    const s = readState(join(configDir, rel));
    const prev = last.get(rel);
    if (!s) {
      if (prev && prev.content !== undefined) {
        const gone: FileState = { t, path: rel };
        states.push(gone);
        last.set(rel, gone);
      }
      return;
    }
    if (prev && prev.content === s.content && prev.ino === s.ino && prev.mtimeNs === s.mtimeNs) return;
    const st: FileState = { t, path: rel, ...s };
    states.push(st);
    last.set(rel, st);
  };

  const sample = () => {
    watchTeams();
    const t = Date.now();
    const seenDirs = new Set<string>();
    const seenFiles = new Set<string>();
    for (const team of list(join(configDir, 'teams'))) {
      const teamRel = `teams/${team}`;
      seenDirs.add(teamRel);
      if (team.includes('.deleted-')) continue;
      for (const rel of [`${teamRel}/config.json`, ...list(join(configDir, teamRel, 'inboxes')).filter((f) => /^[^.].*\.json$/.test(f) && !f.includes('.tmp.')).map((f) => `${teamRel}/inboxes/${f}`)]) {
        seenFiles.add(rel);
        note(rel, t);
      }
    }
    for (const f of list(join(configDir, 'sessions'))) {
      if (!/\.(json|key)$/.test(f) || f.includes('.tmp.')) continue;
      seenFiles.add(`sessions/${f}`);
      note(`sessions/${f}`, t);
    }
    // Files whose folder (or themselves) vanished since the last sample.
    for (const rel of last.keys()) if (!seenFiles.has(rel)) note(rel, t);
    for (const d of seenDirs) {
      if (dirs.has(d)) continue;
      dirs.add(d);
      dirEvents.push({ t, path: d, present: true });
    }
    for (const d of [...dirs]) {
      if (seenDirs.has(d)) continue;
      dirs.delete(d);
      dirEvents.push({ t, path: d, present: false });
    }
  };

  const loop = () => {
    if (stopped) return;
    sample();
    timer = setTimeout(loop, intervalMs);
  };
  loop();

  const statesOf = (path: string) => states.filter((s) => s.path === path);
  const entriesSeen = (path: string): SeenEntry[] => {
    const seen = new Map<string, SeenEntry>();
    for (const s of statesOf(path)) {
      const entries = parseArray(s.content);
      if (!entries) continue;
      const present = new Set<string>();
      for (const e of entries) {
        const k = entryKey(e);
        present.add(k);
        const known = seen.get(k);
        if (!known) seen.set(k, { entry: e, firstSeen: s.t });
        else if (known.goneAt !== undefined) known.goneAt = undefined;
      }
      for (const [k, v] of seen) if (!present.has(k) && v.goneAt === undefined) v.goneAt = s.t;
    }
    return [...seen.values()];
  };
  return {
    states,
    dirEvents,
    teamNames,
    statesOf,
    entriesSeen,
    waitForEntry: (path, predicate, timeoutMs, what) =>
      waitFor(() => entriesSeen(path).find((e) => predicate(e.entry)), { what: what ?? `an entry in ${path}`, timeoutMs }),
    files: () => [...new Set(states.map((s) => s.path))],
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      watcher?.close();
      // One last look, so the final state (e.g. a deletion) is on record.
      sample();
    },
  };
}
