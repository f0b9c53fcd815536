// The message stream of a fixture team: its traffic generated forward in time (the user's
// questions and the answers in user.json, task assignments, idle notifications, plan approvals,
// peer messages, shutdowns), each message made once its timestamp is fixed.
import { inboxFileStem } from '../engine/claude/paths.js';
import { seededUuid, type Rng } from './prng.js';
import { LEAD, USER, type ColorOf, type TeamPlan } from './fixture-team-plan.js';
import { ACTIONS, FINDINGS, SUBJECTS, type Words } from './fixture-words.js';

/** One inbox entry as Claude writes it. */
export interface Msg {
  from: string;
  text: string;
  summary?: string;
  timestamp: string;
  color?: string;
  read: boolean;
  [k: string]: unknown;
}

/** A message before its time is fixed: history is generated forward, then shifted to end at `end`. */
export interface Pending {
  owner: string;
  t: number;
  /** Whether the owner's poll has taken it (decides read:true or pruned). */
  consumed: boolean;
  make: (iso: string) => Msg;
}

/** Generates one team's traffic in time order; returns pending messages per owner. */
export function generateHistory(
  rng: Rng,
  words: Words,
  plan: TeamPlan,
  total: number,
  colorOf: ColorOf,
): { pending: Pending[]; end: number } {
  const pending: Pending[] = [];
  const mates = plan.teammates;
  const live = mates.filter((m) => !plan.terminated.has(m));
  // Some teammates are much busier than others, as in real teams.
  const weights = mates.map((_, i) => 1 / Math.pow(i + 1, 0.7));
  const sum = weights.reduce((a, b) => a + b, 0);
  const busy = (pool: string[]) => {
    for (;;) {
      let r = rng.next() * sum;
      for (let i = 0; i < mates.length; i++) {
        r -= weights[i]!;
        if (r <= 0) {
          if (pool.includes(mates[i]!)) return mates[i]!;
          break;
        }
      }
      if (pool.length === 1) return pool[0]!;
    }
  };
  let t = 0;
  let taskId = 0;
  let count = 0;
  const add = (owner: string, make: (iso: string) => Msg) => {
    t += rng.int(2_000, 90_000);
    pending.push({ owner, t, consumed: true, make });
    count++;
  };
  const idle = (m: string) => {
    const idleReason = rng.chance(0.85) ? 'available' : 'interrupted';
    add(LEAD, (iso) => ({
      from: m,
      text: JSON.stringify({ type: 'idle_notification', from: m, timestamp: iso, idleReason }),
      timestamp: iso,
      color: colorOf(m),
      read: true,
    }));
  };
  // Members that will shut down work until the end, then the shutdowns close the history.
  const closing = plan.terminated.size * 2;
  while (count < total - closing) {
    const roll = rng.next();
    const pool = live.length && rng.chance(0.85) ? live : mates;
    const m = busy(pool);
    if (roll < 0.3) {
      // The user asks, the member answers in user.json, then goes idle.
      const q = words.request();
      const id = seededUuid(rng);
      add(m, (iso) => ({ from: USER, text: q.text, summary: q.summary, timestamp: iso, read: true, type: 'message', msgV: 1, msg_id: id, messageId: id }));
      const a = words.reply();
      add(USER, (iso) => ({ from: m, text: a.text, summary: a.summary, timestamp: iso, color: colorOf(m), read: false }));
      if (rng.chance(0.7)) idle(m);
    } else if (roll < 0.55) {
      // The lead assigns a task; the member reports back and goes idle.
      const id = String(++taskId);
      const subject = `${words.pick(ACTIONS)} ${words.pick(SUBJECTS)}`;
      const description = `${words.request().text} Write what you find in the task file.`;
      add(m, (iso) => ({
        from: LEAD,
        text: JSON.stringify({
          type: 'task_assignment',
          taskId: id,
          subject: subject[0]!.toUpperCase() + subject.slice(1),
          description,
          assignedBy: LEAD,
          timestamp: iso,
        }),
        timestamp: iso,
        read: true,
      }));
      if (rng.chance(0.5)) {
        const r = words.report();
        add(LEAD, (iso) => ({ from: m, text: r.text, summary: r.summary, timestamp: iso, color: colorOf(m), read: true }));
      }
      idle(m);
    } else if (roll < 0.72) {
      // Idle notifications pile up in the lead's inbox.
      idle(m);
    } else if (roll < 0.84) {
      const ins = words.instruction();
      add(m, (iso) => ({ from: LEAD, text: ins.text, summary: ins.summary, timestamp: iso, read: true }));
    } else if (roll < 0.95 && mates.length > 1) {
      // Teammate to teammate.
      const others = pool.filter((x) => x !== m);
      const to = others.length ? rng.pick(others) : rng.pick(mates.filter((x) => x !== m));
      const text = words.peer();
      add(to, (iso) => ({ from: m, text, summary: text.slice(0, 40), timestamp: iso, color: colorOf(m), read: true }));
      if (rng.chance(0.5)) {
        const back = words.peer();
        add(m, (iso) => ({ from: to, text: back, summary: back.slice(0, 40), timestamp: iso, color: colorOf(to), read: true }));
      }
    } else {
      // A plan for approval, and the lead's answer.
      const requestId = `plan-${seededUuid(rng).slice(0, 8)}@${m}`;
      const subject = words.pick(SUBJECTS);
      const step = words.pick(FINDINGS);
      const approved = rng.chance(0.8);
      add(LEAD, (iso) => ({
        from: m,
        text: JSON.stringify({
          type: 'plan_approval_request',
          from: m,
          timestamp: iso,
          planFilePath: `.claude/plans/${inboxFileStem(m)}-${requestId.slice(5, 13)}.md`,
          planContent: `# Plan: ${subject}\n\n1. Reproduce\n2. ${step}\n3. Fix and test`,
          requestId,
        }),
        timestamp: iso,
        color: colorOf(m),
        read: true,
      }));
      add(m, (iso) => ({
        from: LEAD,
        text: JSON.stringify({ type: 'plan_approval_response', requestId, approved, ...(approved ? {} : { feedback: 'Split the migration into two steps first.' }), timestamp: iso }),
        timestamp: iso,
        read: true,
      }));
    }
  }
  // Episodes add a few messages at a time: the history stops at exactly K, mid-conversation.
  pending.length = Math.min(pending.length, Math.max(0, total - closing));
  for (const m of plan.terminated) {
    let requestMs = 0;
    add(m, (iso) => {
      requestMs = Date.parse(iso);
      return {
        from: LEAD,
        text: JSON.stringify({ type: 'shutdown_request', requestId: `shutdown-${requestMs}@${m}`, from: LEAD, reason: 'Work is complete. Shutting down the team. Thank you!', timestamp: iso }),
        timestamp: iso,
        read: true,
      };
    });
    add(LEAD, (iso) => ({
      from: m,
      text: JSON.stringify({ type: 'shutdown_approved', requestId: `shutdown-${requestMs}@${m}`, from: m, timestamp: iso, paneId: 'in-process', backendType: 'in-process' }),
      timestamp: iso,
      color: colorOf(m),
      read: true,
    }));
  }
  return { pending, end: t };
}

/** `count` messages between the user and `who`, the user asking first, spread over `span` ms. */
export function userThread(rng: Rng, words: Words, who: string, count: number, span: number, colorOf: ColorOf): Pending[] {
  const out: Pending[] = [];
  for (let i = 0; i < count; i++) {
    const t = Math.floor(((i + rng.next() * 0.5) / count) * span);
    if (i % 2 === 0) {
      const q = words.request();
      const id = seededUuid(rng);
      out.push({ owner: who, t, consumed: true, make: (iso) => ({ from: USER, text: q.text, summary: q.summary, timestamp: iso, read: true, type: 'message', msgV: 1, msg_id: id, messageId: id }) });
    } else {
      const a = words.reply();
      out.push({ owner: USER, t, consumed: true, make: (iso) => ({ from: who, text: a.text, summary: a.summary, timestamp: iso, color: colorOf(who), read: false }) });
    }
  }
  return out;
}
