// Reading a team's inboxes into its history (ingest.ts has the folding rules): which inboxes it
// has, how each looked when last read, problems for unreadable or odd files (their bytes kept),
// journal records for what is new, events for the window, and a nudge for a queue waiting on
// that inbox. It owns what it knows of each open team's inboxes; the directory asks it.
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppEvent } from '../../shared/contract.js';
import type { TeamProblem } from '../../shared/types.js';
import { InboxReader } from '../claude/inbox-tail.js';
import { looksOf } from '../claude/inbox-read.js';
import { inboxFileStem, teamPaths } from '../claude/paths.js';
import { listInboxOwners } from '../claude/team-reader.js';
import type { Deliveries } from '../delivery/deliveries.js';
import { preserveBytes } from '../files/preserve.js';
import { answerFor, observedToThread } from '../history/views.js';
import { COMPACT_AFTER } from '../journal/journal.js';
import type { Team } from '../team/team.js';
import { markOf, sameLooks, writeInboxMarks, type InboxMark } from './inbox-marks.js';
import { foldInbox } from './ingest.js';
import { InOrder } from '../in-order.js';

/** An inbox this large is reported: Claude's delivery is known to stall past about 1 MB. */
export const HUGE_INBOX_BYTES = 1_000_000;

export interface InboxIngestContext {
  teamsRoot: string;
  stateDir: string;
  now: () => number;
  emit: (e: AppEvent) => void;
  delivery: Deliveries;
  /** A problem with one of the team's files, under `key`; told to the window when `announce`. */
  problem: (rt: Team, key: string, p: TeamProblem, announce: boolean) => void;
  /** The problem under `key` is gone; the window is told when `announce`. */
  problemGone: (rt: Team, key: string, announce: boolean) => void;
  /** Someone new spoke, or a member shut down: the roster is worked out and told again. */
  membersChanged: (rt: Team) => void;
  /** The journal's segment is long: it is folded into a snapshot. */
  compact: (rt: Team) => Promise<void>;
  /** A message was taken from an inbox: transcripts get looked at soon for its `seen`. */
  scheduleSeenPoll: () => void;
}

/** What is known of one team's inboxes. */
interface TeamInboxes {
  /** The inbox files' stems, sorted. */
  owners: string[];
  /** Per inbox, how it looked at its last read (the safety net reads it again when it differs). */
  seen: Map<string, { size: number; mtimeMs: number }>;
  /** Entries in each inbox at its last read (orphan inboxes in the needs-you queue). */
  counts: Map<string, number>;
  /** Inboxes whose last read is folded into the journal, as they looked then (inbox-marks.ts). */
  folded: Map<string, InboxMark>;
  /** A fold failed to reach the journal: no inbox marks are written for this run. */
  spoiled: boolean;
  /** Per inbox, its reads: one at a time. */
  reading: InOrder;
}

export class InboxIngest {
  /** Reads only the appended tail of a huge inbox that grew by appends. */
  private readonly reader = new InboxReader();
  private readonly teams = new WeakMap<Team, TeamInboxes>();
  /** Inboxes at the teams' openings: read and folded, or skipped by their marks. */
  readonly openings = { read: 0, skipped: 0 };

  constructor(private readonly ctx: InboxIngestContext) {}

  private of(rt: Team): TeamInboxes {
    let t = this.teams.get(rt);
    if (!t) this.teams.set(rt, (t = { owners: [], seen: new Map(), counts: new Map(), folded: new Map(), spoiled: false, reading: new InOrder() }));
    return t;
  }

  /** The team's inbox files (their stems), as last listed or read. */
  owners(rt: Team): readonly string[] {
    return this.teams.get(rt)?.owners ?? [];
  }

  /** How the inbox looked at its last read, if it was read. */
  seenOf(rt: Team, owner: string): { size: number; mtimeMs: number } | undefined {
    return this.teams.get(rt)?.seen.get(owner);
  }

  /** Entries in the inbox at its last read. */
  countOf(rt: Team, owner: string): number {
    return this.teams.get(rt)?.counts.get(owner) ?? 0;
  }

  /** Lists the team's inbox files again; the names not known before. */
  async listNew(rt: Team): Promise<string[]> {
    const known = this.owners(rt);
    return (await listInboxOwners(teamPaths(this.ctx.teamsRoot, rt.id).inboxes)).filter((o) => !known.includes(o));
  }

  /** Lists the team's inbox files (a team's opening, or its folder back); their stems, sorted. */
  async list(rt: Team): Promise<readonly string[]> {
    const t = this.of(rt);
    t.owners = await listInboxOwners(teamPaths(this.ctx.teamsRoot, rt.id).inboxes);
    return t.owners;
  }

  /**
   * A team's opening: reads every listed inbox, all at once (their reads overlap, and their
   * journal appends share fsyncs; one by one, a first read of 5,000 messages in nine inboxes
   * spent a third of its time waiting on the disk). An inbox whose mark says the journal holds it
   * as it is now is not read again.
   */
  async openAll(rt: Team, marks: ReadonlyMap<string, InboxMark> | undefined): Promise<void> {
    const done = await Promise.allSettled(
      [...this.owners(rt)].map(async (owner) => {
        if (await this.takeMarked(rt, owner, marks?.get(owner))) this.openings.skipped++;
        else {
          this.openings.read++;
          await this.read(rt, owner, false);
        }
      }),
    );
    for (const o of done) if (o.status === 'rejected') throw o.reason;
  }

  /** Reads every listed inbox again, one after another (a folder back under an ended team's name). */
  async readAll(rt: Team): Promise<void> {
    for (const owner of [...this.owners(rt)]) await this.read(rt, owner, false);
  }

  /**
   * Re-reads one inbox and folds what changed into history and receipts. Never sends anything:
   * the only thing it may do for delivery is wake a waiting queue. One read of an inbox at a
   * time, whoever asks (a watcher's report, the team's opening, its reopening): two at once
   * could each fold what the other had not, and the one that ends last leaves its older look of
   * the file as the last seen, so a message appended between them is never read.
   */
  read(rt: Team, owner: string, announce: boolean): Promise<void> {
    return this.of(rt).reading.run(owner, () => this.readOnce(rt, owner, announce));
  }

  private async readOnce(rt: Team, owner: string, announce: boolean): Promise<void> {
    const ctx = this.ctx;
    const t = this.of(rt);
    const seqAtStart = ctx.delivery.writeSeq;
    const path = join(teamPaths(ctx.teamsRoot, rt.id).inboxes, `${owner}.json`);
    const file = `${rt.id}/inboxes/${owner}.json`;
    // Wall clock, as the file's times are (inbox-marks.ts).
    const readAt = Date.now();
    const r = await this.reader.read(path, rt.id, owner);
    t.folded.delete(owner);
    const key = `inbox:${owner}`;
    if (!t.owners.includes(owner) && r.kind !== 'missing') {
      t.owners.push(owner);
      t.owners.sort();
    }
    if (r.kind === 'missing') {
      t.seen.delete(owner);
      t.counts.delete(owner);
      ctx.problemGone(rt, key, false);
      return;
    }
    if (r.kind === 'error') {
      ctx.problem(rt, key, { kind: 'inbox', file, message: r.reason }, announce);
      return;
    }
    if (r.kind === 'corrupt') {
      // Never treated as empty, never rewritten by us; its bytes are kept before Claude's
      // next write (which treats it as empty) can destroy them.
      const preservedAt = await preserveBytes(join(ctx.stateDir, 'preserved', rt.id), `${owner}.json`, r.bytes).catch(() => undefined);
      t.seen.set(owner, { size: r.size, mtimeMs: r.mtimeMs });
      ctx.problem(rt, key, { kind: 'inbox', file, message: `unreadable: ${r.reason}${preservedAt ? '; its bytes were kept' : ''}`, preservedAt }, announce);
      return;
    }
    t.seen.set(owner, { size: r.size, mtimeMs: r.mtimeMs });
    t.counts.set(owner, r.messages.length);
    // A 0-byte file is being created, or rewritten in place by an older Claude: it says
    // nothing about what was consumed, and a later read will see the real contents.
    if (r.size === 0) return;
    this.noteShape(rt, owner, r.size, r.invalidEntries, announce);
    // When the file only grew by appends since the last read, the messages before are the same
    // bytes as then, already folded in: only the new ones are looked at.
    const from = 'appended' in r ? r.messages.length - r.appended : 0;
    const fold = foldInbox(rt, owner, r.messages, from, seqAtStart, ctx.now(), (id) => ctx.delivery.writtenSeqOf(rt, id));
    if (fold.records.length) {
      try {
        await rt.history.stage(...fold.records);
      } catch (e) {
        // What this fold put in memory is not in the journal: no start may skip a read of it.
        t.spoiled = true;
        throw e;
      }
    }
    const fresh = fold.fresh.map((id) => rt.history.observed.get(id)!);
    const mark = markOf(r.looks, r.size, r.messages.length, r.invalidEntries, readAt);
    if (mark) t.folded.set(owner, mark);
    let rosterChanged = false;
    for (const o of fresh) {
      const wasTerminated = rt.facts.hasShutDown(o.from);
      if (rt.facts.noteObserved(o, rt.era)) rosterChanged = true;
      // A member that shut down never reads again: what waits for it is undeliverable now.
      if (!wasTerminated && rt.facts.hasShutDown(o.from)) ctx.delivery.kickInbox(rt, o.from);
    }
    if (!announce) return;
    for (const o of fresh) {
      ctx.emit({ type: 'message', team: rt.id, message: observedToThread(rt, o) });
      // An idle notification that answers Teamdeck also shows as the member's own message.
      const answer = rt.era === 'current' ? answerFor(rt, o) : undefined;
      if (answer && answer.id !== o.id) ctx.emit({ type: 'message', team: rt.id, message: answer });
    }
    ctx.delivery.announceAll(rt);
    if (rosterChanged || fresh.some((o) => !rt.members.some((mm) => mm.name === o.from))) ctx.membersChanged(rt);
    // The target's inbox changed: a queue waiting on it may get through now.
    ctx.delivery.kickInbox(rt, owner);
    if (fold.records.some((x) => x.t === 'consumed')) ctx.scheduleSeenPoll();
    if (rt.history.segmentRecords > COMPACT_AFTER) await ctx.compact(rt);
  }

  /** A huge inbox, or one with entries that are not messages, is a problem of the team's; else its problem is gone. */
  private noteShape(rt: Team, owner: string, size: number, invalidEntries: number, announce: boolean): void {
    const key = `inbox:${owner}`;
    const file = `${rt.id}/inboxes/${owner}.json`;
    if (size > HUGE_INBOX_BYTES) {
      this.ctx.problem(rt, key, { kind: 'inbox', file, message: `inbox is ${(size / 1e6).toFixed(1)} MB; Claude's delivery slows down past about 1 MB` }, announce);
    } else if (invalidEntries > 0) {
      this.ctx.problem(rt, key, { kind: 'inbox', file, message: `${invalidEntries} entries are not messages and were skipped (left in the file)` }, announce);
    } else this.ctx.problemGone(rt, key, announce);
  }

  /**
   * At a team's opening: an inbox that looks exactly as it did when its last read was folded
   * into the journal (its mark, inbox-marks.ts) is not read again; what that read found is taken
   * as it is. False when it must be read (no mark, the file changed, or it is not a plain file in
   * a real folder).
   */
  private async takeMarked(rt: Team, owner: string, mark: InboxMark | undefined): Promise<boolean> {
    if (!mark || awaitsReceipt(rt, owner)) return false;
    const inboxes = teamPaths(this.ctx.teamsRoot, rt.id).inboxes;
    // One that cannot be looked at is not taken as marked: its ordinary read says why.
    const [folder, st] = await Promise.all([lstat(inboxes).catch(() => undefined), lstat(join(inboxes, `${owner}.json`)).catch(() => undefined)]);
    if (!folder?.isDirectory() || !st?.isFile() || !sameLooks(mark, looksOf(st))) return false;
    const t = this.of(rt);
    t.seen.set(owner, { size: mark.size, mtimeMs: mark.mtimeMs });
    t.counts.set(owner, mark.messages);
    t.folded.set(owner, mark);
    this.noteShape(rt, owner, mark.size, mark.invalidEntries, false);
    return true;
  }

  /** At stop, once everything is read: the marks of a running team's inboxes, for its next opening. */
  async saveMarks(rt: Team, journalDir: string): Promise<void> {
    const t = this.teams.get(rt);
    if (rt.ended || !t || t.spoiled || t.folded.size === 0) return;
    await rt.history.drain();
    await writeInboxMarks(journalDir, await rt.history.position(), t.folded);
  }
}

/**
 * A message to this inbox's owner is delivered and not yet taken: a read could find it flagged
 * or gone (a `consumed` record) even though the file is as it was, because its delivery may have
 * been journaled after that read (recovery of a send that was already in the inbox; a typed or
 * socket delivery, which never touches the inbox).
 */
function awaitsReceipt(rt: Team, owner: string): boolean {
  for (const s of rt.history.sent.values()) if (s.deliveredAt !== undefined && s.consumedAt === undefined && inboxFileStem(s.to) === owner) return true;
  return false;
}
