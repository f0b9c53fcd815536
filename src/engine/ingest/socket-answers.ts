// A member's message on Teamdeck's messaging socket (its SendMessage to Teamdeck's address): its
// answer to the socket messages it had, journaled as observed with `source: "socket"`, so it is
// in the thread after a restart like every other answer.
import { deriveMessageId } from '../claude/message-id.js';
import type { PeerUserLine } from '../claude/peer-socket.js';
import { senderFor } from '../claude/era.js';
import type { ObservedWithText } from '../journal/journal.js';
import type { TeamDirectory } from '../teams/team-directory.js';
import type { TeamRuntime } from '../team/team-runtime.js';
import { observedToThread } from '../history/views.js';

export async function answerToSocket(dir: TeamDirectory, rt: TeamRuntime, line: PeerUserLine, replyTo: string[]): Promise<void> {
  const ctx = dir.ctx;
  const lead = rt.lead?.name;
  if (!lead || rt.ended) return;
  const timestamp = new Date(ctx.now()).toISOString();
  const id = line.msgId ? `peer-${line.msgId}` : deriveMessageId(lead, timestamp, line.text);
  if (rt.history.observed.has(id)) return;
  const o: ObservedWithText = { id, from: lead, to: senderFor(rt.era, ctx.senderName()), text: line.text, timestamp, at: ctx.now(), source: 'socket' };
  if (replyTo.length) o.replyTo = replyTo;
  await rt.history.commit({ t: 'observed', ...o });
  rt.facts.noteObserved(rt.history.observed.get(id)!, rt.era);
  ctx.emit({ type: 'message', team: rt.id, message: observedToThread(rt, o) });
  ctx.delivery.announceAll(rt);
}
