import { homedir } from 'node:os';
import { join, resolve, relative, isAbsolute, sep } from 'node:path';
import { inboxFileStem } from '../../shared/threads.js';
import { TeamdeckError } from '../errors.js';

/** Claude derives a team's folder from its name: every char outside [a-zA-Z0-9] becomes '-', lower-cased. */
export function teamDirName(teamName: string): string {
  return teamName.replace(/[^a-zA-Z0-9]/g, '-').toLowerCase();
}

/** The legacy era's name for the human: also the stem of the user's mailbox there. */
export const LEGACY_SENDER = 'user';

// Claude's inbox file stem for a member: every char outside [a-zA-Z0-9_-] becomes '-'. The rule
// lives in shared/threads.ts, where the window's thread rule uses it too.
export { inboxFileStem };

export interface RootOptions {
  teamsDir?: string;
  env?: NodeJS.ProcessEnv;
}

/** --teams-dir, then TEAMDECK_TEAMS_DIR, then $CLAUDE_CONFIG_DIR/teams, then ~/.claude/teams. */
export function resolveTeamsRoot(opts: RootOptions = {}): { root: string; source: string } {
  const env = opts.env ?? process.env;
  if (opts.teamsDir) return { root: resolve(opts.teamsDir), source: '--teams-dir' };
  if (env.TEAMDECK_TEAMS_DIR) return { root: resolve(env.TEAMDECK_TEAMS_DIR), source: 'TEAMDECK_TEAMS_DIR' };
  if (env.CLAUDE_CONFIG_DIR) return { root: resolve(env.CLAUDE_CONFIG_DIR, 'teams'), source: 'CLAUDE_CONFIG_DIR' };
  return { root: join(homedir(), '.claude', 'teams'), source: 'default' };
}

/** --state-dir, then TEAMDECK_STATE_DIR, then the platform's app-data folder. */
export function resolveStateDir(opts: { stateDir?: string; env?: NodeJS.ProcessEnv } = {}): string {
  const env = opts.env ?? process.env;
  if (opts.stateDir) return resolve(opts.stateDir);
  if (env.TEAMDECK_STATE_DIR) return resolve(env.TEAMDECK_STATE_DIR);
  return platformStateDir(env);
}

/** The platform's app-data folder for Teamdeck, whatever state dir a run was given. */
export function platformStateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Teamdeck');
  if (process.platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Teamdeck');
  return join(env.XDG_STATE_HOME ?? join(homedir(), '.local', 'state'), 'teamdeck');
}

/** A name that would resolve outside the teams root: a refusal, not a crash. */
export class PathEscapeError extends TeamdeckError {
  constructor(what: string, why = 'resolves outside the teams root') {
    super('refused', `refused: ${what} ${why}`);
  }
}

/** Joins parts under root and refuses any result that is not strictly inside root. */
export function insideRoot(root: string, ...parts: string[]): string {
  for (const p of parts) {
    if (p.includes('\0')) throw new PathEscapeError(JSON.stringify(p));
  }
  const full = resolve(root, ...parts);
  const rel = relative(resolve(root), full);
  if (rel === '' || rel.startsWith('..' + sep) || rel === '..' || isAbsolute(rel)) {
    throw new PathEscapeError(JSON.stringify(parts.join('/')));
  }
  return full;
}

/** A team id is a folder name under the root: one path segment, no dots-only names. */
export function isSafeSegment(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= 255 &&
    name !== '.' &&
    name !== '..' &&
    !/[/\\\0]/.test(name) &&
    !/[\x00-\x1f\x7f]/.test(name)
  );
}

/** A Claude session id (a UUID), as it names a session's transcript and folder. */
export const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The session a transcript file name (`<session id>.jsonl`) is of, or undefined for any other name. */
export function sessionOfTranscript(name: string): string | undefined {
  const id = name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : '';
  return SESSION_ID.test(id) ? id : undefined;
}

/** Longest inbox file stem: the longest name built from it, `<stem>.json.tmp.<8 hex>`, must fit 255 bytes. */
export const MAX_INBOX_STEM = 255 - '.json.tmp.12345678'.length;

export function teamPaths(root: string, teamId: string) {
  if (!isSafeSegment(teamId)) throw new PathEscapeError(`team ${JSON.stringify(teamId)}`);
  const dir = insideRoot(root, teamId);
  return {
    dir,
    config: join(dir, 'config.json'),
    inboxes: join(dir, 'inboxes'),
    inbox: (memberName: string) => {
      const stem = inboxFileStem(memberName);
      // The stem is ASCII, so characters are bytes. A longer one would fail as ENAMETOOLONG on
      // every retry (and is no path escape): refuse it with the real reason.
      if (stem.length > MAX_INBOX_STEM) {
        throw new PathEscapeError(`member ${JSON.stringify(memberName.slice(0, 40))}…`, `is too long for an inbox file name (${stem.length} characters; at most ${MAX_INBOX_STEM})`);
      }
      if (!isSafeSegment(stem)) throw new PathEscapeError(`member ${JSON.stringify(memberName)}`);
      return insideRoot(root, teamId, 'inboxes', `${stem}.json`);
    },
  };
}
