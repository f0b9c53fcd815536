// A member's message on Teamdeck's messaging socket (its SendMessage to Teamdeck's address): its
// answer to the socket messages it had, journaled as observed with `source: "socket"`, so it is
// in the thread after a restart like every other answer.
import { deriveMessageId } from '../claude/message-id.js';
import type { PeerUserLine } from '../claude/peer-socket.js';
import { senderFor } from '../claude/era.js';
import type { ObservedWithText } from '../journal/journal.js';
import type { AppEvent } from '../../shared/contract.js';
import type { Deliveries } from '../delivery/deliveries.js';
import type { Team } from '../team/team.js';
import { observedToThread } from '../history/views.js';

export interface SocketAnswerContext {
  now: () => number;
  senderName: () => string;
  emit: (e: AppEvent) => void;
  delivery: Deliveries;
}

export async function answerToSocket(ctx: SocketAnswerContext, rt: Team, line: PeerUserLine, replyTo: string[]): Promise<void> {
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
