// The Steer model for every team: a send is journaled `queued` (fsync) before any delivery,
// then admitted through its target's outbox in journal order, journaled `delivered`, and
// answered `accepted`; a temporary failure answers `queued` and retries; a target that can
// never read it makes it `undeliverable`. Receipts (taken, seen, replied) are announced here.
// Into an inbox, the write is prepared while the `queued` record is synced (the temp file
// written and fsync'd beside the inbox); the rename that shows it waits for that record. The
// answer follows the rename and the `delivered` record's write; the inbox folder's fsync, the
// lock's release and that record's fdatasync run on after it (see docs/delivery.md#after-the-answer).
import type { AppEvent } from '../../shared/contract.js';
import type { ChannelKind, DeliveryStatus, MemberInfo, SendResult } from '../../shared/types.js';
import { newMessageId } from '../claude/message-id.js';
import { inboxFileStem } from '../claude/paths.js';
import { SendRefusedError } from '../errors.js';
import type { Team } from '../team/team.js';
import { answerClock, sentToThread, statusOf, type SentNotes } from '../history/views.js';
import { admitToInbox } from './inbox-channel.js';
import { admitToTerminal, type TerminalChannelContext } from './terminal-channel.js';
import type { SocketChannel } from './socket-channel.js';
import type { JournalRecord, SentState } from '../journal/journal.js';
import { TargetOutbox, UndeliverableError, type BackoffOptions, type Outcome } from './outbox.js';

export interface DeliveriesContext {
  teamsRoot: string;
  stateDir: string;
  now: () => number;
  backoff: BackoffOptions;
  maxPending: number;
  emit: (e: AppEvent) => void;
  /** The terminal channel, where this engine hosts lead terminals. */
  terminal?: TerminalChannelContext;
  /** The socket channel (Claude's messaging sockets). */
  socket?: SocketChannel;
}

/** The outbox key of a team's terminal: one queue for every message typed into it, in order. */
const TERMINAL_QUEUE = '\u0000terminal';
/** A dialog or the user's typing is cheap to look at again: the terminal queue retries often. */
const TERMINAL_BACKOFF: BackoffOptions = { initialMs: 250, maxMs: 1_000 };

/** What deliveries hold for one team while it is open: none of it is journaled. */
interface TeamDelivery {
  /** One queue per target (an inbox stem, the terminal, a socket), drained in journal order. */
  outboxes: Map<string, TargetOutbox>;
  /** Status last announced per sent id, to emit only changes. */
  announced: Map<string, DeliveryStatus>;
  /** Why each waiting message waits. */
  waitReason: Map<string, string>;
  /** Write sequence at which each sent id was written into its inbox in this process. */
  writtenSeq: Map<string, number>;
  /**
   * Typed or socket messages found in their recipient's transcript before their delivery was
   * journaled (Claude can take the keys and write the row before the journal append): marked
   * seen as soon as it is.
   */
  seenEarly: Set<string>;
}

export class Deliveries {
  /** Bumped at every inbox write: a read that began before a write cannot judge it consumed. */
  private seq = 0;

  /** Inbox sends whose `queued` record is being made durable (not yet in the team's state). */
  private readonly journaling = new Map<string, SentState>();

  /** Per open team: forgotten when the team is closed (forget). */
  private readonly teams = new Map<Team, TeamDelivery>();

  constructor(private readonly ctx: DeliveriesContext) {}

  /** The inbox write sequence now: a read that began before a later write cannot judge that message consumed. */
  get writeSeq(): number {
    return this.seq;
  }

  private of(rt: Team): TeamDelivery {
    let d = this.teams.get(rt);
    if (!d) this.teams.set(rt, (d = { outboxes: new Map(), announced: new Map(), waitReason: new Map(), writtenSeq: new Map(), seenEarly: new Set() }));
    return d;
  }

  /** The write sequence at which this message was written into its inbox by this process (0: not by this one). */
  writtenSeqOf(rt: Team, id: string): number {
    return this.teams.get(rt)?.writtenSeq.get(id) ?? 0;
  }

  /** Why a queued message waits, while it does. */
  waitReasonOf(rt: Team, id: string): string | undefined {
    return this.teams.get(rt)?.waitReason.get(id);
  }

  /** What the thread says beside a sent message: why it waits, or what Claude said of it on its socket. */
  notesOf(rt: Team): SentNotes {
    return { waitReason: (id) => this.waitReasonOf(rt, id), peerNote: (id) => this.ctx.socket?.noteOf(rt, id)?.reason };
  }

  /** A message to this member was found in its transcript before its delivery was journaled. */
  noteSeenEarly(rt: Team, id: string): void {
    this.of(rt).seenEarly.add(id);
  }

  /** Messages waiting in every outbox, for the status bar. */
  queuedCount(): number {
    let n = 0;
    for (const d of this.teams.values()) for (const o of d.outboxes.values()) n += o.size;
    return n;
  }

  /** Something of the team's is still on its way: journaled or being journaled, not delivered. */
  hasPending(rt: Team): boolean {
    return [...(this.teams.get(rt)?.outboxes.values() ?? [])].some((o) => o.load > 0);
  }

  /** The team was closed: its queues stop (what they held is journaled and recovered at its next opening). */
  async forget(rt: Team): Promise<void> {
    const d = this.teams.get(rt);
    this.teams.delete(rt);
    for (const o of d?.outboxes.values() ?? []) await o.stop();
  }

  /** At stop: every queue stops. */
  async stop(): Promise<void> {
    for (const rt of [...this.teams.keys()]) await this.forget(rt);
  }

  /** The message's line in its thread changed (a note of Claude's about it): the window gets it again. */
  announceMessage(rt: Team, id: string): void {
    const s = rt.history.sent.get(id);
    if (s) this.ctx.emit({ type: 'message', team: rt.id, message: sentToThread(rt, s, this.notesOf(rt)) });
  }

  private outboxFor(rt: Team, to: string, channel: ChannelKind = 'inbox'): TargetOutbox {
    const terminal = channel === 'terminal';
    const socket = channel === 'socket';
    const stem = terminal ? TERMINAL_QUEUE : socket ? `\u0000socket:${to}` : inboxFileStem(to);
    const team = this.of(rt);
    let o = team.outboxes.get(stem);
    if (o) return o;
    o = new TargetOutbox(
      {
        admit: async (ids) => {
          if (terminal) return [await this.admitTyped(rt, rt.history.sent.get(ids[0]!)!)];
          if (socket) return [await this.admitSocket(rt, rt.history.sent.get(ids[0]!)!)];
          const journaled = () => o!.journaled(ids);
          const batch = ids.map((id) => rt.history.sent.get(id) ?? this.journaling.get(id));
          if (batch.some((s) => !s)) {
            await journaled();
            throw new Error('a message of this batch is not in the journal');
          }
          const r = await admitToInbox(this.ctx, rt, batch as SentState[], journaled);
          // Every one already in the inbox (nothing renamed): still nothing counts before its record.
          await journaled();
          const seq = ++this.seq;
          for (const id of ids) team.writtenSeq.set(id, seq);
          return r;
        },
        delivered: async (ids, duplicates) => {
          const at = this.ctx.now();
          // Written, not waited for on the disk: a crash of this process keeps it (the kernel has
          // it); a crash of the machine before its fdatasync leaves the durable `queued` record,
          // and the retry finds the message by its id (or the lead died with the machine).
          await rt.history.commitWritten(...ids.map((id, i): JournalRecord => ({ t: 'delivered', id, to: rt.history.sent.get(id)!.to, at, ...(duplicates[i] ? { duplicate: true } : {}) })));
          for (const id of ids) {
            const s = rt.history.sent.get(id)!;
            team.waitReason.delete(id);
            this.announce(rt, s);
          }
          // Already read in its recipient's transcript while the delivery was being journaled.
          const early = ids.filter((id) => team.seenEarly.delete(id));
          if (early.length) await this.markSeen(rt, early);
        },
        undeliverable: async (ids, reason) => {
          const at = this.ctx.now();
          await rt.history.commit(...ids.map((id): JournalRecord => ({ t: 'undeliverable', id, to: rt.history.sent.get(id)!.to, at, reason })));
          for (const id of ids) {
            const s = rt.history.sent.get(id)!;
            team.waitReason.delete(id);
            this.announce(rt, s);
          }
        },
        drained: () => this.ctx.emit({ type: 'queued-count', count: this.queuedCount() }),
        waiting: (ids, reason) => {
          for (const id of ids) team.waitReason.set(id, reason);
          for (const id of ids) {
            const s = rt.history.sent.get(id);
            if (s) this.ctx.emit({ type: 'delivery', team: rt.id, id, to: s.to, status: 'queued', reason });
          }
        },
      },
      terminal ? TERMINAL_BACKOFF : this.ctx.backoff,
      terminal || socket ? 1 : undefined,
    );
    team.outboxes.set(stem, o);
    return o;
  }

  private admitSocket(rt: Team, s: SentState): Promise<{ duplicate: boolean }> {
    const socket = this.ctx.socket;
    if (!socket) throw new UndeliverableError('this Teamdeck does not use messaging sockets');
    return socket.admit(rt, s, () => this.journalAttempt(rt, s));
  }

  private journalAttempt(rt: Team, s: SentState): Promise<void> {
    return rt.history.commit({ t: 'attempt', id: s.id, to: s.to, at: this.ctx.now() });
  }

  private admitTyped(rt: Team, s: SentState): Promise<{ duplicate: boolean }> {
    const ctx = this.ctx.terminal;
    if (!ctx) throw new UndeliverableError('this Teamdeck hosts no terminals, so it cannot type into the lead\'s');
    return admitToTerminal(ctx, rt, s, () => this.journalAttempt(rt, s));
  }

  /**
   * Journals and delivers one message to an already checked member. Runs without yielding up
   * to the journal append when called synchronously, so concurrent sends keep call order.
   */
  async send(rt: Team, member: MemberInfo, text: string, summary: string | undefined, sendAs: string, channel: ChannelKind = 'inbox'): Promise<SendResult> {
    const outbox = this.outboxFor(rt, member.name, channel);
    if (outbox.load >= this.ctx.maxPending) {
      throw new SendRefusedError(`${member.name} already has ${outbox.load} undelivered messages (limit ${this.ctx.maxPending}); wait for them to be delivered`);
    }
    const unreserve = outbox.reserve();
    const at = this.ctx.now();
    const id = newMessageId();
    const s: SentState = { id, to: member.name, from: sendAs, text, timestamp: new Date(at).toISOString(), queuedAt: at };
    if (summary) s.summary = summary;
    if (channel !== 'inbox') s.channel = channel;
    let delivery: Promise<Outcome>;
    let journaled: Promise<void>;
    try {
      // Journal first: once the record is durable the message cannot be lost. (If the journal
      // cannot be written, the send fails with nothing stored and nothing delivered.)
      journaled = rt.history.commit({ t: 'queued', id, to: s.to, from: sendAs, text, ...(summary ? { summary } : {}), timestamp: s.timestamp, at, ...(s.channel ? { channel: s.channel } : {}) }).then(() => {
        const team = this.of(rt);
        team.announced.set(id, 'queued');
        this.ctx.emit({ type: 'message', team: rt.id, message: sentToThread(rt, rt.history.sent.get(id)!, this.notesOf(rt)) });
        // It waited in a queue that stopped while it was being journaled.
        const reason = team.waitReason.get(id);
        if (reason) this.ctx.emit({ type: 'delivery', team: rt.id, id, to: s.to, status: 'queued', reason });
      });
      if (channel === 'inbox') {
        // Its inbox write is prepared meanwhile; the outbox shows nothing before the record is durable.
        this.journaling.set(id, s);
        journaled.then(
          () => this.journaling.delete(id),
          () => {
            this.journaling.delete(id);
            this.teams.get(rt)?.waitReason.delete(id);
          },
        );
        delivery = outbox.enqueue(id, true, journaled);
      } else {
        // A terminal or socket delivery journals an attempt first: it begins after the record.
        await journaled;
        delivery = outbox.enqueue(id, true);
      }
    } finally {
      unreserve();
    }
    // No answer before the record is durable: a failed one fails the send (and nothing was written).
    await journaled;
    const outcome = await delivery;
    if (outcome.status === 'accepted') return { id, status: 'accepted' };
    if (outcome.status === 'queued') this.ctx.emit({ type: 'queued-count', count: this.queuedCount() });
    return { id, status: outcome.status, reason: outcome.reason };
  }

  /** At start: everything journaled and not delivered goes back on its target's queue, in journal order. */
  recover(rt: Team): void {
    const clock = answerClock(rt);
    const { announced } = this.of(rt);
    for (const s of rt.history.sent.values()) {
      if (s.deliveredAt === undefined && s.undeliverableAt === undefined) this.outboxFor(rt, s.to, s.channel).enqueue(s.id);
      announced.set(s.id, statusOf(rt, s, clock(s.to)));
    }
  }

  /** Gives the team's typed messages another try now (its terminal or the lead's sessions status changed). */
  kickTerminal(rt: Team): void {
    this.teams.get(rt)?.outboxes.get(TERMINAL_QUEUE)?.kick();
  }

  /** Gives every waiting queue of the team another try now (the team ended, a member shut down, an inbox changed). */
  kickAll(rt: Team): void {
    for (const o of this.teams.get(rt)?.outboxes.values() ?? []) o.kick();
  }

  /** Gives the queue into this member's inbox another try now (its inbox changed, or it shut down). */
  kickInbox(rt: Team, member: string): void {
    this.teams.get(rt)?.outboxes.get(inboxFileStem(member))?.kick();
  }

  /** Journals that these delivered messages are in their recipients' transcripts. */
  async markSeen(rt: Team, ids: string[]): Promise<void> {
    const at = this.ctx.now();
    const fresh = ids.map((id) => rt.history.sent.get(id)!).filter((s) => s && s.deliveredAt !== undefined && s.seenAt === undefined);
    if (fresh.length === 0) return;
    // In its transcript means taken from its inbox too: the transcript can be read before the
    // prune is (Claude writes the row as it sends the request). Taken is journaled and shown first.
    const untaken = fresh.filter((s) => s.consumedAt === undefined);
    await rt.history.commit(
      ...untaken.map((s): JournalRecord => ({ t: 'consumed', id: s.id, to: s.to, at, how: 'pruned' })),
      ...fresh.map((s): JournalRecord => ({ t: 'seen', id: s.id, to: s.to, at })),
    );
    // Taken is shown before seen: both are folded in at once, so each is announced as it stood
    // before its seen record.
    for (const s of untaken) this.announce(rt, { ...s, seenAt: undefined });
    this.announceAll(rt);
  }

  private announce(rt: Team, s: SentState, lastAnswer?: number): void {
    const st = statusOf(rt, s, lastAnswer);
    const { announced } = this.of(rt);
    if (announced.get(s.id) === st) return;
    announced.set(s.id, st);
    const reason = st === 'undeliverable' ? s.reason : undefined;
    this.ctx.emit({ type: 'delivery', team: rt.id, id: s.id, to: s.to, status: st, ...(reason ? { reason } : {}) });
  }

  /** Announces every sent message whose state changed (after a receipt or an answer). */
  announceAll(rt: Team): void {
    const clock = answerClock(rt);
    const { announced } = this.of(rt);
    for (const s of rt.history.sent.values()) {
      const last = announced.get(s.id);
      if (last !== 'replied' && last !== 'undeliverable') this.announce(rt, s, clock(s.to));
    }
  }
}
