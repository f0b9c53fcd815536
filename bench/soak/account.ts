// The soak's account: every send followed from its answer through the journal to the member
// that took it, each answer checked against the journal as the kill after it left it.
//
// - lost: answered (accepted or queued) or journaled, and never arrived; must be 0
// - order violations: a member got its messages in another order than they were sent; must be 0
// - duplicates: only inside the documented window (docs/delivery.md#duplicate-window): the engine wrote the
//   message but was killed before journaling `delivered`, and the member took it before the
//   restarted engine wrote it again (the message is no longer there to be recognised by id)
// - journal folds: Journal.open after every kill and at the end; every one must fold
import type { FoldedState } from '../../src/engine/journal/journal.js';
import { copies, firstArrivalOrder, type Seen } from '../../test/helpers/engine-check.js';
import { has } from '../../test/helpers/engine-proc.js';
import type { SentLine } from '../../test/helpers/engine-runner.js';
import type { TakenLine } from '../soak-members.js';
import type { Happened, Life } from './record.js';
import { MODE, TARGETS } from './team.js';

export interface Duplicate {
  seq: number;
  to: string;
  copies: number;
  inWindow: boolean;
  /** Taken before the next engine even opened the state dir (the window as docs/delivery.md#duplicate-window words it). */
  takenBeforeRestart: boolean;
  why: string;
}

export interface Summary {
  seed: number;
  seconds: number;
  engineKills: number;
  sent: number;
  answered: number;
  accepted: number;
  queued: number;
  refused: number;
  journaledUnanswered: number;
  neverJournaled: number;
  queuedThenDelivered: number;
  deliveredExactlyOnce: number;
  duplicates: number;
  duplicatesInWindow: number;
  duplicatesOutsideWindow: number;
  lost: number;
  acceptedNotJournaled: number;
  orderViolations: number;
  orderViolationsByTarget: Record<string, number>;
  journalFolds: number;
  journalFoldFailures: number;
  tornTailsCut: number;
  duplicateDetails: Duplicate[];
  problems: string[];
}

export function account(h: Happened, final: FoldedState | undefined, taken: TakenLine[], unread: Map<string, string[]>): Summary {
  const { lives, sends, problems, folds } = h;
  const answers = new Map<number, { line: SentLine; life: Life }>();
  for (const life of lives) {
    for (const l of life.proc.lines) {
      if (!has('sent')(l)) continue;
      const line = (l as { sent: SentLine }).sent;
      answers.set(Number(line.tag), { line, life });
    }
  }
  const journal = [...(final?.sent.values() ?? [])];
  const byText = new Map<string, (typeof journal)[number]>();
  for (const s of journal) {
    if (byText.has(s.text)) problems.push(`one text was journaled twice: ${s.text.slice(0, 40)}`);
    byText.set(s.text, s);
  }
  const seqOf = (text: string) => Number(/^soak (\d+) /.exec(text)?.[1] ?? NaN);
  const bySeq = new Map(sends.map((s) => [s.seq, s]));

  let accepted = 0;
  let queued = 0;
  let refused = 0;
  let lost = 0;
  let acceptedNotJournaled = 0;
  for (const [seq, { line, life }] of answers) {
    if (line.error) {
      refused++;
      continue;
    }
    if (line.status === 'accepted') accepted++;
    else queued++;
    const s = byText.get(bySeq.get(seq)!.text);
    if (!s || s.id !== line.id) {
      lost++;
      problems.push(`send ${seq} was answered ${line.status} (${line.id}) but is not in the journal`);
      continue;
    }
    // `accepted` is answered only after the delivery is journaled, so the fold after the kill must say so.
    if (line.status === 'accepted' && life.fold && !life.fold.delivered.has(s.id)) {
      acceptedNotJournaled++;
      problems.push(`send ${seq} was answered accepted by engine ${life.n}, but its delivery was not journaled at its kill`);
    }
    if (life.fold && !life.fold.journaled.has(s.id)) {
      lost++;
      problems.push(`send ${seq} was answered by engine ${life.n}, but was not in the journal at its kill`);
    }
  }
  const answeredIds = new Set([...answers.values()].filter((a) => a.line.id).map((a) => a.line.id!));
  const journaledUnanswered = journal.filter((s) => !answeredIds.has(s.id)).length;
  const neverJournaled = sends.filter((s) => !byText.has(s.text) && !answers.get(s.seq)?.line.error).length;

  // Every copy each member got: first what it took (in the order it took them), then anything still unread.
  const arrivals = new Map<string, Seen[]>(TARGETS.map((m) => [m, []]));
  const takenAt = new Map<string, number[]>();
  for (const l of taken) {
    const s = byText.get(l.text);
    if (!s) {
      problems.push(`${l.inbox} took a message from the user that was never journaled: ${l.text.slice(0, 40)}`);
      continue;
    }
    arrivals.get(l.inbox)?.push({ id: s.id, text: l.text, where: 'consumed' });
    takenAt.set(s.id, [...(takenAt.get(s.id) ?? []), l.at]);
  }
  for (const [m, texts] of unread) {
    for (const text of texts) {
      const s = byText.get(text);
      if (s) arrivals.get(m)!.push({ id: s.id, text, where: 'inbox' });
      else problems.push(`${m}'s inbox holds a message from the user that was never journaled`);
    }
  }

  let exactlyOnce = 0;
  let queuedThenDelivered = 0;
  let orderViolations = 0;
  const orderViolationsByTarget: Record<string, number> = {};
  const duplicates: Duplicate[] = [];
  for (const m of TARGETS) {
    const seen = arrivals.get(m)!;
    const n = copies(seen);
    const expected = journal.filter((s) => s.to === m);
    for (const s of expected) {
      const k = n.get(s.id) ?? 0;
      const seq = seqOf(s.text);
      if (k === 0 || s.deliveredAt === undefined) {
        lost++;
        problems.push(`send ${seq} to ${m} was journaled but ${k === 0 ? 'never arrived' : 'its delivery was never journaled'}`);
        continue;
      }
      if (k === 1) exactlyOnce++;
      else duplicates.push(classify(lives, s.id, seq, m, k, s.deliveredAt, takenAt.get(s.id) ?? [], answers.get(seq)?.line.status));
      if (answers.get(seq)?.line.status === 'queued') queuedThenDelivered++;
    }
    for (const id of n.keys()) if (!expected.some((s) => s.id === id)) problems.push(`${m} got ${id}, which was sent to someone else`);
    // Order: first arrivals follow the journal, and the journal follows the order of the sends.
    const arrived = firstArrivalOrder(seen);
    const inJournal = expected.map((s) => s.id);
    const inSendOrder = [...expected].sort((a, b) => seqOf(a.text) - seqOf(b.text)).map((s) => s.id);
    let bad = 0;
    for (let i = 0; i < inJournal.length; i++) if (arrived[i] !== inJournal[i] || inJournal[i] !== inSendOrder[i]) bad++;
    if (bad > 0) {
      orderViolations++;
      orderViolationsByTarget[m] = bad;
      problems.push(`${m}: ${bad} of ${inJournal.length} messages out of order`);
    }
  }
  const inWindow = duplicates.filter((d) => d.inWindow).length;
  for (const d of duplicates) if (!d.inWindow) problems.push(`send ${d.seq} to ${d.to} arrived ${d.copies} times outside the crash window: ${d.why}`);

  return {
    seed: h.seed,
    seconds: h.seconds,
    engineKills: lives.filter((l) => l.killedAt !== undefined).length,
    sent: sends.length,
    answered: accepted + queued,
    accepted,
    queued,
    refused,
    journaledUnanswered,
    neverJournaled,
    queuedThenDelivered,
    deliveredExactlyOnce: exactlyOnce,
    duplicates: duplicates.length,
    duplicatesInWindow: inWindow,
    duplicatesOutsideWindow: duplicates.length - inWindow,
    lost,
    acceptedNotJournaled,
    orderViolations,
    orderViolationsByTarget,
    journalFolds: folds.ok + folds.failed,
    journalFoldFailures: folds.failed,
    tornTailsCut: folds.tornTails,
    duplicateDetails: duplicates,
    problems,
  };
}

/**
 * A duplicate is inside the documented window when all of this holds:
 * - a kill found the message journaled but its delivery not (the engine may have written it and
 *   died before journaling), before the delivery that was finally journaled; one extra copy
 *   per such kill at most; and it was not answered `accepted` (that is journaled first);
 * - the member prunes: a member that flags messages read keeps the copy in its inbox, where
 *   the restarted engine must recognise it by id, so it never gets a second one;
 * - each copy was taken in a round of its own, the first before that final delivery: the
 *   earlier copy was gone from the inbox when the next was written (two copies in the file at
 *   once would have been taken in the same round).
 */
function classify(lives: Life[], id: string, seq: number, to: string, k: number, deliveredAt: number, takes: number[], answer: string | undefined): Duplicate {
  const windows = lives.filter((l) => l.killedAt !== undefined && l.killedAt < deliveredAt && l.fold?.journaled.has(id) && !l.fold.delivered.has(id));
  const rounds = [...takes].sort((a, b) => a - b);
  const firstTake = rounds[0] ?? Infinity;
  const kill = windows.at(-1);
  const restart = kill ? lives[lives.indexOf(kill) + 1]?.openedAt : undefined;
  const takenBeforeRestart = restart !== undefined && firstTake < restart;
  let why = '';
  if (answer === 'accepted') why = 'it was answered accepted, so its delivery was journaled';
  else if (windows.length === 0) why = 'no kill found it written but not journaled as delivered';
  else if (k - 1 > windows.length) why = `${k} copies, but only ${windows.length} kill(s) could have left one behind`;
  else if (MODE.get(to) !== 'prune') why = 'the member keeps what it read, so the restarted engine should have found the copy by id';
  else if (rounds.length < k || new Set(rounds).size < rounds.length) why = 'two copies were in the inbox at the same time';
  else if (!(firstTake < deliveredAt)) why = 'the first copy was taken after the delivery was journaled';
  const inWindow = why === '';
  const at = (ms: number | undefined) => (kill?.killedAt === undefined || ms === undefined ? '?' : `${ms - kill.killedAt >= 0 ? '+' : ''}${ms - kill.killedAt} ms`);
  const timeline = `engine ${kill?.n ?? '?'} killed, then: copies taken at ${takes.map(at).join(', ')}, next engine opened at ${at(restart)}, delivery journaled at ${at(deliveredAt)}`;
  if (inWindow) why = takenBeforeRestart ? 'taken before the restart' : 'taken after the restart, before the restarted engine delivered it again';
  return { seq, to, copies: k, inWindow, takenBeforeRestart, why: `${why} (${timeline})` };
}
