// Claude Code 2.1.332's task list (docs/claude-contract.md#tasks):
// `<config>/tasks/<list>/<id>.json`, `<list>` the team name sanitised like inbox names. TaskCreate
// writes a plain file under the list lock, TaskUpdate writes a temp file and renames it over;
// `.lock`, `.highwatermark`, lock folders and temp files sit beside them. The tools are off by
// default, so an empty or missing folder is the common case. A file that does not parse is a
// problem naming it; the others still show.
import { lstat, readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, sep } from 'node:path';
import { z } from 'zod';
import type { TaskBoard, TaskItem, TeamProblem } from '../../shared/types.js';
import { readBounded, UnreadableFileError } from '../files/read-whole.js';

/** A task file larger than this is not read (Claude's are a few hundred bytes). */
export const MAX_TASK_FILE_BYTES = 1024 * 1024;
/** Task files read per list, at most. */
const MAX_TASK_FILES = 2_000;
const TORN_RETRY_MS = 30;

/** The list folder of a team's tasks: `[^a-zA-Z0-9_-]` → `-`, as for inbox names. */
export function taskListName(team: string): string {
  return team.replace(/[^a-zA-Z0-9_-]/g, '-');
}

export function taskListDir(configDir: string, team: string): string {
  return join(configDir, 'tasks', taskListName(team));
}

/** Only `<name>.json` task files: never locks, the high-water mark, temp files or dot files. */
export function isTaskFileName(name: string): boolean {
  return name.endsWith('.json') && !name.startsWith('.') && !/\.tmp\./.test(name) && !name.includes('.lock');
}

const idSchema = z.union([z.string().max(200), z.number().transform(String)]);

const taskSchema = z.looseObject({
  id: idSchema,
  subject: z.string().max(10_000),
  description: z.string().max(200_000).optional(),
  activeForm: z.string().max(10_000).optional(),
  owner: z.string().max(1_000).optional(),
  status: z.enum(['pending', 'in_progress', 'completed']),
  blocks: z.array(idSchema).max(10_000).default([]),
  blockedBy: z.array(idSchema).max(10_000).default([]),
  metadata: z.unknown().optional(),
});

export type TaskParse = { task: TaskItem } | { problem: string };

/** One task file's text, checked with the shape Claude writes (unknown fields dropped). */
export function parseTask(text: string): TaskParse {
  let json: unknown;
  try {
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return { problem: 'not valid JSON' };
  }
  const r = taskSchema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue?.path.length ? issue.path.map(String).join('.') : 'the file';
    return { problem: `not a task: ${where}: ${issue?.message ?? 'invalid'}`.slice(0, 300) };
  }
  const d = r.data;
  const task: TaskItem = { id: d.id, subject: d.subject, status: d.status, blocks: d.blocks, blockedBy: d.blockedBy };
  if (d.description !== undefined) task.description = d.description;
  if (d.activeForm !== undefined) task.activeForm = d.activeForm;
  if (d.owner !== undefined) task.owner = d.owner;
  return { task };
}

/** Ids that are numbers sort as numbers (Claude counts 1, 2, ... 10). */
function byId(a: TaskItem, b: TaskItem): number {
  const na = Number(a.id);
  const nb = Number(b.id);
  if (Number.isFinite(na) && Number.isFinite(nb) && na !== nb) return na - nb;
  return a.id.localeCompare(b.id);
}

interface Cached {
  signature: string;
  parsed: TaskParse;
}

/**
 * Reads a team's task list, re-parsing only files whose signature (inode, size, mtime) changed
 * since the last read: a hint from the folder watch costs one readdir and one lstat per file.
 */
/** A path as a person reads it: the home folder as `~`. */
export function homeAsTilde(path: string, home = homedir()): string {
  if (!home) return path;
  if (path === home) return '~';
  return path.startsWith(home + sep) ? `~${path.slice(home.length)}` : path;
}

export class TaskListReader {
  private cache = new Map<string, Cached>();

  constructor(
    readonly configDir: string,
    readonly team: string,
  ) {}

  get list(): string {
    return taskListName(this.team);
  }

  get dir(): string {
    return taskListDir(this.configDir, this.team);
  }

  async read(): Promise<TaskBoard> {
    const board: TaskBoard = { team: this.team, list: this.list, folder: homeAsTilde(this.dir), exists: false, tasks: [], problems: [] };
    const rel = (name?: string) => (name === undefined ? `tasks/${this.list}` : `tasks/${this.list}/${name}`);
    // The tasks folder and the list folder must be real folders: a link is never followed.
    for (const d of [join(this.configDir, 'tasks'), this.dir]) {
      // Not there (no task was made for the team yet, the usual case), or not ours to look at: no board.
      const st = await lstat(d).catch(() => undefined);
      if (!st) return this.forget(board);
      if (!st.isDirectory()) {
        board.problems.push(problem(d === this.dir ? rel() : 'tasks', st.isSymbolicLink() ? 'is a symbolic link; not followed' : 'is not a folder'));
        return this.forget(board);
      }
    }
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter(isTaskFileName).sort();
    } catch (e) {
      board.problems.push(problem(rel(), `cannot be listed (${(e as NodeJS.ErrnoException).code ?? 'error'})`));
      return board;
    }
    board.exists = true;
    if (names.length > MAX_TASK_FILES) {
      board.problems.push(problem(rel(), `holds ${names.length} task files; the first ${MAX_TASK_FILES} are shown`));
      names = names.slice(0, MAX_TASK_FILES);
    }
    const next = new Map<string, Cached>();
    for (const name of names) {
      const parsed = await this.readOne(name);
      if (!parsed) continue;
      next.set(name, parsed);
      if ('task' in parsed.parsed) board.tasks.push(parsed.parsed.task);
      else board.problems.push(problem(rel(name), parsed.parsed.problem));
    }
    this.cache = next;
    board.tasks.sort(byId);
    return board;
  }

  private forget(board: TaskBoard): TaskBoard {
    this.cache.clear();
    return board;
  }

  private async readOne(name: string): Promise<Cached | undefined> {
    const path = join(this.dir, name);
    let st;
    try {
      st = await lstat(path);
    } catch {
      return undefined; // deleted between the listing and now
    }
    if (st.isDirectory()) return undefined;
    const signature = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    const hit = this.cache.get(name);
    if (hit && hit.signature === signature) return hit;
    if (st.isSymbolicLink()) return { signature, parsed: { problem: 'is a symbolic link; not followed' } };
    try {
      let parsed = parseTask((await readBounded(path, MAX_TASK_FILE_BYTES)).toString('utf8'));
      // TaskCreate writes in place, without a rename: a torn read is read once more.
      if ('problem' in parsed && parsed.problem === 'not valid JSON') {
        await new Promise((r) => setTimeout(r, TORN_RETRY_MS));
        parsed = parseTask((await readBounded(path, MAX_TASK_FILE_BYTES)).toString('utf8'));
      }
      return { signature, parsed };
    } catch (e) {
      if (e instanceof UnreadableFileError) return { signature, parsed: { problem: e.message } };
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      return { signature, parsed: { problem: `cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})` } };
    }
  }
}

/** Task problems name the file relative to Claude's config dir (`tasks/<list>/<file>`). */
function problem(file: string, message: string): TeamProblem {
  return { kind: 'config', file, message };
}
