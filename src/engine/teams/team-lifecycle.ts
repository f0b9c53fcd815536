// A team's life as Claude's files and Teamdeck's memory tell it: its config read (the last good
// one kept when a read finds it half-written), its era, its members, whether its lead still
// runs, its end, its reading again when a folder of its name is back, and what Teamdeck
// remembers of it (team.json) so that it stays listed after Claude removes its folder. The only
// writer of a team's core (team/team.ts); it tells no one: the directory, which calls it, says
// what changed.
import { join } from 'node:path';
import { isTeamdeckName } from '../../shared/sender-name.js';
import type { MemberInfo, TeamProblem } from '../../shared/types.js';
import { readTeamConfig } from '../claude/config.js';
import { classifyEra } from '../claude/era.js';
import { ENDED_FOLDER_GONE, judgeLiveness } from '../claude/lifecycle.js';
import { inboxFileStem, teamPaths } from '../claude/paths.js';
import { buildMembers, USER_INBOX } from '../claude/team-reader.js';
import { TRANSCRIPT_OFFSETS_FILE } from '../claude/transcript-offsets.js';
import { TranscriptWatch } from '../claude/transcripts.js';
import { fileSignature } from '../files/file-signature.js';
import type { TeamHistory } from '../journal/team-history.js';
import { mergeMembers, writeTeamMeta, type TeamMeta } from '../journal/team-meta.js';
import { Team, type TeamCore } from '../team/team.js';
import { unwatchedEndAt } from './end-evidence.js';

export interface LifecycleContext {
  teamsRoot: string;
  /** Claude's config dir: the members' transcripts are under its projects folder. */
  configDir: string;
  now: () => number;
  /** The team's inbox files, as the inbox ingest last listed them. */
  inboxesOf: (team: Team) => readonly string[];
  /** A problem that is not one team's (team.json cannot be written). */
  problem: (p: TeamProblem) => void;
  /** The name Teamdeck writes as on current-era teams: its own, never a member's. */
  senderName: () => string;
  /** The Claude Code version the team's lead runs or ran, as known now (live/claude-version.ts). */
  claudeVersionOf?: (team: Team) => string | undefined;
}

export class TeamLifecycle {
  private readonly cores = new WeakMap<Team, TeamCore>();

  constructor(private readonly ctx: LifecycleContext) {}

  private core(team: Team): TeamCore {
    const c = this.cores.get(team);
    if (!c) throw new Error(`team ${team.id} was not made by this lifecycle`);
    return c;
  }

  /** A team opened from its journal; what Teamdeck remembered of it (team.json) to start from. */
  create(id: string, history: TeamHistory, meta: TeamMeta | undefined): Team {
    const core: TeamCore = { era: meta?.era ?? 'legacy', members: [] };
    if (meta) core.meta = meta;
    const team = new Team(id, history, core);
    this.cores.set(team, core);
    return team;
  }

  /**
   * Teamdeck's own sender name (the one set now, and the default any other Teamdeck writes as)
   * is the user writing through Teamdeck, never a member, however often it appears in the
   * inboxes; only a member that config.json itself lists by that name is one.
   */
  private isTeamdeck(name: string): boolean {
    return isTeamdeckName(name, this.ctx.senderName());
  }

  private notTeamdeck(members: MemberInfo[]): MemberInfo[] {
    return members.filter((m) => m.inConfig || !this.isTeamdeck(m.name));
  }

  /** Reads config.json. A half-written config keeps the last good one, and is a problem of the team's. */
  async readConfig(team: Team): Promise<void> {
    const core = this.core(team);
    const path = teamPaths(this.ctx.teamsRoot, team.id).config;
    // Looked at before the read: a write after it differs, and the safety net reads it again.
    core.configLooks = await fileSignature(path);
    const r = await readTeamConfig(path);
    team.problems.delete('config');
    if (r.kind === 'ok') {
      core.config = r.config;
      if (r.config.skippedMembers.length) {
        team.problems.set('config', { kind: 'config', file: `${team.id}/config.json`, message: r.config.skippedMembers.join('; ') });
      }
      for (const m of r.config.members) {
        if (m.joinedAt !== undefined) team.facts.noteEvent(m.name, m.joinedAt);
      }
    } else if (r.kind === 'invalid') {
      team.problems.set('config', { kind: 'config', file: `${team.id}/config.json`, message: r.message });
    }
  }

  /** Which contract the team follows, from its config and its inboxes. */
  classify(team: Team): void {
    this.core(team).era = classifyEra({ teamId: team.id, config: team.config, hasUserInbox: this.ctx.inboxesOf(team).includes(USER_INBOX) });
  }

  /** The members: the config's, those who have an inbox or spoke, and those remembered. */
  rebuildMembers(team: Team): void {
    this.core(team).members = this.notTeamdeck(mergeMembers(buildMembers(team.config, [...this.ctx.inboxesOf(team)], team.history.observed.values()), team.meta?.members ?? []));
  }

  /** Agents seen only in transcripts (a teammate gone from config) join the roster; true if any did. */
  addTranscriptAgents(team: Team, agents: Iterable<string>): boolean {
    const known = new Set(team.members.map((m) => m.name));
    const fresh = [...agents].filter((a) => !known.has(a) && a !== '' && !this.isTeamdeck(a));
    if (fresh.length === 0) return false;
    const core = this.core(team);
    core.members = [...core.members, ...fresh.map((name) => ({ name, inboxName: inboxFileStem(name), isLead: false, inConfig: false }))];
    return true;
  }

  /**
   * The lead's session (config, else remembered) names the transcripts to follow, in either era:
   * a legacy team's config names its lead's session too, and its transcripts are merged with its
   * inboxes and user.json as a current team's are (docs/claude-contract.md#record).
   */
  watchTranscripts(team: Team): void {
    const session = team.config?.leadSessionId ?? team.meta?.leadSessionId;
    if (!session || team.transcripts?.leadSessionId === session) return;
    // An ended team's transcripts only grow at its end, if at all: where they were read to is kept.
    const offsets = team.ended ? join(team.history.dir, TRANSCRIPT_OFFSETS_FILE) : undefined;
    this.core(team).transcripts = new TranscriptWatch(this.ctx.configDir, session, team.config?.name ?? team.id, offsets);
  }

  /**
   * An ended team opened from its journal alone: its members and its end as remembered. True when
   * it was remembered running (its folder went while no Teamdeck watched): its end is to be dated
   * (dateUnwatchedEnd).
   */
  endedFromMemory(team: Team): boolean {
    const core = this.core(team);
    core.members = this.notTeamdeck(mergeMembers(buildMembers(undefined, [], team.history.observed.values()), team.meta?.members ?? []));
    core.ended = { at: team.meta?.endedAt ?? this.ctx.now(), reason: team.meta?.endedReason ?? ENDED_FOLDER_GONE };
    return team.meta?.endedAt === undefined;
  }

  /**
   * A team whose end Teamdeck noticed at its first look (it was not watching) ended before that
   * look: when a Teamdeck saw it end, as remembered (a killed lead's folder stays, and is looked
   * at again at every start), else at its last sign of life in its own files, never later than
   * now (end-evidence.ts).
   */
  async dateUnwatchedEnd(team: Team): Promise<void> {
    const at = team.meta?.endedAt ?? (await unwatchedEndAt(team, this.ctx.configDir, this.ctx.now()));
    const core = this.core(team);
    if (core.ended && at < core.ended.at) core.ended = { ...core.ended, at };
  }

  /**
   * Why a current-era team ended though Claude left its folder (its lead's process is gone), or
   * undefined while it runs. `startToo`: a reused pid is told apart too (a read of
   * /proc/<pid>/stat; else one signal probe).
   */
  endReason(team: Team, startToo: boolean): string | undefined {
    if (team.ended) return undefined;
    const live = judgeLiveness(team.era, team.config, startToo);
    return live.state === 'ended' ? live.reason : undefined;
  }

  /** The team ended now (false if it already had): its members with it. */
  end(team: Team, reason: string): boolean {
    const core = this.core(team);
    if (core.ended) return false;
    core.ended = { at: this.ctx.now(), reason };
    return true;
  }

  /** A folder of an ended team's name is back: the team runs again, to be read as such. */
  reopen(team: Team): void {
    delete this.core(team).ended;
  }

  /** Writes team.json (what lists the team after its folder is gone) when what it remembers changed. */
  async remember(team: Team): Promise<void> {
    const meta: TeamMeta = { v: 1, id: team.id, name: team.name, era: team.era, members: team.members.map((m) => ({ ...m })) };
    if (team.createdAt !== undefined) meta.createdAt = team.createdAt;
    const leadSessionId = team.config?.leadSessionId ?? team.meta?.leadSessionId;
    if (leadSessionId !== undefined) meta.leadSessionId = leadSessionId;
    if (team.ended) {
      meta.endedAt = team.ended.at;
      meta.endedReason = team.ended.reason;
    }
    // Kept so the ended team's line says it after a restart, when its rows are not read again.
    const claudeVersion = this.ctx.claudeVersionOf?.(team) ?? team.meta?.claudeVersion;
    if (claudeVersion !== undefined) meta.claudeVersion = claudeVersion;
    if (JSON.stringify(meta) === JSON.stringify(team.meta)) return;
    // A team with nothing in its history and nothing to remember is not worth a file (Claude's
    // transient startup teams live for milliseconds).
    if (!team.meta && team.history.records === 0 && team.ended) return;
    this.core(team).meta = meta;
    await writeTeamMeta(team.history.dir, meta).catch((e: Error) =>
      this.ctx.problem({ kind: 'journal', file: `journal/${team.id}/team.json`, message: `cannot remember the team: ${e.message}` }),
    );
  }
}
