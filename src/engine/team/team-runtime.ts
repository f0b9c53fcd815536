// Everything the engine holds for one team: what Claude's files say now (config, inbox owners),
// what the journal folded (history and sends), and the derived facts (era, presence, receipts).
import type { MemberInfo, TeamEra, TeamSummary } from '../../shared/types.js';
import type { TeamConfig } from '../claude/config.js';
import type { TeamHistory } from '../journal/team-history.js';
import type { TeamMeta } from '../journal/team-meta.js';
import type { TranscriptWatch } from '../claude/transcripts.js';
import { TeamFacts } from './facts.js';
import { TeamProblems } from './problems.js';

export class TeamRuntime {
  config: TeamConfig | undefined;
  /** How config.json looked when it was last read: the safety net reads it again when it differs. */
  configLooks: string | undefined;
  members: MemberInfo[] = [];
  era: TeamEra = 'legacy';
  /** Set once the team ended: its folder is gone, or its lead's process is. */
  ended: { at: number; reason: string } | undefined;
  /** What was last written to team.json, to write it again only on a change. */
  meta: TeamMeta | undefined;
  /** Current era: tails the members' transcripts for receipts and answers. */
  transcripts: TranscriptWatch | undefined;

  constructor(
    readonly id: string,
    /** The journal and what it folds into: sent messages and everything observed. */
    readonly history: TeamHistory,
  ) {}

  /** What the history says of the members (presence, shutdowns, answers, asks). */
  readonly facts = new TeamFacts();
  /** What is wrong with the team's files, per key. */
  readonly problems = new TeamProblems();

  get lead(): MemberInfo | undefined {
    return this.members.find((m) => m.isLead);
  }

  /**
   * Why a member can never read its inbox again, or undefined while it may: it approved a
   * shutdown, or (current era) Claude removed it from config.json, which it does when a
   * teammate shuts down, is killed, times out or fails to spawn.
   */
  goneReason(name: string): string | undefined {
    if (this.facts.hasShutDown(name)) return `${name} has shut down (it approved a shutdown request)`;
    if (this.era === 'current' && this.config && !this.config.members.some((m) => m.name === name)) {
      return `${name} is no longer on the team (Claude removed it from config.json)`;
    }
    return undefined;
  }

  summary(sendAs: string, leadReads: boolean): TeamSummary {
    const s: TeamSummary = {
      id: this.id,
      name: this.config?.name ?? this.meta?.name ?? this.id,
      memberCount: this.members.length,
      problems: [...this.problems.values()],
      era: this.era,
      state: this.ended ? 'ended' : 'running',
      sendAs,
      leadReadsInbox: leadReads,
    };
    if (this.config?.description !== undefined) s.description = this.config.description;
    const createdAt = this.config?.createdAt ?? this.meta?.createdAt;
    if (createdAt !== undefined) s.createdAt = createdAt;
    if (this.ended) {
      s.endedAt = this.ended.at;
      s.endedReason = this.ended.reason;
    }
    return s;
  }
}
