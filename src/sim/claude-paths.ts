// Where Claude Code puts a team's files (docs/claude-contract.md#paths, #sessions, #transcripts),
// re-derived here rather than imported from the core, so the simulator checks the core instead of
// echoing it.
import { dirname, join, resolve } from 'node:path';

/** The version the current era is modelled on; every current-era shape here was checked against it. */
export const CLAUDE_VERSION = '2.1.332';

export type SimEra = 'current' | 'legacy';
export const SIM_ERAS: readonly SimEra[] = ['current', 'legacy'];

/** Team folder: every char outside [a-zA-Z0-9] becomes '-', lower-cased. */
export function teamDirName(teamName: string): string {
  return teamName.replace(/[^a-zA-Z0-9]/g, '-').toLowerCase();
}

/** Inbox stem: every char outside [a-zA-Z0-9_-] becomes '-', case kept. */
export function inboxFileStem(memberName: string): string {
  return memberName.replace(/[^a-zA-Z0-9_-]/g, '-');
}

/** The current era's only team name: `session-` and the first 8 characters of the lead's session id. */
export const SESSION_TEAM = /^session-[0-9a-f]{8}$/;

export function sessionTeamName(sessionId: string): string {
  return `session-${sessionId.slice(0, 8)}`;
}

/** `<config>`: the teams root is always `<config>/teams`, so its parent holds sessions, projects and tasks. */
export function claudeConfigDir(teamsDir: string): string {
  return dirname(resolve(teamsDir));
}

/** Transcript folder name for a working directory: `/` becomes `-`. */
export function projectSlug(cwd: string): string {
  return cwd.replace(/\//g, '-');
}

export function simTeamPaths(teamsDir: string, team: string) {
  const id = teamDirName(team);
  const dir = join(teamsDir, id);
  return {
    id,
    dir,
    configPath: join(dir, 'config.json'),
    inboxesDir: join(dir, 'inboxes'),
    inbox: (member: string) => join(dir, 'inboxes', `${inboxFileStem(member)}.json`),
  };
}

/** Files of the current era that live beside the teams root, under `<config>`. */
export function claudeSidePaths(teamsDir: string) {
  const config = claudeConfigDir(teamsDir);
  return {
    config,
    sessionFile: (pid: number) => join(config, 'sessions', `${pid}.json`),
    tasksDir: (team: string) => join(config, 'tasks', inboxFileStem(team)),
    leadTranscript: (cwd: string, sessionId: string) => join(config, 'projects', projectSlug(cwd), `${sessionId}.jsonl`),
    subagentsDir: (cwd: string, leadSessionId: string) => join(config, 'projects', projectSlug(cwd), leadSessionId, 'subagents'),
  };
}
