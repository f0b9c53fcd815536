// What a launch runs, worked out before anything starts: the project folder (which must exist),
// the `claude` executable (from Settings or the PATH; it must be executable), its arguments
// from the launch request, and the environment the lead gets. Every refusal is in words.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, delimiter, isAbsolute, join, resolve } from 'node:path';
import type { LaunchRequest, PermissionModeChoice } from '../../shared/types.js';
import { TerminalError } from './types.js';

/** The terminal's id: `t-` + 12 hex (also the tmux session name). */
export function newTerminalId(): string {
  return `t-${randomBytes(6).toString('hex')}`;
}

function home(env: NodeJS.ProcessEnv): string {
  return env.HOME || homedir();
}

/** `~` and `~/…` as the home folder; anything else unchanged. */
export function expandHome(path: string, env: NodeJS.ProcessEnv): string {
  if (path === '~') return home(env);
  if (path.startsWith('~/')) return join(home(env), path.slice(2));
  return path;
}

/** The project folder as an absolute path; refuses one that is missing or not a folder. */
export async function resolveCwd(cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const given = cwd.trim();
  if (!given) throw new TerminalError('Choose the project folder the lead should work in', 'refused');
  const path = expandHome(given, env);
  if (!isAbsolute(path)) throw new TerminalError(`The project folder must be an absolute path (or start with ~/), not "${given}"`, 'refused');
  const abs = resolve(path);
  let st;
  try {
    st = await stat(abs);
  } catch {
    throw new TerminalError(`The project folder ${abs} does not exist`, 'refused');
  }
  if (!st.isDirectory()) throw new TerminalError(`${abs} is not a folder; choose the project folder the lead should work in`, 'refused');
  return abs;
}

async function isExecutableFile(path: string): Promise<'ok' | 'missing' | 'not-file' | 'not-executable'> {
  try {
    if (!(await stat(path)).isFile()) return 'not-file';
  } catch {
    return 'missing';
  }
  try {
    await access(path, constants.X_OK);
    return 'ok';
  } catch {
    return 'not-executable';
  }
}

/** The first executable `name` in the PATH of `env`. */
export async function findOnPath(name: string, env: NodeJS.ProcessEnv, extraDirs: string[] = []): Promise<string | undefined> {
  const dirs = [...(env.PATH ?? '').split(delimiter), ...extraDirs].filter((d) => isAbsolute(d));
  for (const dir of dirs) {
    const candidate = join(dir, name);
    if ((await isExecutableFile(candidate)) === 'ok') return candidate;
  }
  return undefined;
}

/**
 * The `claude` to run: the path from Settings (absolute or `~/…`, or a bare name looked up on
 * the PATH), or `claude` on the PATH when Settings leaves it empty.
 */
export async function resolveClaude(setting: string, env: NodeJS.ProcessEnv): Promise<string> {
  const given = setting.trim();
  if (!given || !given.includes('/')) {
    const name = given || 'claude';
    const found = await findOnPath(name, env);
    if (!found) {
      throw new TerminalError(
        given ? `${name} was not found on the PATH; set the full path of claude in Settings` : 'claude was not found on the PATH; set its path in Settings',
        'unavailable',
      );
    }
    return found;
  }
  const path = expandHome(given, env);
  if (!isAbsolute(path)) throw new TerminalError(`The claude path in Settings must be absolute (or start with ~/), not "${given}"`, 'unavailable');
  const abs = resolve(path);
  switch (await isExecutableFile(abs)) {
    case 'ok':
      return abs;
    case 'missing':
      throw new TerminalError(`The claude path in Settings (${abs}) does not exist; fix it in Settings`, 'unavailable');
    case 'not-file':
      throw new TerminalError(`The claude path in Settings (${abs}) is not a file; fix it in Settings`, 'unavailable');
    case 'not-executable':
      throw new TerminalError(`The claude path in Settings (${abs}) is not executable; fix it in Settings`, 'unavailable');
  }
}

/** The command-line flag(s) for a permission mode. */
export function permissionArgs(mode: PermissionModeChoice | undefined): string[] {
  if (!mode) return [];
  if (mode === 'bypassPermissions') return ['--dangerously-skip-permissions'];
  return ['--permission-mode', mode];
}

/**
 * claude's arguments: `--model`, the permission mode, then the prompt as the one positional
 * argument after `--` (claude 2.1.332 takes `-- <prompt>`, so a prompt that starts with `-` is
 * not read as an option; without `--` it says "error: unknown option").
 */
export function claudeArgs(req: Pick<LaunchRequest, 'model' | 'permissionMode' | 'prompt'>): string[] {
  const args: string[] = [];
  const model = req.model?.trim();
  if (model) args.push('--model', model);
  args.push(...permissionArgs(req.permissionMode));
  if (req.prompt !== undefined && req.prompt.trim() !== '') args.push('--', req.prompt);
  return args;
}

/** Variables a lead must not inherit: it does not run inside the user's tmux, whatever started Teamdeck. */
export const DROPPED_ENV = ['TMUX', 'TMUX_PANE'] as const;

/**
 * The lead's environment: `base` without TMUX*, with the agent-teams switch on, TERM as the
 * hosted terminal is, and PWD the project folder (a tmux pane would otherwise inherit the
 * server's PWD).
 */
export function launchEnv(base: NodeJS.ProcessEnv, cwd: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined && !(DROPPED_ENV as readonly string[]).includes(k)) env[k] = v;
  env.CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS = '1';
  env.TERM = 'xterm-256color';
  env.PWD = cwd;
  return env;
}

/** One line for lists: the project folder's name, and the team once the lead made one. */
export function terminalTitle(cwd: string, team?: string): string {
  const name = basename(cwd) || cwd;
  return team ? `${name} · ${team}` : name;
}
