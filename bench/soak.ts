// `npm run soak [-- --minutes N | --seconds N] [--seed N] [--keep]`: the delivery guarantee
// under a steady load with crashes, checked end to end.
//
// A simulated team of 8 (the lead and four teammates prune what they read, three teammates
// flag it read) runs in its own process. An engine process (test/helpers/engine-runner.ts, a
// real TeamService with its watcher on) gets a steady random stream of sends to random members
// and answers each; it is killed with SIGKILL at random moments (sometimes right after a
// send, sometimes while it is still recovering) and a fresh one starts on the same state dir.
// A foreign process takes random inboxes' locks with Claude's own lock settings for short
// spells. At the end the stream stops, a last clean engine runs until nothing is queued, the
// members take what is left, and every message is accounted for:
//
// - lost: answered (accepted or queued) or journaled, and never arrived; must be 0
// - order violations: a member got its messages in another order than they were sent; must be 0
// - duplicates: only inside the documented window (docs/delivery.md#duplicate-window): the engine
//   wrote the message but was killed before journaling `delivered`, and the member took it before
//   the restarted engine wrote it again (the message is no longer there to be recognised by id)
// - journal folds: Journal.open after every kill and at the end; every one must fold
//
// Exit 0 when all of that holds, 1 when it does not, 2 when the soak itself could not run. It
// always stops by itself: a watchdog ends it (exit 2) if the drain does not finish in time.
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { Journal, type FoldedState } from '../src/engine/journal/journal.js';
import { createTeam, LEAD_NAME } from '../src/sim/simulator.js';
import { copies, firstArrivalOrder, type Seen } from '../test/helpers/engine-check.js';
import { HELPERS, has, rng, spawnHelper, until, type Proc } from '../test/helpers/engine-proc.js';
import type { SentLine } from '../test/helpers/engine-runner.js';
import { tempTeams, type TempTeams } from '../test/helpers/team-fixture.js';
import type { SoakMembersOptions, TakenLine } from './soak-members.js';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    minutes: { type: 'string' },
    seconds: { type: 'string' },
    seed: { type: 'string' },
    keep: { type: 'boolean' },
    quiet: { type: 'boolean' },
  },
  strict: true,
});

const seconds = values.seconds !== undefined ? Number(values.seconds) : 60 * Number(values.minutes ?? 3);
if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 24 * 3600) {
  process.stderr.write('usage: soak.ts [--minutes N | --seconds N] [--seed N] [--keep] [--quiet]\n');
  process.exit(2);
}
const SEED = values.seed !== undefined ? Number(values.seed) : Date.now() % 1_000_000;
const rand = rng(SEED);
const TEAM = 'soak';
const PRUNE = ['ann', 'bob', 'cy', 'dan'];
const FLAG = ['eve', 'fay', 'gus'];
/** The lead is the eighth member; it prunes, like a current Claude Code. */
const TARGETS = [LEAD_NAME, ...PRUNE, ...FLAG];
const MODE = new Map<string, 'prune' | 'flag'>([[LEAD_NAME, 'prune'], ...PRUNE.map((m) => [m, 'prune'] as const), ...FLAG.map((m) => [m, 'flag'] as const)]);
/** The drain after the stream (stale locks of killed engines take 10 s) must fit in this. */
const DRAIN_BUDGET_MS = 120_000;
const BACKOFF = { initialMs: 20, maxMs: 500 };
/** The helpers in bench/ are started like the engine helpers, by a path relative to test/helpers. */
const BENCH = relative(HELPERS, import.meta.dirname);

const log = (s: string) => {
  if (!values.quiet) process.stderr.write(`soak: ${s}\n`);
};

// ------------------------------------------------------------------------------------ state

interface SendCmd {
  seq: number;
  to: string;
  text: string;
}

/** One engine process's life. */
interface Life {
  n: number;
  proc: Proc;
  /** When the parent told it to open the state dir (no engine writes before this). */
  openedAt: number;
  killedAt?: number;
  /** The journal as folded right after the kill. */
  fold?: { journaled: Set<string>; delivered: Set<string> };
}

const sends: SendCmd[] = [];
const lives: Life[] = [];
const children: Proc[] = [];
const folds = { ok: 0, failed: 0, tornTails: 0 };
const problems: string[] = [];
let t: TempTeams | undefined;
let warm: Proc | undefined;
let current: Life | undefined;

function spawn(helper: string, args: string[] = []): Proc {
  const p = spawnHelper(helper, args);
  children.push(p);
  return p;
}

function killAll(): void {
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.kill('SIGKILL');
}

// Bounded no matter what: the stream, the drain and the checks must end by then.
const watchdog = setTimeout(
  () => {
    process.stderr.write(`soak: did not finish within ${seconds} s + ${DRAIN_BUDGET_MS / 1000} s; stopping (seed ${SEED})\n`);
    killAll();
    process.exit(2);
  },
  seconds * 1000 + DRAIN_BUDGET_MS + 30_000,
);
watchdog.unref();
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    killAll();
    process.exit(2);
  });
}

const journalDir = () => join(t!.stateDir, 'journal', TEAM);

async function fold(label: string): Promise<FoldedState | undefined> {
  try {
    const r = await Journal.open(journalDir());
    await r.journal.close();
    folds.ok++;
    if (r.tornBytes > 0) folds.tornTails++;
    return r.state;
  } catch (e) {
    folds.failed++;
    problems.push(`${label}: the journal does not fold: ${(e as Error).message}`);
    return undefined;
  }
}

/** The warm spare opens the state dir; a new spare starts warming for the next restart. */
async function startEngine(): Promise<Life> {
  const proc = warm ?? spawn('engine-runner.ts');
  warm = spawn('engine-runner.ts');
  const life: Life = { n: lives.length + 1, proc, openedAt: Date.now() };
  lives.push(life);
  proc.send({ cmd: 'open', teamsRoot: t!.root, stateDir: t!.stateDir, backoff: BACKOFF, watch: true });
  await proc.waitFor(has('ready'), 60_000);
  return life;
}

async function killEngine(life: Life): Promise<void> {
  life.proc.kill('SIGKILL');
  await life.proc.exited;
  life.killedAt = Date.now();
  const state = await fold(`after kill ${life.n}`);
  if (state) {
    const sent = [...state.sent.values()];
    life.fold = { journaled: new Set(sent.map((s) => s.id)), delivered: new Set(sent.filter((s) => s.deliveredAt !== undefined).map((s) => s.id)) };
  }
}

const WORDS = ['check', 'the', 'build', 'again', 'and', 'report', 'what', 'broke', 'in', 'auth.ts', 'naïve', 'déjà', '日本語', 'emoji 🚀', 'tab\there', 'line\nbreak'];

function sendOne(life: Life): void {
  const seq = sends.length + 1;
  const to = TARGETS[Math.floor(rand() * TARGETS.length)]!;
  const words = Array.from({ length: 1 + Math.floor(rand() * (rand() < 0.05 ? 600 : 20)) }, () => WORDS[Math.floor(rand() * WORDS.length)]);
  // Unique and plain (never a protocol frame): the text names the send, so any copy maps back to it.
  const text = `soak ${seq} to ${to}: ${words.join(' ')}`;
  sends.push({ seq, to, text });
  life.proc.send({ cmd: 'send', team: TEAM, to, text, tag: String(seq) });
}

/** Busy-waits with sub-millisecond resolution, to land a kill at a random phase of one delivery. */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // busy wait
  }
}

// ------------------------------------------------------------------------------------ run

async function run(): Promise<number> {
  t = await tempTeams('teamdeck-soak-');
  log(`seed ${SEED}, ${seconds} s of sends, folders in ${t.base}`);
  await createTeam({ teamsDir: t.root, team: TEAM, members: [...PRUNE, ...FLAG], cwd: t.base });
  const takenLog = join(t.base, 'taken.jsonl');
  warm = spawn('engine-runner.ts');

  const membersOpts: SoakMembersOptions = {
    teamsDir: t.root,
    team: TEAM,
    prune: PRUNE,
    flag: FLAG,
    lead: 'prune',
    log: takenLog,
    seed: SEED,
    pollMs: 50,
    workMs: [0, 15],
    replyProbability: 0.25,
  };
  const members = spawn(join(BENCH, 'soak-members.ts'), [JSON.stringify(membersOpts)]);
  const inbox = (m: string) => join(t!.root, TEAM, 'inboxes', `${m}.json`);
  const locker = spawn(join(BENCH, 'soak-locker.ts'), [JSON.stringify({ inboxes: TARGETS.map(inbox), seed: SEED, holdMs: [20, 1500], gapMs: [100, 1500] })]);
  await members.waitFor(has('ready'), 60_000);
  await locker.waitFor(has('ready'), 60_000);

  // 1. The stream, with random kills and restarts, until the time is up.
  const streamEnd = Date.now() + seconds * 1000;
  let nextReport = Date.now() + 15_000;
  while (Date.now() < streamEnd) {
    current = await startEngine();
    const short = rand() < 0.2; // killed while it may still be recovering
    const lifeEnd = Math.min(streamEnd, Date.now() + (short ? 50 + rand() * 350 : 1000 + rand() * 6000));
    while (Date.now() < lifeEnd) {
      sendOne(current);
      await sleep(Math.floor(rand() * 120));
    }
    if (rand() < 0.5) {
      sendOne(current);
      spin(rand() * 6);
    }
    await killEngine(current);
    current = undefined;
    if (Date.now() > nextReport) {
      nextReport = Date.now() + 15_000;
      log(`${Math.round((streamEnd - Date.now()) / 1000)} s left: ${sends.length} sent, ${lives.length} engines killed`);
    }
  }

  // 2. The drain: no more foreign locks, one clean engine until nothing is queued, members take the rest.
  log(`stream stopped after ${sends.length} sends and ${lives.length} kills; draining`);
  await locker.ask('stop', has('stopped'), 30_000);
  const drainEnd = Date.now() + DRAIN_BUDGET_MS;
  const last = await startEngine();
  let queued = -1;
  while (Date.now() < drainEnd) {
    const r = await last.proc.ask<{ queued: number }>({ cmd: 'queued' }, has('queued'), 30_000);
    queued = r.queued;
    if (queued === 0) break;
    await sleep(100);
  }
  if (queued !== 0) problems.push(`the final engine still had ${queued} queued messages after the drain budget`);
  await last.proc.ask({ cmd: 'stop' }, has('stopped'), 30_000);
  await last.proc.exited;
  await until(async () => (await unreadFromUser(inbox)) === 0, Math.max(1_000, drainEnd - Date.now()), 'members taking every delivered message').catch((e: Error) =>
    problems.push(e.message),
  );
  await members.ask('stop', has('stopped'), 30_000);
  await members.exited;
  warm?.kill('SIGKILL');

  // 3. Accounting.
  const final = await fold('at the end');
  const taken = await readTaken(takenLog);
  const summary = account(final, taken, await remainingUnread(inbox));
  print(summary);
  const failed =
    summary.lost > 0 || summary.orderViolations > 0 || summary.duplicatesOutsideWindow > 0 || summary.acceptedNotJournaled > 0 || folds.failed > 0 || problems.length > 0;
  if (failed || values.keep) log(`folders kept for inspection: ${t.base}`);
  else await t.cleanup();
  return failed ? 1 : 0;
}

// ------------------------------------------------------------------------------------ reading back

interface InboxEntry {
  from?: unknown;
  text?: unknown;
  read?: unknown;
}

async function readInbox(path: string): Promise<InboxEntry[]> {
  for (let attempt = 0; ; attempt++) {
    try {
      const v: unknown = JSON.parse(await readFile(path, 'utf8'));
      return Array.isArray(v) ? (v as InboxEntry[]) : [];
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      if (attempt >= 20) throw e;
      await sleep(25);
    }
  }
}

async function unreadFromUser(inbox: (m: string) => string): Promise<number> {
  let n = 0;
  for (const m of TARGETS) n += (await readInbox(inbox(m))).filter((e) => e.from === 'user' && e.read !== true).length;
  return n;
}

/** Messages from the user still unread in each inbox (should be none once the members are done). */
async function remainingUnread(inbox: (m: string) => string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const m of TARGETS) out.set(m, (await readInbox(inbox(m))).filter((e) => e.from === 'user' && e.read !== true).map((e) => String(e.text)));
  return out;
}

async function readTaken(path: string): Promise<TakenLine[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as TakenLine)
    .filter((l) => l.from === 'user');
}

// ------------------------------------------------------------------------------------ accounting

interface Duplicate {
  seq: number;
  to: string;
  copies: number;
  inWindow: boolean;
  /**
   * Taken before the next engine even opened the state dir (the window as
   * docs/delivery.md#duplicate-window words it).
   */
  takenBeforeRestart: boolean;
  why: string;
}

interface Summary {
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

function account(final: FoldedState | undefined, taken: TakenLine[], unread: Map<string, string[]>): Summary {
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
      else duplicates.push(classify(s.id, seq, m, k, s.deliveredAt, takenAt.get(s.id) ?? [], answers.get(seq)?.line.status));
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
    seed: SEED,
    seconds,
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
function classify(id: string, seq: number, to: string, k: number, deliveredAt: number, takes: number[], answer: string | undefined): Duplicate {
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

function print(s: Summary): void {
  const rows: [string, string | number][] = [
    ['seed', s.seed],
    ['stream', `${s.seconds} s, ${s.engineKills} engine kills (SIGKILL) and restarts`],
    ['sent', s.sent],
    ['answered', `${s.answered} (accepted ${s.accepted}, queued ${s.queued}); refused ${s.refused}`],
    ['journaled, killed before answering', s.journaledUnanswered],
    ['killed before journaling (nothing promised)', s.neverJournaled],
    ['queued, then delivered', s.queuedThenDelivered],
    ['delivered exactly once', s.deliveredExactlyOnce],
    ['duplicates', `${s.duplicates} (in the crash window ${s.duplicatesInWindow}, outside ${s.duplicatesOutsideWindow})`],
    ['lost', s.lost],
    ['accepted but not journaled', s.acceptedNotJournaled],
    ['order violations', `${s.orderViolations}${Object.keys(s.orderViolationsByTarget).length ? ` ${JSON.stringify(s.orderViolationsByTarget)}` : ''}`],
    ['journal folds OK', `${s.journalFolds - s.journalFoldFailures} of ${s.journalFolds} (torn tails cut: ${s.tornTailsCut})`],
  ];
  const w = Math.max(...rows.map((r) => r[0].length));
  const out = ['', 'Teamdeck soak', ...rows.map(([k, v]) => `  ${k.padEnd(w)}  ${v}`)];
  for (const d of s.duplicateDetails) out.push(`  duplicate: send ${d.seq} to ${d.to} (${MODE.get(d.to)}), ${d.copies} copies, ${d.inWindow ? 'in the window' : 'OUTSIDE the window'}: ${d.why}`);
  for (const p of s.problems.slice(0, 50)) out.push(`  problem: ${p}`);
  if (s.problems.length > 50) out.push(`  ... and ${s.problems.length - 50} more problems`);
  process.stdout.write(out.join('\n') + '\n');
  // One machine-readable line last, for the test that runs a short soak.
  process.stdout.write(JSON.stringify({ soak: { ...s, duplicateDetails: s.duplicateDetails.length, problems: s.problems.length } }) + '\n');
}

let code: number;
try {
  code = await run();
} catch (e) {
  process.stderr.write(`soak: failed to run (seed ${SEED}): ${(e as Error).stack ?? String(e)}\n`);
  if (t) process.stderr.write(`soak: folders kept for inspection: ${t.base}\n`);
  code = 2;
}
killAll();
clearTimeout(watchdog);
process.exit(code);
