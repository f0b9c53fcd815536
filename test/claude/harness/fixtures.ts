// Turns one run into committed fixtures: every observed state of the team and session files
// as numbered snapshots, the transcripts, and a timeline. The scratch run folder's path is the
// only thing changed (to a neutral /home/me), so no path of the capturing machine is kept;
// everything else is byte-exact.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { claudeCacheDir } from './binary.js';
import type { Observer } from './observer.js';

export const PLACEHOLDER_ROOT = '/home/me';
/** Stands in for this machine's /etc/machine-id, which Claude puts in pidDomain. */
export const PLACEHOLDER_MACHINE_ID = '0'.repeat(32);

function machineId(): string | undefined {
  for (const f of ['/etc/machine-id', '/var/lib/dbus/machine-id']) {
    if (!existsSync(f)) continue;
    const id = readFileSync(f, 'utf8').trim();
    if (/^[0-9a-f]{32}$/.test(id)) return id;
  }
  return undefined;
}

export interface Scrubber {
  scrub(text: string): string;
  /** Machine-specific strings still present after scrubbing. */
  leaks(text: string): string[];
}

/** Claude's project slug for a path: every non-alphanumeric character becomes '-'. */
export function projectSlug(path: string): string {
  return path.replace(/[^a-zA-Z0-9]/g, '-');
}

export function makeScrubber(runDir: string): Scrubber {
  const cache = claudeCacheDir();
  const id = machineId();
  const pairs: Array<[string, string]> = (
    [
      [runDir, PLACEHOLDER_ROOT],
      [projectSlug(runDir), projectSlug(PLACEHOLDER_ROOT)],
      // The debug log names the binary (its embedded ripgrep).
      [cache, `${PLACEHOLDER_ROOT}/.cache/teamdeck/claude-code`],
      ...(id ? [[id, PLACEHOLDER_MACHINE_ID]] : []),
    ] as Array<[string, string]>
  ).sort((a, b) => b[0].length - a[0].length);
  const suspicious = [runDir, projectSlug(runDir), cache, ...(id ? [id] : []), ...new Set([process.env.HOME, process.cwd()].filter((p): p is string => !!p && p.length > 1))];
  return {
    scrub: (text) => pairs.reduce((s, [from, to]) => s.split(from).join(to), text),
    leaks: (text) => suspicious.filter((p) => text.includes(p)),
  };
}

export interface TimelineFile {
  /** ms since the lead was launched. */
  t: number;
  /** The file as Claude named it (relative to the config dir, scrubbed). */
  file: string;
  /** The snapshot in the fixture folder, or null when the file was removed. */
  snapshot: string | null;
  inode?: string;
}

export interface TimelineDir {
  t: number;
  dir: string;
  /** true: seen by sampling; false: gone; 'watch': a name a watch on teams/ reported. */
  present: boolean | 'watch';
}

function write(out: string, rel: string, text: string): void {
  const abs = join(out, rel);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, text);
}

/** `inboxes/researcher.json` + 3 → `inboxes/researcher.003.json`. */
function numbered(rel: string, n: number): string {
  const dot = rel.lastIndexOf('.');
  return `${rel.slice(0, dot)}.${String(n).padStart(3, '0')}${rel.slice(dot)}`;
}

/**
 * Writes every state the observer recorded. A `<pid>.<sha256>.key` file is named by the
 * sha256 of the lead's messagingSocketPath: it is renamed with the hash of the scrubbed path
 * so the pair stays consistent.
 */
export function writeSnapshots(observer: Observer, out: string, t0: number, s: Scrubber): { files: TimelineFile[]; dirs: TimelineDir[] } {
  const rehash = new Map<string, string>();
  for (const st of observer.states) {
    const m = /^sessions\/(\d+)\.json$/.exec(st.path);
    if (!m || !st.content) continue;
    try {
      const sock = JSON.parse(st.content).messagingSocketPath;
      if (typeof sock === 'string') {
        const sha = (p: string) => createHash('sha256').update(p).digest('hex');
        rehash.set(sha(sock), sha(s.scrub(sock)));
      }
    } catch {
      // a torn read: another state of the same file names the socket
    }
  }
  const renamed = (rel: string) => [...rehash].reduce((r, [from, to]) => r.split(from).join(to), s.scrub(rel));
  const counts = new Map<string, number>();
  const files: TimelineFile[] = [];
  for (const st of observer.states) {
    const file = renamed(st.path);
    if (st.content === undefined) {
      files.push({ t: st.t - t0, file, snapshot: null });
      continue;
    }
    const n = (counts.get(file) ?? 0) + 1;
    counts.set(file, n);
    const snapshot = numbered(file, n);
    write(out, snapshot, s.scrub(st.content));
    files.push({ t: st.t - t0, file, snapshot, inode: st.ino?.toString() });
  }
  const dirs: TimelineDir[] = [
    ...observer.dirEvents.map((d) => ({ t: d.t - t0, dir: s.scrub(d.path), present: d.present })),
    ...observer.teamNames.map((n) => ({ t: n.t - t0, dir: s.scrub(n.path), present: 'watch' as const })),
  ].sort((a, b) => a.t - b.t);
  return { files, dirs };
}

/** Copies a folder tree (transcripts), scrubbing names and text. Returns the files written. */
export function copyTree(src: string, out: string, into: string, s: Scrubber): string[] {
  const written: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const abs = join(dir, name);
      const st = statSync(abs, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory()) walk(abs);
      else if (st.isFile()) {
        const rel = join(into, s.scrub(relative(src, abs)));
        write(out, rel, s.scrub(readFileSync(abs, 'utf8')));
        written.push(rel);
      }
    }
  };
  walk(src);
  return written;
}

/** Every file under `dir` whose text still holds a machine-specific string. */
export function findLeaks(dir: string, s: Scrubber): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const abs = join(d, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else for (const leak of s.leaks(readFileSync(abs, 'utf8') + '\n' + abs.slice(dir.length))) found.push(`${relative(dir, abs)}: ${leak}`);
    }
  };
  walk(dir);
  return found;
}
