// Which running engine serves a teams folder. Every engine that serves its socket also leaves a
// note, keyed by the teams folder it watches, in one per-user folder that does not depend on
// the state dir it was given; so a command run with any state dir (the default one, or none
// given while the app or `npm start` uses a folder of its own) finds that engine and goes
// through it instead of starting a second engine on the same team files. The note names only
// the state dir: the socket's token stays in that dir's owner-only info file.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, realpath, rename, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { platformStateDir } from '../claude/paths.js';
import { pidAlive as alive } from '../pid-alive.js';

/** TEAMDECK_ENGINES_DIR, else `engines` in the platform's app-data folder for Teamdeck. */
export function engineRegistryDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.TEAMDECK_ENGINES_DIR ? resolve(env.TEAMDECK_ENGINES_DIR) : join(platformStateDir(env), 'engines');
}

const noteSchema = z.object({ teamsRoot: z.string(), stateDir: z.string(), pid: z.number().int() });
export type EngineNote = z.infer<typeof noteSchema>;

/** One teams folder, however it was spelt (a link, a trailing slash): its real path when it has one. */
async function canonical(path: string): Promise<string> {
  return realpath(path).catch(() => resolve(path));
}

async function notePath(teamsRoot: string, env: NodeJS.ProcessEnv): Promise<{ path: string; root: string }> {
  const root = await canonical(teamsRoot);
  const key = createHash('sha256').update(root, 'utf8').digest('hex').slice(0, 32);
  return { path: join(engineRegistryDir(env), `${key}.json`), root };
}


/**
 * Notes that this process's engine, owning `stateDir`, serves `teamsRoot`; returns the function
 * that takes the note away again (only while it is still this engine's).
 */
export async function registerEngine(teamsRoot: string, stateDir: string, env: NodeJS.ProcessEnv = process.env): Promise<() => Promise<void>> {
  const { path, root } = await notePath(teamsRoot, env);
  await mkdir(engineRegistryDir(env), { recursive: true, mode: 0o700 });
  const note: EngineNote = { teamsRoot: root, stateDir: resolve(stateDir), pid: process.pid };
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, JSON.stringify(note) + '\n', { mode: 0o600 });
  await rename(tmp, path);
  return async () => {
    const now = await readNote(path);
    // Another engine's note (it started on this folder after us) is not ours to remove.
    if (now?.pid === note.pid && now.stateDir === note.stateDir) await unlink(path).catch(() => {});
  };
}

async function readNote(path: string): Promise<EngineNote | undefined> {
  try {
    const r = noteSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
    return r.success ? r.data : undefined;
  } catch {
    // Missing, or torn by a crash mid-write: no engine to go to (a live one rewrites it on start).
    return undefined;
  }
}

/** Every engine noted as running (the app, `npm start`, `teamdeck serve` or `watch`), by its teams folder. */
export async function runningEngines(env: NodeJS.ProcessEnv = process.env): Promise<EngineNote[]> {
  const dir = engineRegistryDir(env);
  const names = await readdir(dir).catch(() => [] as string[]);
  const notes = await Promise.all(names.filter((n) => /^[0-9a-f]{32}\.json$/.test(n)).map((n) => readNote(join(dir, n))));
  return notes.filter((n): n is EngineNote => n !== undefined && alive(n.pid));
}

/** The engine noted as serving `teamsRoot`, when its process is still alive. */
export async function findEngineFor(teamsRoot: string, env: NodeJS.ProcessEnv = process.env): Promise<EngineNote | undefined> {
  const { path, root } = await notePath(teamsRoot, env);
  const note = await readNote(path);
  if (!note || note.teamsRoot !== root) return undefined;
  // One left by an engine that crashed stays until the next engine on this folder writes its own:
  // removing it here could race with that engine and remove the new note instead.
  return alive(note.pid) ? note : undefined;
}
