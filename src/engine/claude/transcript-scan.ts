// Agent teams found in Claude's transcripts (docs/claude-contract.md#record): a lead session
// whose `subagents/` folder holds teammates' `.meta.json` files naming a `teamName`, or whose
// pane teammates' own sessions name its team. Claude keeps transcripts for `cleanupPeriodDays`
// (30 by default), long after it removed the team's folder, so this is how a team Teamdeck never saw run is found. Reads only folder listings, the small
// meta files, file sizes and the first rows of session files; never through a link.
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readBounded } from '../files/read-whole.js';
import { paneOwnerOf } from './pane-transcripts.js';
import { sessionTeamPrefix } from './era.js';
import { SESSION_ID, sessionOfTranscript } from './paths.js';

export interface FoundMember {
  name: string;
  agentType?: string;
  model?: string;
  color?: string;
}

export interface FoundTeam {
  /** The team's name, which is its folder's name while it runs (`session-<8>` on 2.1.332). */
  teamName: string;
  leadSessionId: string;
  /** The teammates, as their `.meta.json` files name them, in file-name order. */
  members: FoundMember[];
  /** The lead's and the teammates' transcripts, with their sizes now. */
  files: Array<{ path: string; size: number }>;
  /** The latest write to any of them (ms). */
  lastWriteAt: number;
}

const META = /^agent-a.+-[0-9a-f]{16}\.meta\.json$/;

async function list(dir: string): Promise<string[]> {
  try {
    if (!(await lstat(dir)).isDirectory()) return [];
    return await readdir(dir);
  } catch {
    return [];
  }
}

async function fileSize(path: string): Promise<{ size: number; mtimeMs: number } | undefined> {
  try {
    const st = await lstat(path);
    return st.isFile() ? { size: st.size, mtimeMs: st.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** The teams one lead session's folder records (one on 2.1.332; grouped by `teamName` all the same). */
async function teamsOfSession(projectDir: string, sessionId: string): Promise<FoundTeam[]> {
  const lead = join(projectDir, `${sessionId}.jsonl`);
  const leadFile = await fileSize(lead);
  if (!leadFile) return [];
  const sub = join(projectDir, sessionId, 'subagents');
  const byTeam = new Map<string, FoundTeam>();
  for (const n of (await list(sub)).filter((x) => META.test(x)).sort()) {
    let meta: Record<string, unknown>;
    try {
      meta = JSON.parse((await readBounded(join(sub, n), 1_000_000)).toString('utf8')) as Record<string, unknown>;
    } catch {
      continue;
    }
    const teamName = str(meta.teamName);
    const name = str(meta.name);
    if (!teamName || !name) continue;
    const transcript = join(sub, n.replace(/\.meta\.json$/, '.jsonl'));
    const file = await fileSize(transcript);
    let t = byTeam.get(teamName);
    if (!t) byTeam.set(teamName, (t = { teamName, leadSessionId: sessionId, members: [], files: [{ path: lead, size: leadFile.size }], lastWriteAt: leadFile.mtimeMs }));
    const m: FoundMember = { name };
    // 2.1.332 writes the teammate's name as `agentType` and the type it was spawned as as `spawnedAgentType`.
    const type = str(meta.spawnedAgentType) ?? str(meta.agentType);
    if (type) m.agentType = type;
    if (str(meta.model)) m.model = str(meta.model);
    if (str(meta.color)) m.color = str(meta.color);
    if (!t.members.some((x) => x.name === name)) t.members.push(m);
    if (file) {
      t.files.push({ path: transcript, size: file.size });
      t.lastWriteAt = Math.max(t.lastWriteAt, file.mtimeMs);
    }
  }
  return [...byTeam.values()];
}

/**
 * Pane teammates (pane-transcripts.ts): sessions of their own beside their lead's, whose rows
 * name the team. Each joins its team found above, or makes it: a session team's name is
 * `session-<the first 8 of its lead's session id>`, which is how a lead whose teammates all ran
 * in panes (no `subagents/`) is known; a pane teammate of a team of another name, with no
 * in-process teammate beside it, is not listed.
 */
async function addPaneTeammates(dir: string, names: readonly string[], teams: FoundTeam[]): Promise<void> {
  const sessions = names.flatMap((n) => sessionOfTranscript(n) ?? []);
  for (const id of sessions) {
    const path = join(dir, `${id}.jsonl`);
    const owner = await paneOwnerOf(path);
    if (!owner) continue;
    let t = teams.find((x) => x.teamName === owner.teamName);
    if (!t) {
      const prefix = sessionTeamPrefix(owner.teamName);
      const leadId = prefix === undefined ? undefined : sessions.find((s) => s.startsWith(prefix) && s !== id);
      const lead = leadId === undefined ? undefined : join(dir, `${leadId}.jsonl`);
      const leadFile = lead === undefined ? undefined : await fileSize(lead);
      if (!leadId || !lead || !leadFile) continue;
      teams.push((t = { teamName: owner.teamName, leadSessionId: leadId, members: [], files: [{ path: lead, size: leadFile.size }], lastWriteAt: leadFile.mtimeMs }));
    }
    const file = await fileSize(path);
    if (!file || t.files.some((f) => f.path === path)) continue;
    if (!t.members.some((m) => m.name === owner.agentName)) t.members.push({ name: owner.agentName });
    t.files.push({ path, size: file.size });
    t.lastWriteAt = Math.max(t.lastWriteAt, file.mtimeMs);
  }
}

/** Every agent team the transcripts under `<configDir>/projects` record, one project folder at a time. */
export async function* findRecordedTeams(configDir: string): AsyncGenerator<FoundTeam> {
  const projects = join(configDir, 'projects');
  for (const slug of (await list(projects)).sort()) {
    const dir = join(projects, slug);
    const names = (await list(dir)).sort();
    const teams: FoundTeam[] = [];
    for (const n of names) {
      if (SESSION_ID.test(n)) teams.push(...(await teamsOfSession(dir, n)));
    }
    await addPaneTeammates(dir, names, teams);
    yield* teams;
  }
}
