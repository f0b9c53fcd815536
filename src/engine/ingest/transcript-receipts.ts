// Current era: what the members' transcripts gained since the last look. A delivered message
// whose teammate block is in its recipient's transcript is `seen`; the last text of a turn whose
// prompts held Teamdeck's messages is the answer to exactly those (`replyTo`); a SendMessage the
// member aimed at the user or at Teamdeck's name is an answer too (Claude refuses those sends,
// so the transcript is the only place they exist; legacy Claude wrote them to user.json). Legacy
// teams with transcripts are read the same way, Teamdeck's name there being `user`.
import { senderFor } from '../claude/era.js';
import { forEachConcurrently } from '../files/concurrently.js';
import { USER_INBOX } from '../claude/team-reader.js';
import type { AppEvent } from '../../shared/contract.js';
import { holdsTeammateBlock, type PromptRow, type SendAttempt, type TranscriptFindings } from '../claude/transcripts.js';
import type { Deliveries } from '../delivery/deliveries.js';
import { isTerminalPrompt } from '../delivery/terminal-channel.js';
import { observedToThread } from '../history/views.js';
import type { JournalRecord, ObservedWithText, SentState } from '../journal/journal.js';
import type { Team } from '../team/team.js';
import { recordRows } from './transcript-record.js';

export interface ReceiptsContext {
  now: () => number;
  emit: (e: AppEvent) => void;
  senderName: () => string;
  delivery: Deliveries;
  /** The open teams. */
  teams: () => Iterable<Team>;
  /** Every row a poll read, per agent (live activity and timelines). */
  onRows: (rt: Team, rows: TranscriptFindings['rows']) => void;
  /** Agents seen only in transcripts join the roster (the lifecycle's); true if any did. */
  addAgents: (rt: Team, agents: Iterable<string>) => boolean;
  /** Someone's presence changed, or someone joined: the roster is told again. */
  rosterChanged: (rt: Team) => void;
  /** Transcripts get looked at again soon: a message waits to be seen or answered. */
  scheduleSeenPoll: () => void;
  /** The record gained messages (what Teamdeck remembers of the team, and an ended team's index entry, follow). */
  recorded?: (rt: Team) => void | Promise<void>;
}

/** Whether a prompt in the recipient's context is this sent message, by the channel it took. */
function carries(rt: Team, s: SentState, p: Pick<PromptRow, 'text' | 'typed' | 'peerMsgId'>): boolean {
  if (s.channel === 'terminal') return isTerminalPrompt(rt, s, p);
  if (s.channel === 'socket') return p.peerMsgId === s.id;
  return holdsTeammateBlock(p.text, s.from, s.text);
}

/** Ended teams whose transcripts were read to their end once since they ended. */
const drained = new WeakSet<Team>();

/**
 * How long after a team's end a poll that finds nothing does not yet mean its transcripts are
 * read to their end: at /exit Claude writes the lead's last rows after it removes the team's
 * folder (2.1.332 in the soak: the lead's transcript last changed just after its folder was seen
 * gone), and a poll can fall in between.
 */
const DRAIN_AFTER_END_MS = 2_000;

/**
 * Reads what was appended to the teams' transcripts: `seen` receipts and answers. An ended
 * team's are read until nothing more comes, from DRAIN_AFTER_END_MS after its end on (the last
 * answer a lead wrote as it exited, or while no engine ran), then only while a message to it
 * waits to be seen.
 */
export async function pollTranscripts(ctx: ReceiptsContext): Promise<void> {
  let waiting = false;
  // A few teams at a time: each team's files and records are its own.
  await forEachConcurrently(ctx.teams(), async (rt) => {
    if ((await pollTeam(ctx, rt)).waiting) waiting = true;
  });
  if (waiting) ctx.scheduleSeenPoll();
}

/**
 * One poll of one team's transcripts. `rows`: how many rows it read; `waiting`: a message to it
 * waits to be seen or answered, so its transcripts are looked at again soon.
 */
export async function pollTeam(ctx: ReceiptsContext, rt: Team): Promise<{ rows: number; waiting: boolean }> {
  const none = { rows: 0, waiting: false };
  if (!rt.transcripts) return none;
  const unseen = [...rt.history.sent.values()].filter((s) => s.deliveredAt !== undefined && s.seenAt === undefined);
  if (rt.ended && unseen.length === 0 && drained.has(rt)) return none;
  // The names Teamdeck wrote as on this team, and the user's: what is aimed at them is ours.
  const sendAs = senderFor(rt.era, ctx.senderName());
  const ours = new Set([USER_INBOX, sendAs, ...[...rt.history.sent.values()].map((s) => s.from)]);
  const found = await rt.transcripts.poll(rt.lead?.name ?? 'team-lead', ours);
  if (found.rows.length) ctx.onRows(rt, found.rows);
  else if (rt.ended && ctx.now() - rt.ended.at >= DRAIN_AFTER_END_MS) drained.add(rt);
  for (const p of found.prompts) rt.facts.noteTranscribed(p.agent);
  // Presence: what each agent last did; a teammate known only from its transcript is listed.
  let rosterChanged = ctx.addAgents(rt, found.activity.keys());
  for (const [agent, time] of found.activity) if (rt.facts.noteEvent(agent, time)) rosterChanged = true;
  const seen = unseen.filter((s) => found.prompts.some((p) => p.agent === s.to && carries(rt, s, p)));
  // Typed or sent on a socket, not yet journaled delivered, and already in context.
  for (const s of rt.history.sent.values()) {
    if (s.attemptedAt !== undefined && s.deliveredAt === undefined && s.undeliverableAt === undefined && found.prompts.some((p) => p.agent === s.to && carries(rt, s, p))) ctx.delivery.noteSeenEarly(rt, s.id);
  }
  if (seen.length) await ctx.delivery.markSeen(rt, seen.map((s) => s.id));
  // Legacy Claude delivers a send to the user into user.json: the record reads it (matched to
  // that entry by text, transcript-record.ts), not as a refused send only its transcript holds.
  const refused = rt.era === 'legacy' ? [] : found.sends;
  const answers: Array<SendAttempt & { replyTo?: string[] }> = refused.filter((a) => ours.has(a.to.toLowerCase()) || ours.has(a.to));
  for (const a of found.turnAnswers) {
    // The turn answered exactly the messages whose blocks were in its prompts.
    // A socket message's answer is the member's SendMessage back to Teamdeck's socket, not the turn's last text.
    const replyTo = [...rt.history.sent.values()].filter((s) => s.to === a.agent && s.channel !== 'socket' && a.promptRows.some((p) => carries(rt, s, p))).map((s) => s.id);
    if (replyTo.length) answers.push({ ...a, to: sendAs, replyTo });
  }
  const records: JournalRecord[] = [];
  for (const a of answers) {
    if (rt.history.observed.has(a.id) || records.some((r) => r.id === a.id)) continue;
    const o: ObservedWithText = { id: a.id, from: a.agent, to: a.to, text: a.text, timestamp: a.timestamp, at: ctx.now(), source: 'transcript' };
    if (a.replyTo) o.replyTo = a.replyTo;
    records.push({ t: 'observed', ...o });
  }
  if (records.length) {
    // Folded in at once (a poll that runs meanwhile takes these as known), then made durable.
    const durable = rt.history.stage(...records);
    for (const r of records) {
      const o = rt.history.observed.get(r.id)!;
      rt.facts.noteObserved(o, rt.era);
      ctx.emit({ type: 'message', team: rt.id, message: observedToThread(rt, o) });
    }
    await durable;
    ctx.delivery.announceAll(rt);
  }
  // The team's whole record, from the same rows (docs/claude-contract.md#record).
  if (found.rows.length && (await recordRows(ctx, rt, found.rows)) > 0) await ctx.recorded?.(rt);
  if (rosterChanged) ctx.rosterChanged(rt);
  // Looked at again soon while a message waits to be seen or answered.
  const unanswered = [...rt.history.sent.values()].some((s) => s.seenAt !== undefined && !rt.facts.isReplied(s.id));
  const rows = found.rows.reduce((n, r) => n + r.rows.length, 0);
  // An ended team's reading positions are kept once what they covered is in its journal.
  if (rows > 0 && rt.ended) await rt.transcripts.saveOffsets().catch(() => undefined);
  return { rows, waiting: (unseen.length > seen.length || unanswered) && !rt.ended };
}
