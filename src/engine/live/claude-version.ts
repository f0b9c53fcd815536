// The Claude Code version each team's lead runs (docs/claude-contract.md#versions): its sessions
// file says it while the lead runs; every transcript row carries it too, so an ended team (or
// one whose sessions file is not found) still has one. The sessions file wins: a resumed
// transcript keeps the rows of the version that wrote them, the file is the process now. What
// neither said in this run is the version Teamdeck remembered of the team (team.json): an ended
// team's transcripts are read on from where they were read to, so their rows never come again.
import { claudeVersionIn as versionIn } from '../../shared/claude-versions.js';
import type { TeamSummary } from '../../shared/types.js';
import type { Row } from '../claude/transcript-rows.js';
import type { Team } from '../team/team.js';

interface Known {
  session?: string;
  transcript?: string;
}

export class ClaudeVersions {
  private readonly known = new WeakMap<Team, Known>();

  private of(rt: Team): Known {
    let k = this.known.get(rt);
    if (!k) this.known.set(rt, (k = {}));
    return k;
  }

  /** The version the team's lead runs, or ran last; undefined before anything said. */
  versionOf(rt: Team): string | undefined {
    const k = this.known.get(rt);
    return k?.session ?? k?.transcript ?? versionIn(rt.meta?.claudeVersion);
  }

  /** The lead's sessions file was read (undefined: gone or not found). True when the team's version changed. */
  fromSession(rt: Team, version: string | undefined): boolean {
    const before = this.versionOf(rt);
    this.of(rt).session = versionIn(version);
    return this.versionOf(rt) !== before;
  }

  /** Rows read from an agent's transcript: the latest one's `version` (the lead's rows; in-process teammates run in its process). */
  fromRows(rt: Team, agent: string, rows: readonly Row[]): boolean {
    if (agent !== (rt.lead?.name ?? 'team-lead')) return false;
    let latest: string | undefined;
    for (let i = rows.length - 1; i >= 0 && latest === undefined; i--) latest = versionIn(rows[i]!.version);
    if (latest === undefined) return false;
    const before = this.versionOf(rt);
    this.of(rt).transcript = latest;
    return this.versionOf(rt) !== before;
  }

  /** The list's lines with each team's version, where one is known. */
  decorate(summaries: TeamSummary[], teams: Iterable<Team>): TeamSummary[] {
    const byId = new Map<string, string>();
    for (const rt of teams) {
      const v = this.versionOf(rt);
      if (v !== undefined) byId.set(rt.id, v);
    }
    if (byId.size === 0) return summaries;
    return summaries.map((s) => {
      const v = byId.get(s.id);
      return v === undefined ? s : { ...s, claudeVersion: v };
    });
  }
}
