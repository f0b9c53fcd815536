// Ended teams' history written straight into a state dir, as Teamdeck leaves it after those
// teams ended (today's Claude deletes a session team's folder when its lead exits): per team a
// journal of everything observed in its inboxes, its team.json, and its line in the ended-teams
// index. The traffic is `generateTeams`' (seeded, Claude's format), read back through the
// engine's own inbox reader and written through the real Journal, team.json and index modules,
// so the files are exactly what the engine writes. Same options and seed, same history.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTeamConfig } from '../engine/claude/config.js';
import { readInbox } from '../engine/claude/inbox-read.js';
import { ENDED_FOLDER_GONE } from '../engine/claude/lifecycle.js';
import { teamPaths } from '../engine/claude/paths.js';
import { buildMembers, listInboxOwners } from '../engine/claude/team-reader.js';
import type { JournalRecord, ObservedRecord } from '../engine/journal/journal.js';
import { TeamHistory } from '../engine/journal/team-history.js';
import { entryOf } from '../engine/teams/ended-teams.js';
import { EndedIndex } from '../engine/journal/ended-index.js';
import { journalDirOf, listJournalTeams, writeTeamMeta, type TeamMeta } from '../engine/journal/team-meta.js';
import { Team } from '../engine/team/team.js';
import { DEFAULT_END, generateTeams } from './fixture-gen.js';
import { createRng } from './prng.js';

export interface EndedGenOptions {
  stateDir: string;
  /** Ended teams to write. */
  teams: number;
  /** Members per team, the lead included (default 4). */
  members?: number;
  /** Messages of history per team (default 200). */
  messages?: number;
  seed?: number;
  /** When the newest team ended (ms; default 2026-02-09T16:00:00Z); each one before ended an hour earlier. */
  end?: number;
}

export interface EndedGenResult {
  stateDir: string;
  teams: { id: string; name: string; messages: number; endedAt: number }[];
  messages: number;
}

/** Teams generated (as folders in a scratch root) and turned into history per round. */
const ROUND = 20;

export async function writeEndedTeams(opts: EndedGenOptions): Promise<EndedGenResult> {
  const n = opts.teams;
  if (!Number.isInteger(n) || n < 1) throw new RangeError('ended teams must be an integer >= 1');
  const seed = opts.seed ?? 1;
  const end = opts.end ?? DEFAULT_END;
  const rng = createRng(seed, 'ended');
  await mkdir(opts.stateDir, { recursive: true, mode: 0o700 });
  const index = new EndedIndex(opts.stateDir, (p) => {
    throw new Error(`${p.file}: ${p.message}`);
  });
  await index.load(await listJournalTeams(opts.stateDir));
  const result: EndedGenResult = { stateDir: opts.stateDir, teams: [], messages: 0 };
  const used = new Set(index.entries.keys());
  const scratch = await mkdtemp(join(tmpdir(), 'teamdeck-ended-gen-'));
  try {
    for (let from = 0; from < n; from += ROUND) {
      const to = Math.min(n, from + ROUND);
      const root = join(scratch, String(from));
      // Team i's history ends an hour before team i-1's: the newest ended last.
      const gen = await generateTeams({ teamsDir: root, teams: n, members: opts.members ?? 4, messages: opts.messages ?? 200, seed, end: end - 5 * 60_000, only: { from, to } });
      for (const [k, t] of gen.teams.entries()) {
        const i = from + k;
        // Today's Claude names each lead's team `session-<8 hex>`; one id per ended team.
        let id: string;
        do id = `session-${rng.int(0, 0xffffffff).toString(16).padStart(8, '0')}`;
        while (used.has(id));
        used.add(id);
        const endedAt = end - i * 3_600_000;
        const shift = endedAt - end;
        const r = await writeOne(opts.stateDir, root, t.id, id, shift, endedAt);
        index.put(r.entry);
        result.teams.push({ id, name: id, messages: r.messages, endedAt });
        result.messages += r.messages;
      }
      await rm(root, { recursive: true, force: true });
    }
    await index.flush();
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return result;
}

/** One generated team's folder, as history of the ended team `id`, its times moved by `shift`. */
async function writeOne(stateDir: string, root: string, folder: string, id: string, shift: number, endedAt: number) {
  const paths = teamPaths(root, folder);
  const cfg = await readTeamConfig(paths.config);
  const config = cfg.kind === 'ok' ? cfg.config : undefined;
  const owners = await listInboxOwners(paths.inboxes);
  const records: ObservedRecord[] = [];
  const seen = new Set<string>();
  for (const owner of owners) {
    const r = await readInbox(paths.inbox(owner), folder, owner);
    if (r.kind !== 'ok') throw new Error(`generated inbox ${owner} of ${folder} did not read back: ${r.kind}`);
    for (const m of r.messages) {
      if (seen.has(m.id)) continue;
      seen.add(m.id);
      const timestamp = new Date(Date.parse(m.timestamp) + shift).toISOString();
      // As the engine journals what it finds in an inbox (ingest/ingest.ts foldInbox).
      const o: ObservedRecord = { t: 'observed', id: m.id, from: m.from, to: owner, text: m.text, timestamp, at: Date.parse(timestamp) };
      if (m.summary !== undefined) o.summary = m.summary;
      if (m.color !== undefined) o.color = m.color;
      records.push(o);
    }
  }
  records.sort((a, b) => a.at - b.at);
  const dir = journalDirOf(stateDir, id);
  const { history } = await TeamHistory.open(dir);
  for (let i = 0; i < records.length; i += 5_000) {
    const batch: JournalRecord[] = records.slice(i, i + 5_000);
    await history.commit(...batch);
  }
  await history.close();
  const members = buildMembers(config, owners, history.observed.values());
  const meta: TeamMeta = { v: 1, id, name: id, era: 'current', members: members.map((m) => ({ ...m })), endedAt, endedReason: ENDED_FOLDER_GONE };
  if (config?.createdAt !== undefined) meta.createdAt = config.createdAt + shift;
  await writeTeamMeta(dir, meta);
  // The team as the engine holds it once it ended, for its index entry.
  const rt = new Team(id, history, { era: 'current', members, ended: { at: endedAt, reason: ENDED_FOLDER_GONE }, meta });
  return { entry: entryOf(rt), messages: records.length };
}
