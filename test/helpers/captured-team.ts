// A live copy of the team captured from Claude Code 2.1.332 (test/fixtures/claude-2.1.332/
// team-lifecycle) in a temp config dir: its config names a lead process that runs (by default
// this one), its sessions file is one of the captured versions under that pid, and its
// transcripts are the captured ones. The committed files are only ever copied.
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { procStartOf } from '../../src/engine/claude/lifecycle.js';
import { REPO_ROOT } from './tmp.js';

export const CAPTURE = join(REPO_ROOT, 'test', 'fixtures', 'claude-2.1.332', 'team-lifecycle');
export const CAPTURED_TEAM = 'session-cc4ff1d9';
export const CAPTURED_SESSION = 'cc4ff1d9-7874-413b-94e4-5b8d2fe0f369';
export const CAPTURED_PROJECT = join('projects', '-home-me-proj');
export const CAPTURED_SUBAGENTS = join(CAPTURED_PROJECT, CAPTURED_SESSION, 'subagents');
export const CAPTURED_TX = {
  'team-lead': join(CAPTURED_PROJECT, `${CAPTURED_SESSION}.jsonl`),
  researcher: join(CAPTURED_SUBAGENTS, 'agent-aresearcher-4932618ede0d71b5.jsonl'),
  writer: join(CAPTURED_SUBAGENTS, 'agent-awriter-c1b03a57fea8205a.jsonl'),
} as const;

export interface CapturedTeamOptions {
  pid?: number;
  /** Which captured config version (3: lead, researcher, writer; 4: writer gone). */
  config?: 1 | 2 | 3 | 4;
  /** Which captured sessions file version (1..11), or none. */
  session?: number | 'none';
  /** Copy the captured transcripts (default true). */
  transcripts?: boolean;
}

/** Writes the live copy under `configDir` (teams/, sessions/, projects/) and returns the team's folder. */
export async function liveCapturedTeam(configDir: string, opts: CapturedTeamOptions = {}): Promise<string> {
  const pid = opts.pid ?? process.pid;
  const cfg = JSON.parse(await readFile(join(CAPTURE, 'teams', CAPTURED_TEAM, `config.00${opts.config ?? 3}.json`), 'utf8'));
  cfg.leadProcess = { ...cfg.leadProcess, pid, procStart: procStartOf(pid) };
  delete cfg.leadProcess.pidSpace;
  const dir = join(configDir, 'teams', CAPTURED_TEAM);
  await mkdir(join(dir, 'inboxes'), { recursive: true });
  await writeFile(join(dir, 'config.json'), JSON.stringify(cfg, null, 2));
  for (const m of ['team-lead', 'researcher']) await writeFile(join(dir, 'inboxes', `${m}.json`), '[]');
  if (opts.session !== 'none') await writeSessionVersion(configDir, opts.session ?? 11, pid);
  if (opts.transcripts !== false) await cp(join(CAPTURE, 'projects'), join(configDir, 'projects'), { recursive: true });
  await mkdir(join(configDir, 'tasks', CAPTURED_TEAM), { recursive: true });
  return dir;
}

/** A captured sessions file version, under `pid`, with fields changed as given (rewritten in place). */
export async function writeSessionVersion(configDir: string, version: number, pid = process.pid, patch: Record<string, unknown> = {}): Promise<string> {
  const s = JSON.parse(await readFile(join(CAPTURE, 'sessions', `12022.${String(version).padStart(3, '0')}.json`), 'utf8'));
  const path = join(configDir, 'sessions', `${pid}.json`);
  await mkdir(join(configDir, 'sessions'), { recursive: true });
  await writeFile(path, JSON.stringify({ ...s, pid, ...patch }));
  return path;
}
