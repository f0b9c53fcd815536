// What a send must pass before anything is journaled. A refusal writes nothing anywhere.
import { lstatSync } from 'node:fs';
import { dirname } from 'node:path';
import type { MemberInfo, SendRequest } from '../../shared/types.js';
import { isUnaddressable } from '../claude/era.js';
import { looksLikeProtocolFrame } from '../claude/frames.js';
import { inboxFileStem, teamPaths } from '../claude/paths.js';
import { SendRefusedError } from '../errors.js';
import { summaryProblem, textProblem } from '../../shared/send-rules.js';
import type { Team } from '../team/team.js';

export { MAX_TEXT_BYTES, MAX_SUMMARY_CHARS } from '../../shared/send-rules.js';

/** The text and summary alone: checked before the team is even looked up, in the words every path gives. */
export function checkText(req: SendRequest): void {
  const { text, summary } = req;
  const problem = textProblem(text);
  if (problem) throw new SendRefusedError(problem);
  if (looksLikeProtocolFrame(text)) {
    throw new SendRefusedError('message looks like a protocol frame (a JSON object with a "type"); teammates would treat it as a control message, so it is refused');
  }
  const bad = summaryProblem(summary);
  if (bad) throw new SendRefusedError(bad);
}

/** A member named exactly, or by its inbox stem. */
export function findMember(rt: Team, name: string): MemberInfo | undefined {
  return rt.members.find((m) => m.name === name) ?? rt.members.find((m) => m.inboxName === inboxFileStem(name));
}

/**
 * The member a send goes to, once the team and member can take it: the team is running, the
 * member exists and has not shut down, and its inbox is not reached through a link.
 */
export function checkTarget(rt: Team, teamsRoot: string, to: string): MemberInfo {
  if (rt.ended) throw new SendRefusedError(`team ${rt.id} has ended (${rt.ended.reason}); nothing can be sent to it`);
  if (typeof to !== 'string' || to === '') throw new SendRefusedError('no recipient: name the member to send to');
  if (isUnaddressable(inboxFileStem(to))) {
    throw new SendRefusedError(`cannot send to ${JSON.stringify(to)}: that is the user's own inbox, not a member`);
  }
  // A member is named exactly, or by its inbox stem; a name that is neither ("team/lead",
  // "team\u0000lead") must not reach team-lead's inbox by sanitizing into its stem.
  const member = inboxFileStem(to) === to ? findMember(rt, to) : rt.members.find((m) => m.name === to);
  if (!member) throw new SendRefusedError(`team ${rt.id} has no member ${JSON.stringify(to)}`);
  const gone = rt.goneReason(member.name);
  if (gone) throw new SendRefusedError(`${gone}; nothing reads its inbox any more`);
  let path: string;
  try {
    path = teamPaths(teamsRoot, rt.id).inbox(member.name);
  } catch (e) {
    throw new SendRefusedError((e as Error).message);
  }
  let folder, st;
  try {
    folder = lstatSync(dirname(path), { throwIfNoEntry: false });
    if (folder?.isDirectory()) st = lstatSync(path, { throwIfNoEntry: false });
  } catch (e) {
    throw new SendRefusedError(`inbox of ${member.name} cannot be checked (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (folder?.isSymbolicLink()) throw new SendRefusedError(`the inboxes folder of team ${rt.id} is a symbolic link; refusing to write through it`);
  if (folder && !folder.isDirectory()) throw new SendRefusedError(`the inboxes folder of team ${rt.id} is not a folder`);
  if (st?.isSymbolicLink()) throw new SendRefusedError(`inbox of ${member.name} is a symbolic link; refusing to write through it`);
  if (st && !st.isFile()) throw new SendRefusedError(`inbox of ${member.name} is not a regular file`);
  return member;
}
