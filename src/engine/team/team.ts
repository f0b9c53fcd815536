// One team as the engine holds it while it is open. Its parts each have one owner:
//   history   the journal and what it folds into (TeamHistory: every change is a record)
//   facts     what the history says of the members (TeamFacts: written as messages are observed)
//   problems  what is wrong with its files, per key (TeamProblems)
//   core      what Claude's files and Teamdeck's memory say of it (era, config, members, end):
//             written only by whoever made the team and holds its TeamCore, which in the engine
//             is the team lifecycle (teams/team-lifecycle.ts); everyone else reads it here.
// What other concerns keep per team (delivery queues, inbox reads, live activity) they keep
// themselves, keyed by this object.
import type { MemberInfo, TeamEra } from '../../shared/types.js';
import type { TeamConfig } from '../claude/config.js';
import type { TranscriptWatch } from '../claude/transcripts.js';
import type { TeamHistory } from '../journal/team-history.js';
import type { TeamMeta } from '../journal/team-meta.js';
import { TeamFacts } from './facts.js';
import { TeamProblems } from './problems.js';

/** Why and when a team ended: its folder is gone, or its lead's process is. */
export interface TeamEnd {
  at: number;
  reason: string;
}

/** What Claude's files and Teamdeck's memory say of a team: held, and written, by its lifecycle. */
export interface TeamCore {
  era: TeamEra;
  config?: TeamConfig;
  /** How config.json looked when it was last read: the safety net reads it again when it differs. */
  configLooks?: string;
  members: MemberInfo[];
  ended?: TeamEnd;
  /** What was last written to team.json, to write it again only on a change. */
  meta?: TeamMeta;
  /** Current era: tails the members' transcripts for receipts and answers. */
  transcripts?: TranscriptWatch;
}

export class Team {
  /** What the history says of the members (presence, shutdowns, answers, asks). */
  readonly facts = new TeamFacts();
  /** What is wrong with the team's files, per key. */
  readonly problems = new TeamProblems();

  constructor(
    readonly id: string,
    /** The journal and what it folds into: sent messages and everything observed. */
    readonly history: TeamHistory,
    private readonly core: Readonly<TeamCore>,
  ) {}

  get era(): TeamEra {
    return this.core.era;
  }
  get config(): TeamConfig | undefined {
    return this.core.config;
  }
  get configLooks(): string | undefined {
    return this.core.configLooks;
  }
  get members(): readonly MemberInfo[] {
    return this.core.members;
  }
  get ended(): Readonly<TeamEnd> | undefined {
    return this.core.ended;
  }
  get meta(): Readonly<TeamMeta> | undefined {
    return this.core.meta;
  }
  get transcripts(): TranscriptWatch | undefined {
    return this.core.transcripts;
  }

  /** The team's name: its config's, else the one remembered, else its folder's. */
  get name(): string {
    return this.config?.name ?? this.meta?.name ?? this.id;
  }

  get createdAt(): number | undefined {
    return this.config?.createdAt ?? this.meta?.createdAt;
  }

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
}
