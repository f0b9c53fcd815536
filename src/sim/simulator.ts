// A Claude-compatible Agent Team on disk, in either era of Claude Code:
//   legacy : a named team; members poll their inbox, answer the user in inboxes/user.json, go
//            idle and approve shutdown requests (read messages flagged read:true or pruned);
//   current: Claude Code 2.1.332: a `session-<8 hex>` team owned by a lead process, entries with
//            msg_id, provenance, no user mailbox; see teammate.ts and lead.ts.
// Every inbox write goes through claude-inbox.ts (Claude's own algorithm), never through the
// core, so the app is exercised against "the other side". This module is the simulator's front
// door: runMember picks the era's member; setting a team up is team-setup.ts's.
import { randomSeed } from './prng.js';
import { simTeamPaths, type SimEra } from './claude-paths.js';
import { LEAD_NAME, MEMBER_COLORS } from './claude-config.js';
import { runLegacyMember } from './legacy-member.js';
import { memberHandle, ownAbort, type MemberExit, type MemberHandle, type RunMemberOptions } from './member-run.js';
import { runTeammate } from './teammate.js';
import { teamEra } from './team-setup.js';

export { LEAD_NAME, MEMBER_COLORS, simTeamPaths, type SimEra };
export { USER_NAME } from './legacy-member.js';
export type { MemberEvent, MemberExit, MemberHandle, RunMemberOptions } from './member-run.js';
export {
  addMembers,
  configMemberNames,
  createTeam,
  eraOfConfig,
  eraOfName,
  readSimConfig,
  sessionIdFor,
  teamEra,
  type CreateTeamOptions,
  type SimMemberSpec,
  type SimTeam,
} from './team-setup.js';

/**
 * Runs one member as Claude's inbox poller, in its team's era (or `opts.era`): current-era
 * members are runTeammate's; legacy ones take their unread messages between turns, "work" on
 * each, answer the user in user.json, then report idle to the lead. A shutdown_request is
 * approved and ends the member.
 */
export function runMember(opts: RunMemberOptions): MemberHandle {
  const seed = opts.seed ?? randomSeed();
  const abort = ownAbort(opts.signal);
  const done = (async (): Promise<MemberExit> => {
    const era = opts.era ?? (await teamEra(opts.teamsDir, opts.team));
    const run = era === 'current' ? runTeammate : runLegacyMember;
    return run({ ...opts, seed, signal: abort.signal }).done;
  })();
  return memberHandle(opts.name, seed, done, abort);
}
