// The inbox channel: puts journaled messages into a member's inbox file the way Claude's own
// writers do, in the entry shape of the team's era. It never creates a team folder (Claude
// deletes it when the lead exits; a write that recreates it makes a ghost team), and it turns
// a target that can never read the message into `undeliverable` instead of writing.
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { inboxEntryFor } from '../claude/era.js';
import { AdmissionError, appendManyToInbox, RECREATES_TEAM_FOLDERS, type AppendResult } from '../claude/inbox-writer.js';
import { inboxFileStem, teamPaths } from '../claude/paths.js';
import type { SentState } from '../journal/journal.js';
import { UndeliverableError } from './outbox.js';
import type { Team } from '../team/team.js';

export interface InboxChannelContext {
  teamsRoot: string;
  stateDir: string;
}

function exists(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

/** Test-only fault injection, inert unless set: the soak's engine that forgets a team ended. */
const BREAK_ENDED_CHECK = process.env.TEAMDECK_BREAK === 'no-ended-check';

/** Why nobody can ever read a message to `to` on this team, or undefined while someone may. */
export function neverReadable(rt: Team, to: string): string | undefined {
  if (rt.ended && !BREAK_ENDED_CHECK) return `team ${rt.id} ended before it could be delivered (${rt.ended.reason})`;
  const gone = rt.goneReason(to);
  if (gone) return `${gone} before it could be delivered; nothing reads its inbox any more`;
  return undefined;
}

/**
 * Writes the batch (all to one member) into its inbox, in order, de-duplicated by id.
 * `beforeRename` is awaited once the new inbox is in its temp file, before the rename shows it
 * (the batch's `queued` records are made durable meanwhile); then the target is checked again,
 * so nothing is written to a team or member Teamdeck learnt was gone while it waited.
 */
export async function admitToInbox(ctx: InboxChannelContext, rt: Team, batch: SentState[], beforeRename?: () => Promise<void>): Promise<AppendResult[]> {
  const to = batch[0]!.to;
  const never = neverReadable(rt, to);
  if (never) throw new UndeliverableError(never);
  const paths = teamPaths(ctx.teamsRoot, rt.id);
  if (!exists(paths.config) && !exists(paths.inboxes) && !RECREATES_TEAM_FOLDERS) {
    if (!exists(paths.dir)) throw new UndeliverableError(`team ${rt.id} ended before it could be delivered (its folder is gone)`);
    // Claude writes only while the team's config.json exists; Teamdeck does not create inboxes in a folder without one.
    throw new AdmissionError(`team ${rt.id} has no config.json; waiting for Claude to write it`, true, 'ENOCONFIG');
  }
  const stem = inboxFileStem(to);
  try {
    return await appendManyToInbox(
      paths.inbox(to),
      batch.map((s) => inboxEntryFor(rt.era, { id: s.id, from: s.from, text: s.text, timestamp: s.timestamp, ...(s.summary ? { summary: s.summary } : {}) })),
      {
        preserveDir: join(ctx.stateDir, 'preserved', rt.id),
        preserveLabel: `${stem}.json`,
        // The folder's fsync and the lock's release run on after the answer: the `queued` record is
        // durable, so a rename the machine loses is written again at its next start.
        afterWrite: 'background',
        beforeRename: async () => {
          await beforeRename?.();
          const now = neverReadable(rt, to);
          if (now) throw new UndeliverableError(now);
        },
      },
    );
  } catch (e) {
    // The folder vanished under the write: Claude removed the team (its lead exited).
    if (e instanceof AdmissionError && e.code === 'ENOENT' && !exists(paths.dir)) {
      throw new UndeliverableError(`team ${rt.id} ended before it could be delivered (its folder is gone)`);
    }
    throw e;
  }
}
