// The pinned Claude Code binary: one version constant, a cache outside the repository, and a
// fetch from the npm registry when the cache is empty. The platform package holds one
// self-contained native executable (package/claude), so nothing is installed and Node's
// version does not matter.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The Claude Code version the contract tests pin. A newer pin is this line, PROVEN_CLAUDE in src/shared/claude-versions.ts, and new fixtures. */
export const PINNED_CLAUDE_CODE_VERSION = '2.1.337';

/**
 * The version this run tests: `$TEAMDECK_CLAUDE_VERSION` (the compatibility run sets it, one
 * version per suite run), else the pin.
 */
export function selectedClaudeVersion(env: NodeJS.ProcessEnv = process.env): string {
  const v = env.TEAMDECK_CLAUDE_VERSION?.trim();
  if (!v) return PINNED_CLAUDE_CODE_VERSION;
  if (!/^\d+\.\d+\.\d+$/.test(v)) throw new Error(`TEAMDECK_CLAUDE_VERSION must look like 2.1.337, not "${v}"`);
  return v;
}

/** The Claude Code version under test in this process. */
export const CLAUDE_CODE_VERSION = selectedClaudeVersion();

/** Only this platform package has been exercised. */
const PLATFORM_PACKAGE = '@anthropic-ai/claude-code-linux-x64';

export type ClaudeBinary = { path: string; version: string } | { skip: string };

/** `$TEAMDECK_CLAUDE_CACHE`, else `${XDG_CACHE_HOME:-~/.cache}/teamdeck/claude-code`. */
export function claudeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TEAMDECK_CLAUDE_CACHE) return env.TEAMDECK_CLAUDE_CACHE;
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'teamdeck', 'claude-code');
}

export function claudeBinaryPath(version = CLAUDE_CODE_VERSION, env: NodeJS.ProcessEnv = process.env): string {
  return join(claudeCacheDir(env), version, 'claude');
}

/** The first line `claude --version` prints, or the reason it did not run. */
function reportedVersion(path: string): { line: string } | { error: string } {
  const r = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 30_000, env: { PATH: '/usr/bin:/bin', HOME: homedir() } });
  if (r.error) return { error: r.error.message };
  if (r.status !== 0) return { error: `exit ${r.status}: ${(r.stderr || r.stdout).trim().slice(0, 300)}` };
  return { line: r.stdout.trim().split('\n')[0] ?? '' };
}

function runsAs(path: string, version: string): string | undefined {
  const v = reportedVersion(path);
  if ('error' in v) return `${path} --version failed: ${v.error}`;
  if (!v.line.startsWith(`${version} `)) return `${path} --version says "${v.line}", expected ${version}`;
  return undefined;
}

/** Downloads the platform package with npm, extracts only package/claude, and moves it into the cache atomically. */
function fetchInto(target: string, version: string, log: (line: string) => void): string | undefined {
  const cacheDir = join(target, '..', '..');
  mkdirSync(cacheDir, { recursive: true });
  // The scratch folder sits inside the cache so the final rename stays on one file system.
  const scratch = mkdtempSync(join(cacheDir, `.fetch-${version}-`));
  try {
    log(`fetching ${PLATFORM_PACKAGE}@${version} with npm pack (about 186 MB)`);
    const pack = spawnSync('npm', ['pack', `${PLATFORM_PACKAGE}@${version}`, '--pack-destination', scratch, '--loglevel', 'error'], {
      encoding: 'utf8',
      timeout: 15 * 60_000,
      cwd: scratch,
    });
    if (pack.error || pack.status !== 0) {
      const lines = (pack.stderr || pack.stdout).split('\n').filter((l) => /^npm error \S/.test(l) && !l.includes('A complete log'));
      const why = pack.error?.message ?? lines.slice(0, 2).join(' | ');
      return `npm pack ${PLATFORM_PACKAGE}@${version} failed: ${why || `exit ${pack.status}`}`;
    }
    const tgz = readdirSync(scratch).find((f) => f.endsWith('.tgz'));
    if (!tgz) return `npm pack ${PLATFORM_PACKAGE}@${version} produced no .tgz`;
    const untar = spawnSync('tar', ['-xzf', join(scratch, tgz), '-C', scratch, 'package/claude'], { encoding: 'utf8', timeout: 5 * 60_000 });
    if (untar.error || untar.status !== 0) return `extracting package/claude failed: ${untar.error?.message ?? untar.stderr.trim()}`;
    const extracted = join(scratch, 'package', 'claude');
    const bad = runsAs(extracted, version);
    if (bad) return bad;
    mkdirSync(join(target, '..'), { recursive: true });
    renameSync(extracted, target);
    log(`cached ${target}`);
    return undefined;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** CI set to anything but an explicit no. */
export function isCI(env: NodeJS.ProcessEnv = process.env): boolean {
  return !!env.CI && !/^(0|false|no)$/i.test(env.CI);
}

const checked = new Map<string, ClaudeBinary>();

/**
 * The pinned binary, from the cache or fetched into it; `{ skip }` with the reason when it
 * cannot be had (another platform, no registry, a broken download).
 */
export function ensureClaudeBinary(opts: { version?: string; log?: (line: string) => void } = {}): ClaudeBinary {
  const version = opts.version ?? CLAUDE_CODE_VERSION;
  const target = claudeBinaryPath(version);
  const known = checked.get(target);
  if (known) return known;
  let result: ClaudeBinary;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    result = { skip: `the Claude Code contract tests run on linux-x64 only (this is ${process.platform}-${process.arch})` };
  } else {
    let why: string | undefined;
    if (!existsSync(target) || !executable(target)) why = fetchInto(target, version, opts.log ?? (() => {}));
    why ??= runsAs(target, version);
    result = why ? { skip: `Claude Code ${version} is not available: ${why}` } : { path: target, version };
  }
  checked.set(target, result);
  return result;
}

/**
 * For test files: the binary, or the reason to skip. Under CI a missing binary is an error,
 * not a skip: CI must run the contract tests (.ci/run prefetches the binary).
 */
export function claudeForTests(): ClaudeBinary {
  const b = ensureClaudeBinary({ log: (l) => process.stderr.write(`[claude-binary] ${l}\n`) });
  if ('skip' in b && isCI()) throw new Error(`CI is set, so the Claude Code contract tests must run, but: ${b.skip}`);
  return b;
}
