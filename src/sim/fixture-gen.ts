// Seeded fixture teams in Claude Code's exact on-disk format, for benchmarks and load tests:
// N teams x M members x K messages of history, with the protocol frames Claude mixes into the
// inboxes (task assignments, idle notifications, plan approvals, shutdowns), teammates' answers
// to the user in user.json, configs laid out the way Claude writes them, and optionally one
// inbox per team grown to a given size or one very long thread. The same options and seed
// always write the same bytes.
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { teamDirName } from '../engine/claude/paths.js';
import { createRng } from './prng.js';
import { configFor } from './fixture-config.js';
import { exists, writeTeamFolder, type GenInbox } from './fixture-files.js';
import { generateHistory, userThread } from './fixture-history.js';
import { growInbox, layInboxes, type GenMode } from './fixture-inboxes.js';
import { colorsOf, LEAD, planTeam, teamName } from './fixture-team-plan.js';
import { Words } from './fixture-words.js';

export type { GenInbox } from './fixture-files.js';
export type { GenMode } from './fixture-inboxes.js';

export interface GenOptions {
  teamsDir: string;
  /** N teams (default 1). */
  teams?: number;
  /** M members per team, the lead included, as in config.json's members (default 4, at least 2). */
  members?: number;
  /** K messages of history per team (default 200); per member with perMember. */
  messages?: number;
  perMember?: boolean;
  /** Grow inboxOwner's inbox in every team to about this many bytes with older history. */
  inboxBytes?: number;
  /** Whose inbox inboxBytes grows (default team-lead; `user` is the user's inbox). */
  inboxOwner?: string;
  /** Adds a thread of this many messages between the user and the first teammate of the team listed first (by folder name). */
  thread?: number;
  /**
   * flag (default): what members read stays in their inbox flagged read (Claude 2.1.8x), so the
   * whole history is on disk; prune: read messages are gone (2.1.19x), only the unread tail and
   * user.json (which nothing consumes) keep messages.
   */
  mode?: GenMode;
  /** Teammates per team that approved a shutdown at the end of the history (default 1 when the team has 3 or more). */
  shutdowns?: number;
  /** Default 1: the same seed writes the same bytes. */
  seed?: number;
  /** Time of the newest message, ms since epoch (default 2026-02-09T16:00:00Z). */
  end?: number;
  /** The project folder written into config.json. */
  cwd?: string;
  /** Replace team folders that already exist (default: refuse). */
  force?: boolean;
  /** Write only the teams with these indexes (from inclusive, to exclusive): the same bytes as the whole run writes for them. */
  only?: { from: number; to: number };
}

export interface GenTeam {
  id: string;
  name: string;
  dir: string;
  lead: string;
  /** Teammates in roster order (lead excluded), terminated ones included. */
  teammates: string[];
  terminated: string[];
  /** Messages written in this team's inboxes, filler and long thread included. */
  messages: number;
  /** Messages of history (K), without filler and long thread. */
  history: number;
  inboxes: GenInbox[];
  longThread?: { member: string; messages: number };
}

export interface GenResult {
  teamsDir: string;
  seed: number;
  mode: GenMode;
  teams: GenTeam[];
  messages: number;
  bytes: number;
}

export const DEFAULT_END = Date.parse('2026-02-09T16:00:00.000Z');

export async function generateTeams(opts: GenOptions): Promise<GenResult> {
  const nTeams = opts.teams ?? 1;
  const nMembers = opts.members ?? 4;
  const perTeam = opts.messages ?? 200;
  const mode = opts.mode ?? 'flag';
  const seed = opts.seed ?? 1;
  const end = opts.end ?? DEFAULT_END;
  const cwd = opts.cwd ?? '/home/dev/projects/app';
  if (!Number.isInteger(nTeams) || nTeams < 1) throw new RangeError('teams must be an integer >= 1');
  if (!Number.isInteger(nMembers) || nMembers < 2) throw new RangeError('members must be an integer >= 2 (the lead and one teammate)');
  if (!Number.isInteger(perTeam) || perTeam < 0) throw new RangeError('messages must be an integer >= 0');
  const rootRng = createRng(seed, 'teams');
  const used = new Set<string>();
  const result: GenResult = { teamsDir: opts.teamsDir, seed, mode, teams: [], messages: 0, bytes: 0 };
  await mkdir(opts.teamsDir, { recursive: true });

  const names = Array.from({ length: nTeams }, () => teamName(rootRng, used));
  // The long thread goes to the team listed first (by folder name): the one the app opens first.
  const longIn = names.map(teamDirName).reduce((best, id, i, ids) => (id < ids[best]! ? i : best), 0);
  for (let ti = 0; ti < nTeams; ti++) {
    if (opts.only && (ti < opts.only.from || ti >= opts.only.to)) continue;
    const name = names[ti]!;
    const rng = createRng(seed, `team:${ti}`);
    const words = new Words(rng);
    const plan = planTeam(name, nMembers, opts.shutdowns);
    const teammates = plan.teammates;
    const colorOf = colorsOf(teammates);
    const dir = join(opts.teamsDir, plan.id);
    if (await exists(dir)) {
      if (!opts.force) throw new Error(`${dir} already exists; pass force to replace it`);
      await rm(dir, { recursive: true, force: true });
    }
    const history = opts.perMember ? perTeam * nMembers : perTeam;
    const gen = generateHistory(rng, words, plan, history, colorOf);
    const pending = gen.pending;

    // One long thread between the user and the first teammate, spread over the same time span.
    let longThread: GenTeam['longThread'];
    if (ti === longIn && opts.thread && opts.thread > 0) {
      const who = teammates[0]!;
      for (const p of userThread(rng, words, who, opts.thread, Math.max(gen.end, opts.thread * 30_000), colorOf)) pending.push(p);
      longThread = { member: who, messages: opts.thread };
    }

    const laid = layInboxes(pending, plan, mode, end);
    if (opts.inboxBytes && opts.inboxBytes > 0) growInbox(laid, opts.inboxOwner ?? LEAD, opts.inboxBytes, mode, rng, words, teammates, colorOf);

    let first = laid.last;
    for (const list of laid.byOwner.values()) if (list.length) first = Math.min(first, list[0]!.t);
    const createdAt = first + laid.shift - 60 * 60_000;
    const config = configFor(plan, rng, words, createdAt, cwd, colorOf);
    const inboxes = await writeTeamFolder(dir, config, laid.byOwner, rng);
    const messages = inboxes.reduce((n, i) => n + i.messages, 0);
    result.bytes += inboxes.reduce((n, i) => n + i.bytes, 0);
    result.messages += messages;
    result.teams.push({
      id: plan.id,
      name,
      dir,
      lead: LEAD,
      teammates,
      terminated: [...plan.terminated],
      messages,
      history,
      inboxes,
      ...(longThread ? { longThread } : {}),
    });
  }
  return result;
}

/** "10MB", "512KB", "1.5 MiB" or a plain byte count; decimal units, as file managers show them. */
export function parseSize(s: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|kib|k|mb|mib|m|gb|gib|g)?\s*$/i.exec(s);
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = (m[2] ?? 'b').toLowerCase();
  const mult: Record<string, number> = { b: 1, k: 1e3, kb: 1e3, kib: 1024, m: 1e6, mb: 1e6, mib: 1024 ** 2, g: 1e9, gb: 1e9, gib: 1024 ** 3 };
  return Math.round(n * mult[unit]!);
}
