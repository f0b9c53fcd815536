// A fixture team's message stream laid into its inboxes: times fixed so the newest message lands
// at the end time, what the owner's poll took flagged read (or pruned), and optionally one inbox
// grown to a given size with older filler.
import type { Rng } from './prng.js';
import { LEAD, USER, type ColorOf, type TeamPlan } from './fixture-team-plan.js';
import type { Msg, Pending } from './fixture-history.js';
import type { Words } from './fixture-words.js';

/**
 * flag: what members read stays in their inbox flagged read (Claude 2.1.8x); prune: read
 * messages are gone (2.1.19x).
 */
export type GenMode = 'flag' | 'prune';

/** An inbox entry with its time as generated, before the shift to the end time. */
export interface InboxEntry {
  t: number;
  msg: Msg;
}

export interface LaidInboxes {
  /** Each owner's entries in time order: the lead, the teammates, the user, then any other owner grown. */
  byOwner: Map<string, InboxEntry[]>;
  /** Add to a generated time to get the written one. */
  shift: number;
  /** The newest generated time. */
  last: number;
}

/** Lays `pending` into inboxes so the newest message is written at `end`. Marks the newest ones unconsumed. */
export function layInboxes(pending: Pending[], plan: TeamPlan, mode: GenMode, end: number): LaidInboxes {
  // The newest messages have not been polled yet: they are unread (and survive a prune).
  const last = pending.reduce((mx, p) => Math.max(mx, p.t), 0);
  const shift = end - last;
  const unreadAfter = last - Math.max(60_000, last * 0.01);
  for (const p of pending) if (p.t > unreadAfter && !plan.terminated.has(p.owner)) p.consumed = false;

  const byOwner = new Map<string, InboxEntry[]>();
  for (const o of [LEAD, ...plan.teammates, USER]) ownerList(byOwner, o);
  for (const p of pending) {
    const msg = p.make(new Date(p.t + shift).toISOString());
    if (msg.color === undefined) delete msg.color;
    if (p.owner !== USER) {
      if (mode === 'prune' && p.consumed) continue;
      msg.read = p.consumed;
    }
    ownerList(byOwner, p.owner).push({ t: p.t, msg });
  }
  for (const list of byOwner.values()) list.sort((a, b) => a.t - b.t);
  return { byOwner, shift, last };
}

/** Grows `owner`'s inbox with older traffic until it holds about `bytes` (never more, unless one entry already does). */
export function growInbox(laid: LaidInboxes, owner: string, bytes: number, mode: GenMode, rng: Rng, words: Words, teammates: string[], colorOf: ColorOf): void {
  const { byOwner, shift } = laid;
  const list = ownerList(byOwner, owner);
  let size = 4 + list.reduce((n, e) => n + entryBytes(e.msg), 0);
  const older: InboxEntry[] = [];
  let t = (list[0]?.t ?? 0) + shift;
  while (size < bytes) {
    t -= rng.int(2_000, 90_000);
    const msg = filler(rng, words, owner, teammates, colorOf)(new Date(t).toISOString());
    if (owner !== USER) msg.read = mode === 'flag';
    const b = entryBytes(msg);
    if (size + b > bytes && older.length > 0) break;
    size += b;
    older.push({ t: t - shift, msg });
  }
  byOwner.set(owner, [...older.reverse(), ...list]);
}

function ownerList(byOwner: Map<string, InboxEntry[]>, o: string): InboxEntry[] {
  let l = byOwner.get(o);
  if (!l) byOwner.set(o, (l = []));
  return l;
}

/** Bytes one entry takes inside Claude's `JSON.stringify(array, null, 2)`, its separator included. */
function entryBytes(m: Msg): number {
  const s = JSON.stringify(m, null, 2);
  let lines = 1;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) lines++;
  return Buffer.byteLength(s, 'utf8') + lines * 2 + 2;
}

/** Filler addressed to `owner`, older than the history, until its inbox holds about `bytes`. */
function filler(rng: Rng, words: Words, owner: string, teammates: string[], colorOf: ColorOf): (iso: string) => Msg {
  const m = rng.pick(teammates.filter((x) => x !== owner).length ? teammates.filter((x) => x !== owner) : teammates);
  if (owner === USER) {
    const a = words.reply();
    return (iso) => ({ from: m, text: a.text, summary: a.summary, timestamp: iso, color: colorOf(m), read: false });
  }
  if (owner === LEAD) {
    if (rng.chance(0.55)) {
      return (iso) => ({ from: m, text: JSON.stringify({ type: 'idle_notification', from: m, timestamp: iso, idleReason: 'available' }), timestamp: iso, color: colorOf(m), read: true });
    }
    const r = words.report();
    return (iso) => ({ from: m, text: r.text, summary: r.summary, timestamp: iso, color: colorOf(m), read: true });
  }
  if (rng.chance(0.5)) {
    const ins = words.instruction();
    return (iso) => ({ from: LEAD, text: ins.text, summary: ins.summary, timestamp: iso, read: true });
  }
  const text = words.peer();
  return (iso) => ({ from: m, text, summary: text.slice(0, 40), timestamp: iso, color: colorOf(m), read: true });
}
