// The soak's account: every send followed from its answer through Teamdeck's journal to the
// model that saw it (the stand-in's request log), each verdict checked against what happened.
//
// - lost: promised (answered accepted or queued, or journaled) and neither seen by its model nor
//   undeliverable, unless its member's end cut it off: delivered before the team ended or the
//   member shut down (and not long before), or in the moment before Teamdeck could tell. A
//   message delivered after Teamdeck itself marked the team ended is lost.
// - undeliverable (and refused): the reason must be true: the team had ended (its folder gone,
//   its lead's process gone, its terminal closed) or the member had shut down, before Teamdeck said so.
// - duplicates: a model saw a message more than once. Inside the documented window only when an
//   engine kill found it journaled but not delivered (terminal: typing begun), one extra copy per
//   such kill at most, and never two copies in one request. Each doubling says what its inbox
//   held (inbox-history.ts): two entries at once, or one written again after a prune.
// - order: per member and channel, the order models first saw messages in is the journal's,
//   and the journal's is the order of the sends.
// - answers: every answer a model gave that Claude recorded in a transcript is in the
//   member's thread in Teamdeck.
// - recreated folders: a team folder seen again after Claude removed it.
// - member messages: every message a member's model sent another member, in the team's feed
//   exactly once, from its sender to its recipient (members.ts says which count as sent).
import type { SentState } from '../../src/engine/journal/journal.js';
import type { Observer } from '../../test/claude/harness/observer.js';
import type { ApiRequest } from '../../test/claude/harness/script.js';
import { LEAD } from './actions.js';
import { describeHistory, inboxHistory } from './inbox-history.js';
import { memberAccount, type MemberAccount } from './members.js';
import { arrivals as arrivalsIn, givenAnswers, readableAfterSpells, spells, type Arrival } from './models.js';
import type { Happened, TeamLife } from './record.js';
import type { Views } from './scenario.js';
import { forEachTranscriptLine } from './transcript-lines.js';

/**
 * A message delivered this long before its member's end, and never read, is lost, not cut off.
 * Counted from when the member could first read it: the end of a work spell it was delivered in.
 */
const CUT_OFF_MS = 20_000;
/** Teamdeck's mark of an end (or a shutdown) may trail a write already under way by this much. */
const MARK_SLACK_MS = 500;
/** Teamdeck should know a team ended by then (it looks for its lead's process every 2 s). */
const NOTICE_MS = 5_000;
/** Clocks of the soak, the engine and the stand-in agree; events are compared with this slack. */
const EVENT_SLACK_MS = 500;
/** Queued longer than this while the team ran: reported as stalled (a queue held up behind one message). */
const STALL_MS = 20_000;

export interface Account {
  command: string;
  seed: number;
  seconds: number;
  breakEngine?: string;
  teams: Array<{ team: string; ended?: string; shutdowns: string[] }>;
  /** Each end, ms after the end began: the folder gone, Teamdeck's mark, and what the sends around it got. */
  ends: Array<{ team: string; kind: string; folderGone?: number; leadGone?: number; markedByTeamdeck?: number; sends: string[] }>;
  engineKills: Record<string, number>;
  /** Kills right after a write that landed before the engine journaled that delivery (the window a duplicate needs). */
  afterWriteInWindow: number;
  foreignLockSpells: number;
  sent: number;
  answered: { accepted: number; queued: number; undeliverable: number };
  refused: { count: number; byReason: Record<string, number>; falseReasons: number };
  unanswered: { count: number; journaled: number };
  accepted: number;
  queuedThenDelivered: number;
  delivered: number;
  undeliverable: { count: number; byReason: Record<string, number>; falseReasons: number };
  seen: { byTeamdeck: number; byModels: number; teamdeckSeenModelDidNot: number };
  cutOff: { byTeamEnd: number; byShutdown: number; whileEnding: number };
  answers: { given: number; recorded: number; captured: number; missed: number; percentCaptured: number };
  /** The members' own messages (members.ts): sent N, in Teamdeck N, missed 0, shown twice 0. */
  memberMessages: Omit<MemberAccount, 'problems'>;
  lost: number;
  /** Lost among them: delivered after Teamdeck marked the end (or, not having marked it, over NOTICE_MS after it). */
  deliveredAfterTeamdeckKnewTheEnd: number;
  /** Ends Teamdeck did not show within NOTICE_MS (a team shown running after its lead is gone). */
  endsNotNoticed: number;
  /** Not a failure: messages that stayed queued over STALL_MS while their team ran (the longest, by channel). */
  stalled: { count: number; byChannel: Record<string, number>; longestMs: number; examples: string[] };
  misdelivered: number;
  duplicates: { total: number; inWindow: number; outsideWindow: number };
  orderViolations: { total: number; byTarget: Record<string, number> };
  recreatedFolders: number;
  journalFolds: { ok: number; failed: number; tornTailsCut: number };
  problems: string[];
  notes: string[];
}

export interface AccountInput {
  h: Happened;
  views: Views;
  log: ApiRequest[];
  observer: Observer;
  projectsDir: string;
  command: string;
  breakEngine?: string;
}

const seqOf = (text: string) => Number(/^soak-msg (\d+) /.exec(text)?.[1] ?? NaN);
const agentFor = (member: string) => (member === LEAD ? 'lead' : member);

/** Every answer label Claude wrote into a transcript (`<agent> answer <n>:`), as `<agent>#<n>`. */
function recordedAnswers(projectsDir: string): Set<string> {
  const out = new Set<string>();
  forEachTranscriptLine(projectsDir, (line) => {
    if (!line.includes('"assistant"') || !line.includes(' answer ')) return;
    for (const m of line.matchAll(/"text":"([\w-]+) answer (\d+):/g)) out.add(`${m[1]}#${m[2]}`);
  });
  return out;
}

/** Whether a reason Teamdeck gave (for a refusal or an undeliverable) is what happened, by `at`. */
function reasonHolds(reason: string, life: TeamLife | undefined, to: string, at: number): { ok: boolean; kind: string } {
  const end = life?.end;
  const ended = end !== undefined && end.at <= at + EVENT_SLACK_MS;
  const folderGone = ended && end.kind !== 'sigkill' && (end.folderGoneAt ?? Infinity) <= at + EVENT_SLACK_MS;
  const shutDown = (name: string) => life?.shutdowns.some((s) => s.member === name && (s.approvedAt ?? Infinity) <= at + EVENT_SLACK_MS) ?? false;
  if (/folder is gone|removed the team folder/.test(reason)) return { ok: folderGone, kind: 'team ended (folder gone)' };
  const pid = /lead's process \(pid (\d+)\) is gone/.exec(reason);
  if (pid) return { ok: ended && Number(pid[1]) === life?.pid, kind: "team ended (lead's process gone)" };
  if (/terminal (closed|has exited)/.test(reason)) return { ok: ended, kind: "lead's terminal closed" };
  const gone = /(\S+) (has shut down|is no longer on the team)/.exec(reason);
  if (gone) return { ok: gone[1] === to && shutDown(to), kind: 'member shut down' };
  if (/already has \d+ undelivered/.test(reason)) return { ok: true, kind: 'too many waiting' };
  if (/at most \d+ requests may run at once/.test(reason)) return { ok: true, kind: "the engine socket's limit" };
  return { ok: false, kind: `other: ${reason.slice(0, 80)}` };
}

function bump(o: Record<string, number>, k: string): void {
  o[k] = (o[k] ?? 0) + 1;
}

export function account(input: AccountInput): Account {
  const { h, views, log } = input;
  const problems: string[] = [];
  const lifeOf = new Map(h.lives.map((l) => [l.team, l]));
  const endedAt = new Map(views.teams.filter((t) => t.endedAt !== undefined).map((t) => [t.id, t.endedAt!]));
  // When Teamdeck first showed a team ended: `teams` as the soak saw it, or the final listing.
  // (The final endedAt of a team killed with SIGKILL is the last engine's start: each engine
  // marks it again when it opens the folder Claude left.)
  const shownEnded = (team: string): number | undefined => {
    const seen = lifeOf.get(team)?.end?.shownEndedAt;
    const listed = endedAt.get(team);
    return seen === undefined ? listed : listed === undefined ? seen : Math.min(seen, listed);
  };
  const journal = new Map<number, SentState & { team: string }>();
  const order = new Map<string, number[]>();
  for (const [team, state] of views.journals) {
    for (const s of state.sent.values()) {
      const seq = seqOf(s.text);
      if (!Number.isFinite(seq)) continue;
      if (journal.has(seq)) problems.push(`soak-msg ${seq} is journaled twice`);
      journal.set(seq, { ...s, team });
      const key = `${team}|${s.to}|${s.channel ?? 'inbox'}`;
      order.set(key, [...(order.get(key) ?? []), seq]);
    }
  }
  const workSpells = spells(log);
  const readableFrom = (team: string, member: string, at: number) => readableAfterSpells(workSpells, agentFor(member), team, at);
  const seen = new Map<number, Arrival[]>();
  let misdelivered = 0;
  for (const a of arrivalsIn(log)) {
    const rec = h.sends[a.seq - 1];
    if (!rec) continue;
    if (agentFor(rec.to) !== a.agent || (a.team !== undefined && a.team !== rec.team)) {
      misdelivered++;
      problems.push(`soak-msg ${a.seq} for ${rec.to} of ${rec.team} reached ${a.agent}${a.team ? ` of ${a.team}` : ''}`);
      continue;
    }
    seen.set(a.seq, [...(seen.get(a.seq) ?? []), a]);
  }

  const answered = { accepted: 0, queued: 0, undeliverable: 0 };
  const refused = { count: 0, byReason: {} as Record<string, number>, falseReasons: 0 };
  const unanswered = { count: 0, journaled: 0 };
  const undeliverable = { count: 0, byReason: {} as Record<string, number>, falseReasons: 0 };
  const cutOff = { byTeamEnd: 0, byShutdown: 0, whileEnding: 0 };
  const seenCount = { byTeamdeck: 0, byModels: 0, teamdeckSeenModelDidNot: 0 };
  const duplicates = { total: 0, inWindow: 0, outsideWindow: 0 };
  const stalled = { count: 0, byChannel: {} as Record<string, number>, longestMs: 0, examples: [] as string[] };
  let queuedThenDelivered = 0;
  let delivered = 0;
  let lost = 0;
  let afterKnown = 0;

  for (const rec of h.sends) {
    const s = journal.get(rec.seq);
    const life = lifeOf.get(rec.team);
    if (rec.status) answered[rec.status]++;
    if (!rec.id) {
      if (rec.code === 2 && rec.error && !s) {
        refused.count++;
        const r = reasonHolds(rec.error, life, rec.to, rec.endedAt ?? Date.now());
        bump(refused.byReason, r.kind);
        if (!r.ok) {
          refused.falseReasons++;
          problems.push(`soak-msg ${rec.seq} to ${rec.to} was refused with a reason that did not hold: ${rec.error}`);
        }
      } else {
        unanswered.count++;
        if (s) unanswered.journaled++;
      }
    }
    if ((rec.status === 'accepted' || rec.status === 'queued') && (!s || s.id !== rec.id)) {
      lost++;
      problems.push(`soak-msg ${rec.seq} was answered ${rec.status} (${rec.id}) but is not in the journal`);
      continue;
    }
    if (!s) continue;
    const waited = Math.min(s.deliveredAt ?? s.undeliverableAt ?? Infinity, life?.end?.at ?? Infinity, h.streamEndedAt || Infinity) - s.queuedAt;
    if (waited > STALL_MS && waited !== Infinity) {
      stalled.count++;
      bump(stalled.byChannel, rec.channel);
      stalled.longestMs = Math.max(stalled.longestMs, waited);
      const fate = s.deliveredAt !== undefined ? 'then delivered' : s.undeliverableAt !== undefined ? `then undeliverable (${s.reason})` : 'still queued';
      if (stalled.examples.length < 10) stalled.examples.push(`soak-msg ${rec.seq} to ${rec.to} of ${rec.team} (${rec.channel}) queued ${(waited / 1000).toFixed(1)} s while its team ran, ${fate}`);
    }
    const copies = seen.get(rec.seq) ?? [];
    if (copies.length) seenCount.byModels++;
    if (s.seenAt !== undefined) {
      seenCount.byTeamdeck++;
      if (!copies.length) {
        // Claude writes the prompt row just before the model request: an end in between leaves it seen.
        seenCount.teamdeckSeenModelDidNot++;
        const ended = life?.end !== undefined || life?.shutdowns.some((x) => x.member === rec.to);
        if (!ended) problems.push(`soak-msg ${rec.seq} to ${rec.to} is seen in Teamdeck, but its model never got it`);
      }
    }
    if (s.undeliverableAt !== undefined) {
      undeliverable.count++;
      const r = reasonHolds(s.reason ?? '', life, rec.to, s.undeliverableAt);
      bump(undeliverable.byReason, r.kind);
      if (!r.ok) {
        undeliverable.falseReasons++;
        problems.push(`soak-msg ${rec.seq} to ${rec.to} of ${rec.team} is undeliverable with a reason that did not hold: ${s.reason}`);
      }
      if (copies.length) problems.push(`soak-msg ${rec.seq} is undeliverable, yet its model got it`);
      continue;
    }
    if (s.deliveredAt === undefined) {
      lost++;
      problems.push(`soak-msg ${rec.seq} to ${rec.to} of ${rec.team} was journaled and never delivered`);
      continue;
    }
    delivered++;
    if (rec.status === 'queued') queuedThenDelivered++;
    if (copies.length === 0) {
      const shutdown = life?.shutdowns.find((x) => x.member === rec.to && x.approvedAt !== undefined);
      const end = Math.min(life?.end?.at ?? Infinity, shutdown?.approvedAt ?? Infinity);
      // When Teamdeck knew (or should have known) that nobody could read it any more.
      const teamKnown = shownEnded(rec.team) ?? (life?.end ? life.end.at + NOTICE_MS : Infinity);
      const known = Math.min(teamKnown, shutdown?.approvedAt !== undefined ? shutdown.approvedAt + 3_000 : Infinity);
      const readable = readableFrom(rec.team, rec.to, s.deliveredAt);
      if (end === Infinity) {
        lost++;
        problems.push(`soak-msg ${rec.seq} to ${rec.to} of ${rec.team} was delivered (${rec.channel}) to a member still running, and its model never got it`);
      } else if (s.deliveredAt > known + MARK_SLACK_MS) {
        lost++;
        afterKnown++;
        problems.push(`soak-msg ${rec.seq} to ${rec.to} of ${rec.team} was delivered ${s.deliveredAt - known} ms after Teamdeck knew (or should have known) it could not be read`);
      } else if (s.deliveredAt >= end) cutOff.whileEnding++;
      else if (end - readable <= CUT_OFF_MS) {
        if (shutdown?.approvedAt === end) cutOff.byShutdown++;
        else cutOff.byTeamEnd++;
      } else {
        lost++;
        const busy = readable > s.deliveredAt ? ` (readable ${end - readable} ms before it, after a work spell)` : '';
        problems.push(`soak-msg ${rec.seq} to ${rec.to} of ${rec.team} was delivered ${end - s.deliveredAt} ms before its end${busy} and its model never got it`);
      }
      continue;
    }
    if (copies.length > 1) {
      duplicates.total++;
      const windows = h.kills.filter((k) => k.at < s.deliveredAt! && k.pending.includes(rec.seq) && (rec.channel !== 'terminal' || k.attempted.includes(rec.seq)));
      const together = new Set(copies.map((c) => c.request)).size < copies.length;
      let why = '';
      if (together) why = 'two copies reached the model in one request';
      else if (copies.length - 1 > windows.length) why = `${copies.length} copies, but ${windows.length} kill(s) found it written and not yet journaled as delivered`;
      if (why) {
        duplicates.outsideWindow++;
        // Where the doubling happened: in the file (two entries at once, or written again after a prune) or after it.
        const history = rec.channel === 'inbox' ? `; ${describeHistory(inboxHistory(input.observer, rec.team, rec.to, rec.text))}` : '';
        const where = ` (requests ${[...new Set(copies.map((c) => c.request))].join(', ')}; seed ${h.seed})`;
        problems.push(`soak-msg ${rec.seq} to ${rec.to} (${rec.channel}) reached its model ${copies.length} times outside the crash window: ${why}${history}${where}`);
      } else duplicates.inWindow++;
    }
  }

  // Order, per member and channel: first sight follows the journal, the journal follows the sends.
  const byTarget: Record<string, number> = {};
  for (const [key, seqs] of order) {
    const firstSight = (seq: number) => seen.get(seq)?.reduce((m, a) => Math.min(m, a.request * 1e7 + a.pos), Infinity) ?? Infinity;
    const arrived = seqs.filter((q) => firstSight(q) !== Infinity);
    const bySight = [...arrived].sort((a, b) => firstSight(a) - firstSight(b) || arrived.indexOf(a) - arrived.indexOf(b));
    // Sends made one after another keep their order in the journal (the burst's were not).
    const ordered = seqs.filter((q) => !h.sends[q - 1]?.unordered);
    const bySend = [...ordered].sort((a, b) => a - b);
    let bad = 0;
    for (let i = 0; i < arrived.length; i++) if (bySight[i] !== arrived[i]) bad++;
    for (let i = 0; i < ordered.length; i++) if (bySend[i] !== ordered[i]) bad++;
    if (bad) {
      byTarget[key] = bad;
      problems.push(`${key}: ${bad} out of order (journal ${seqs.join(',')}; first seen ${bySight.join(',')})`);
    }
  }

  // Answers: what the models said, what Claude recorded, what Teamdeck shows.
  const recorded = recordedAnswers(input.projectsDir);
  const lifeAt = (at: number) => h.lives.find((l) => l.launchedAt <= at && (l.end?.leadGoneAt ?? Infinity) >= at);
  let given = 0;
  let recordedN = 0;
  let captured = 0;
  for (const a of givenAnswers(log)) {
    given++;
    const team = a.team ?? lifeAt(a.at)?.team;
    if (!recorded.has(`${a.agent}#${a.n}`)) continue;
    recordedN++;
    const member = a.agent === 'lead' ? LEAD : a.agent;
    const thread = team ? (views.threads.get(`${team}|${member}`) ?? []) : [];
    if (thread.some((m) => m.from === member && m.text.includes(`${a.agent} answer ${a.n}:`))) captured++;
    else problems.push(`answer "${a.text}" of ${a.agent} (${team ?? 'no team'}) is in its transcript but not in Teamdeck's thread`);
  }

  // Team folders Claude removed that came back.
  const folderStates = new Map<string, boolean[]>();
  for (const d of input.observer.dirEvents) {
    if (d.path.includes('.deleted-')) continue;
    folderStates.set(d.path, [...(folderStates.get(d.path) ?? []), d.present]);
  }
  const recreated = new Set<string>();
  for (const [path, states] of folderStates) {
    if (states.some((p, i) => p && i > 0 && !states[i - 1])) recreated.add(path);
  }
  // Gone and back between two samples: the folder is there after its lead's clean exit, or has another inode.
  for (const l of h.lives) if (l.end?.folderBackAt !== undefined) recreated.add(`teams/${l.team}`);
  for (const path of recreated) problems.push(`${path} was made again after Claude removed it`);
  const recreatedFolders = recreated.size;

  // Every end the soak made, shown by Teamdeck soon after (engine-down ends: soon after it was back).
  let endsNotNoticed = 0;
  for (const l of h.lives) {
    if (!l.end) continue;
    const marked = shownEnded(l.team);
    if (marked === undefined || marked - l.end.at > NOTICE_MS + (l.end.engineDown ? 10_000 : 0)) {
      endsNotNoticed++;
      problems.push(`${l.team} ended by ${l.end.kind}, and Teamdeck ${marked === undefined ? 'never showed it ended' : `showed it ended only ${marked - l.end.at} ms later`}`);
    }
  }
  const { problems: memberProblems, ...memberMessages } = memberAccount({ log, feeds: views.feeds, lives: h.lives, projectsDir: input.projectsDir });
  problems.push(...memberProblems);
  const kills: Record<string, number> = { total: h.kills.length };
  for (const k of h.kills) bump(kills, k.why);
  const teams = h.lives.map((l) => ({
    team: l.team,
    ...(l.end ? { ended: `${l.end.kind}${l.end.kind !== l.end.requested ? ` (asked ${l.end.requested})` : ''}${l.end.engineDown ? ', engine down' : ''}` } : {}),
    shutdowns: l.shutdowns.map((s) => s.member),
  }));
  if (h.folds.failed) problems.push(...h.folds.failures);
  const ends = h.lives.flatMap((l) => {
    if (!l.end) return [];
    const t0 = l.end.at;
    const rel = (t: number | undefined) => (t === undefined ? undefined : t - t0);
    const sends = h.sends
      .filter((x) => x.team === l.team && (x.purpose === 'after-end' || x.purpose === 'held'))
      .map((x) => {
        const s = journal.get(x.seq);
        const fate = s?.deliveredAt !== undefined ? `delivered at ${rel(s.deliveredAt)}` : s?.undeliverableAt !== undefined ? `undeliverable at ${rel(s.undeliverableAt)}` : x.error ? `refused: ${x.error.slice(0, 60)}` : 'no answer';
        return `#${x.seq} ${x.purpose} to ${x.to} (${x.via}) sent at ${rel(x.startedAt)}: ${fate}`;
      });
    return [{ team: l.team, kind: l.end.kind, folderGone: rel(l.end.folderGoneAt), leadGone: rel(l.end.leadGoneAt), markedByTeamdeck: rel(shownEnded(l.team)), sends }];
  });
  return {
    command: input.command,
    seed: h.seed,
    seconds: h.seconds,
    ...(input.breakEngine ? { breakEngine: input.breakEngine } : {}),
    teams,
    ends,
    engineKills: kills,
    afterWriteInWindow: h.kills.filter((k) => k.why === 'after-write' && h.sends.some((x) => x.purpose === 'after-write' && k.pending.includes(x.seq))).length,
    foreignLockSpells: h.spells.length,
    sent: h.sends.length,
    answered,
    refused,
    unanswered,
    accepted: answered.accepted,
    queuedThenDelivered,
    delivered,
    undeliverable,
    seen: seenCount,
    cutOff,
    answers: { given, recorded: recordedN, captured, missed: recordedN - captured, percentCaptured: recordedN ? Math.round((captured / recordedN) * 1000) / 10 : 100 },
    memberMessages,
    lost,
    deliveredAfterTeamdeckKnewTheEnd: afterKnown,
    endsNotNoticed,
    stalled,
    misdelivered,
    duplicates,
    orderViolations: { total: Object.keys(byTarget).length, byTarget },
    recreatedFolders,
    journalFolds: { ok: h.folds.ok, failed: h.folds.failed, tornTailsCut: h.folds.tornTails },
    problems,
    notes: h.notes,
  };
}
