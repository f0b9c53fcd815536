// What Teamdeck remembers about a team beside its journal, so the team stays listed, with its
// members and era, after Claude deletes its folder: `<state>/journal/<team>/team.json`.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { claudeVersionIn } from '../../shared/claude-versions.js';
import type { MemberInfo, TeamEra } from '../../shared/types.js';
import { writeFileAtomic } from '../files/atomic-write.js';
import { isSafeSegment } from '../claude/paths.js';

export const TEAM_META_FILE = 'team.json';

export interface TeamMeta {
  v: 1;
  id: string;
  name: string;
  era: TeamEra;
  createdAt?: number;
  leadSessionId?: string;
  /** Every member the team ever had, config members as last seen. */
  members: MemberInfo[];
  endedAt?: number;
  endedReason?: string;
  /**
   * The Claude Code version its lead ran, as last known (absent in files written before it was
   * kept, and while none was known): an ended team's line still says it.
   */
  claudeVersion?: string;
}

export function journalDirOf(stateDir: string, teamId: string): string {
  return join(stateDir, 'journal', teamId);
}

/** The team's remembered facts, or undefined when none were written or the file is unusable. */
export async function readTeamMeta(journalDir: string): Promise<TeamMeta | undefined> {
  try {
    const v = JSON.parse(await readFile(join(journalDir, TEAM_META_FILE), 'utf8')) as Partial<TeamMeta>;
    if (v?.v !== 1 || typeof v.id !== 'string' || typeof v.name !== 'string' || !Array.isArray(v.members)) return undefined;
    if (v.era !== 'legacy' && v.era !== 'current') return undefined;
    // A version that cannot be Claude's is not remembered; the rest of the file still is.
    if (v.claudeVersion !== undefined && claudeVersionIn(v.claudeVersion) === undefined) delete v.claudeVersion;
    return v as TeamMeta;
  } catch {
    return undefined;
  }
}

export async function writeTeamMeta(journalDir: string, meta: TeamMeta): Promise<void> {
  await writeFileAtomic(join(journalDir, TEAM_META_FILE), JSON.stringify(meta, null, 1) + '\n');
}

/** Teams with a journal in the state dir: every team Teamdeck ever saw, running or ended. */
export async function listJournalTeams(stateDir: string): Promise<string[]> {
  try {
    const names = await readdir(join(stateDir, 'journal'), { withFileTypes: true });
    return names.filter((d) => d.isDirectory() && isSafeSegment(d.name) && !d.name.startsWith('.')).map((d) => d.name);
  } catch {
    return [];
  }
}

/** Config members first, as now; members only remembered keep their place after them. */
export function mergeMembers(now: MemberInfo[], remembered: MemberInfo[]): MemberInfo[] {
  const names = new Set(now.map((m) => m.name));
  return [...now, ...remembered.filter((m) => !names.has(m.name)).map((m) => ({ ...m, inConfig: false }))];
}
