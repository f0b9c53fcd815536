// A team's end, and what Teamdeck keeps of it: noticing that a team ended (its folder gone, its
// lead's process gone), remembering it (team.json, the ended index), reading it as running again
// when a folder of its name is back, and the ended teams only the state dir remembers. Apart from
// team-directory.ts, which opens and reads teams; the list of ended teams itself (the index,
// opened on demand, a few kept open) is ended-teams.ts.
import { buildMembers } from '../claude/team-reader.js';
import { ENDED_FOLDER_GONE, judgeLiveness } from '../claude/lifecycle.js';
import { EndedTeams } from './ended-teams.js';
import { listJournalTeams, mergeMembers, writeTeamMeta, type TeamMeta } from '../journal/team-meta.js';
import type { TeamDirectory } from './team-directory.js';
import type { TeamRuntime } from '../team/team-runtime.js';

/** The directory's list of ended teams, told what the directory knows of each. */
export function endedTeamsOf(dir: TeamDirectory): EndedTeams {
  return new EndedTeams({
    stateDir: dir.ctx.stateDir,
    teams: dir.teams,
    senderName: dir.ctx.senderName,
    problem: (p) => dir.problem(p),
    isOpening: (id) => dir.isOpening(id),
    folderPresent: (id) => dir.folderPresent(id),
    hasPending: (rt) => dir.ctx.delivery.hasPending(rt),
    onEvict: async (rt) => {
      await dir.ctx.delivery.forget(rt);
      dir.ctx.onEvict?.(rt);
    },
  });
}

/** The open teams no longer under the root whose folder is really gone have ended; true if any did. */
export async function endGoneTeams(dir: TeamDirectory, present: Set<string>): Promise<boolean> {
  let changed = false;
  for (const rt of dir.teams.values()) {
    if (!present.has(rt.id) && !rt.ended && !(await dir.folderPresent(rt.id))) {
      await markEnded(dir, rt, ENDED_FOLDER_GONE);
      changed = true;
    }
  }
  return changed;
}

/**
 * At start: the teams with a journal and no folder. Ended teams are listed from the index; only
 * those it does not know (ended while Teamdeck was away) or with sends still waiting are opened.
 * True if one was opened; undefined when the engine is stopping (the scan ends there).
 */
export async function openRemembered(dir: TeamDirectory, present: Set<string>): Promise<boolean | undefined> {
  const remembered = (await listJournalTeams(dir.stateDir)).filter((id) => !present.has(id));
  await dir.ended.load(remembered);
  let changed = false;
  for (const id of remembered) {
    if (dir.ctx.stopping()) return undefined;
    if (!dir.teams.has(id) && !dir.ended.listOnly(id) && (await dir.openTeam(id))) changed = true;
  }
  return changed;
}

/** An ended team listed under that (config) name, opened on demand; undefined if none opens. */
export async function openEndedByName(dir: TeamDirectory, name: string): Promise<TeamRuntime | undefined> {
  const listed = dir.ended.listedByName(name);
  return listed ? dir.openTeam(listed.id) : undefined;
}

/** An ended team opened from its journal alone: its members and its end as remembered. */
export function endedFromMemory(dir: TeamDirectory, rt: TeamRuntime, meta: TeamMeta | undefined): void {
  rt.members = mergeMembers(buildMembers(undefined, [], rt.history.observed.values()), meta?.members ?? []);
  rt.ended = { at: meta?.endedAt ?? dir.ctx.now(), reason: meta?.endedReason ?? ENDED_FOLDER_GONE };
}

/** A team folder of an ended team's name is there again: read it as a running team. */
export async function reopenTeam(dir: TeamDirectory, rt: TeamRuntime): Promise<boolean> {
  rt.ended = undefined;
  dir.ended.forget(rt.id);
  await dir.loadConfig(rt, false);
  await dir.ctx.inboxes.list(rt);
  await dir.ctx.inboxes.readAll(rt);
  dir.rebuildMembers(rt);
  await rememberTeam(dir, rt);
  dir.ctx.emit({ type: 'roster', team: rt.id, roster: dir.rosterOf(rt) });
  return true;
}

/**
 * A current-era team whose lead's process is gone has ended, though Claude left its folder.
 * `startToo`: a reused pid is told apart too (a read of /proc/<pid>/stat; else one signal probe).
 */
export function checkLiveness(dir: TeamDirectory, rt: TeamRuntime, announce = true, startToo = true): void {
  if (rt.ended) return;
  const live = judgeLiveness(rt.era, rt.config, startToo);
  if (live.state === 'ended') void markEnded(dir, rt, live.reason, announce);
}

/** The team ended: its members with it; what waits for it becomes undeliverable. */
export async function markEnded(dir: TeamDirectory, rt: TeamRuntime, reason: string, announce = true): Promise<void> {
  if (rt.ended) return;
  rt.ended = { at: dir.ctx.now(), reason };
  dir.ctx.delivery.kickAll(rt);
  await rememberTeam(dir, rt).catch(() => {});
  dir.ended.note(rt);
  if (!announce) return;
  dir.ctx.emit({ type: 'roster', team: rt.id, roster: dir.rosterOf(rt) });
  dir.ctx.emit({ type: 'teams', teams: dir.summaries() });
}

/** Writes team.json (what lists the team after its folder is gone) when what it remembers changed. */
export async function rememberTeam(dir: TeamDirectory, rt: TeamRuntime): Promise<void> {
  const meta: TeamMeta = {
    v: 1,
    id: rt.id,
    name: rt.config?.name ?? rt.meta?.name ?? rt.id,
    era: rt.era,
    members: rt.members.map((m) => ({ ...m })),
  };
  const createdAt = rt.config?.createdAt ?? rt.meta?.createdAt;
  if (createdAt !== undefined) meta.createdAt = createdAt;
  const leadSessionId = rt.config?.leadSessionId ?? rt.meta?.leadSessionId;
  if (leadSessionId !== undefined) meta.leadSessionId = leadSessionId;
  if (rt.ended) {
    meta.endedAt = rt.ended.at;
    meta.endedReason = rt.ended.reason;
  }
  if (JSON.stringify(meta) === JSON.stringify(rt.meta)) return;
  // A team with nothing in its history and nothing to remember is not worth a file (Claude's
  // transient startup teams live for milliseconds).
  if (!rt.meta && rt.history.records === 0 && rt.ended) return;
  rt.meta = meta;
  await writeTeamMeta(rt.history.dir, meta).catch((e: Error) => dir.problem({ kind: 'journal', file: `journal/${rt.id}/team.json`, message: `cannot remember the team: ${e.message}` }));
}
