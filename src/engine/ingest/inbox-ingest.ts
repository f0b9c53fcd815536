// Re-reading one inbox into the team's history (see ingest.ts for the folding rules): problems
// for unreadable or odd files (their bytes kept), journal records for what is new, events for
// the window, and a nudge for a queue waiting on that inbox.
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { looksOf } from '../claude/inbox-read.js';
import { inboxFileStem, teamPaths } from '../claude/paths.js';
import { preserveBytes } from '../files/preserve.js';
import { COMPACT_AFTER } from '../journal/journal.js';
import type { TeamDirectory } from '../teams/team-directory.js';
import type { TeamRuntime } from '../team/team-runtime.js';
import { markOf, sameLooks, type InboxMark } from './inbox-marks.js';
import { foldInbox } from './ingest.js';
import { answerFor, observedToThread } from '../history/views.js';

/** An inbox this large is reported: Claude's delivery is known to stall past about 1 MB. */
export const HUGE_INBOX_BYTES = 1_000_000;

/**
 * Re-reads one inbox and folds what changed into history and receipts. Never sends anything:
 * the only thing it may do for delivery is wake a waiting queue. One read of an inbox at a time,
 * whoever asks (a watcher's report, the team's opening, its reopening): two at once could each
 * fold what the other had not, and the one that ends last leaves its older look of the file as
 * the last seen, so a message appended between them is never read.
 */
export function ingestInbox(dir: TeamDirectory, rt: TeamRuntime, owner: string, announce: boolean): Promise<void> {
  const run = (rt.ingesting.get(owner) ?? Promise.resolve()).then(() => ingestOnce(dir, rt, owner, announce));
  const done = run.then(() => {}, () => {});
  rt.ingesting.set(owner, done);
  void done.then(() => {
    if (rt.ingesting.get(owner) === done) rt.ingesting.delete(owner);
  });
  return run;
}

async function ingestOnce(dir: TeamDirectory, rt: TeamRuntime, owner: string, announce: boolean): Promise<void> {
  const ctx = dir.ctx;
  const seqAtStart = ctx.delivery.writeSeq;
  const path = join(teamPaths(ctx.teamsRoot, rt.id).inboxes, `${owner}.json`);
  const file = `${rt.id}/inboxes/${owner}.json`;
  // Wall clock, as the file's times are (inbox-marks.ts).
  const readAt = Date.now();
  const r = await dir.inboxReader.read(path, rt.id, owner);
  rt.folded.delete(owner);
  const key = `inbox:${owner}`;
  if (!rt.owners.includes(owner) && r.kind !== 'missing') {
    rt.owners.push(owner);
    rt.owners.sort();
  }
  if (r.kind === 'missing') {
    rt.seen.delete(owner);
    rt.inboxCounts.delete(owner);
    rt.problems.delete(key);
    return;
  }
  if (r.kind === 'error') {
    dir.teamProblem(rt, key, { kind: 'inbox', file, message: r.reason }, announce);
    return;
  }
  if (r.kind === 'corrupt') {
    // Never treated as empty, never rewritten by us; its bytes are kept before Claude's
    // next write (which treats it as empty) can destroy them.
    const preservedAt = await preserveBytes(join(ctx.stateDir, 'preserved', rt.id), `${owner}.json`, r.bytes).catch(() => undefined);
    rt.seen.set(owner, { size: r.size, mtimeMs: r.mtimeMs });
    dir.teamProblem(rt, key, { kind: 'inbox', file, message: `unreadable: ${r.reason}${preservedAt ? '; its bytes were kept' : ''}`, preservedAt }, announce);
    return;
  }
  rt.seen.set(owner, { size: r.size, mtimeMs: r.mtimeMs });
  rt.inboxCounts.set(owner, r.messages.length);
  // A 0-byte file is being created, or rewritten in place by an older Claude: it says
  // nothing about what was consumed, and a later read will see the real contents.
  if (r.size === 0) return;
  noteShape(dir, rt, owner, r.size, r.invalidEntries, announce);
  // When the file only grew by appends since the last read, the messages before are the same
  // bytes as then, already folded in: only the new ones are looked at.
  const from = 'appended' in r ? r.messages.length - r.appended : 0;
  const fold = foldInbox(rt, owner, r.messages, from, seqAtStart, ctx.now(), (id) => ctx.delivery.writtenSeqOf(rt, id));
  if (fold.records.length) {
    try {
      await rt.history.stage(...fold.records);
    } catch (e) {
      // What this fold put in memory is not in the journal: no start may skip a read of it.
      rt.marksSpoiled = true;
      throw e;
    }
  }
  const fresh = fold.fresh.map((o) => rt.history.observed.get(o.id)!);
  const mark = markOf(r.looks, r.size, r.messages.length, r.invalidEntries, readAt);
  if (mark) rt.folded.set(owner, mark);
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
  if (rosterChanged || fresh.some((o) => !rt.members.some((mm) => mm.name === o.from))) dir.refreshMembers(rt);
  // The target's inbox changed: a queue waiting on it may get through now.
  ctx.delivery.kickInbox(rt, owner);
  if (fold.records.some((x) => x.t === 'consumed')) ctx.scheduleSeenPoll();
  if (rt.history.segmentRecords > COMPACT_AFTER) await dir.compactJournal(rt, true);
}

/** A huge inbox, or one with entries that are not messages, is a problem of the team's; else its problem is gone. */
function noteShape(dir: TeamDirectory, rt: TeamRuntime, owner: string, size: number, invalidEntries: number, announce: boolean): void {
  const key = `inbox:${owner}`;
  const file = `${rt.id}/inboxes/${owner}.json`;
  if (size > HUGE_INBOX_BYTES) {
    dir.teamProblem(rt, key, { kind: 'inbox', file, message: `inbox is ${(size / 1e6).toFixed(1)} MB; Claude's delivery slows down past about 1 MB` }, announce);
  } else if (invalidEntries > 0) {
    dir.teamProblem(rt, key, { kind: 'inbox', file, message: `${invalidEntries} entries are not messages and were skipped (left in the file)` }, announce);
  } else if (rt.problems.delete(key) && announce) {
    dir.ctx.emit({ type: 'teams', teams: dir.summaries() });
  }
}

/**
 * At a team's opening: an inbox that looks exactly as it did when its last read was folded into
 * the journal (its mark, inbox-marks.ts) is not read again; what that read found is taken as it
 * is. False when it must be read (no mark, the file changed, or it is not a plain file in a real folder).
 */
export async function takeMarkedInbox(dir: TeamDirectory, rt: TeamRuntime, owner: string, mark: InboxMark | undefined): Promise<boolean> {
  if (!mark || awaitsReceipt(rt, owner)) return false;
  const inboxes = teamPaths(dir.ctx.teamsRoot, rt.id).inboxes;
  const [folder, st] = await Promise.all([lstat(inboxes).catch(() => undefined), lstat(join(inboxes, `${owner}.json`)).catch(() => undefined)]);
  if (!folder?.isDirectory() || !st?.isFile() || !sameLooks(mark, looksOf(st))) return false;
  rt.seen.set(owner, { size: mark.size, mtimeMs: mark.mtimeMs });
  rt.inboxCounts.set(owner, mark.messages);
  rt.folded.set(owner, mark);
  noteShape(dir, rt, owner, mark.size, mark.invalidEntries, false);
  return true;
}

/**
 * A message to this inbox's owner is delivered and not yet taken: a read could find it flagged
 * or gone (a `consumed` record) even though the file is as it was, because its delivery may have
 * been journaled after that read (recovery of a send that was already in the inbox; a typed or
 * socket delivery, which never touches the inbox).
 */
function awaitsReceipt(rt: TeamRuntime, owner: string): boolean {
  for (const s of rt.history.sent.values()) if (s.deliveredAt !== undefined && s.consumedAt === undefined && inboxFileStem(s.to) === owner) return true;
  return false;
}
