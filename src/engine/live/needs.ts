// What the teams need from the human, across all teams, newest first: a lead waiting in its
// terminal (for a permission answer, a dialog, input), plans waiting for approval, messages
// stuck on their way, and inboxes nobody reads. Pure: judged from what the engine already
// holds, with the engine's clock, on the rescan tick and after changes; an item is gone as
// soon as its condition is.
import type { MemberActivity, NeedItem } from '../../shared/types.js';
import { LEGACY_SENDER, senderFor } from '../claude/era.js';
import { inboxFileStem } from '../claude/paths.js';
import { askerOf, waitingWords, type ActivityFacts } from './activity.js';
import type { Team } from '../team/team.js';

/** A message queued or taken-but-not-seen this long is stuck. */
export const STUCK_MS = 2 * 60_000;
/** A member idle this long while a message to it waits in its inbox has not picked it up. */
export const IDLE_MAIL_MS = 30_000;
/** Without a sessions file to say the lead still waits, an ask in its inbox counts for this long. */
export const ASK_WITHOUT_SESSION_MS = 10 * 60_000;

export interface NeedsInput {
  rt: Team;
  facts: ActivityFacts;
  activity: MemberActivity[];
  /** Why a queued message waits (its delivery queue's reason). */
  waitReason: (id: string) => string | undefined;
  /** The team's inbox files, with the entries each held at its last read. */
  inboxes: ReadonlyArray<{ owner: string; messages: number }>;
}

const minutes = (ms: number) => `${Math.max(1, Math.round(ms / 60_000))} min`;

function short(text: string, max = 60): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** A stuck message's text as its title quotes it (worded only for messages that are stuck). */
const quoted = (text: string) => `"${short(text)}"`;

/** The needs of one team. */
export function teamNeeds(input: NeedsInput, senderName: string, now: number): NeedItem[] {
  const { rt, facts, activity, waitReason, inboxes } = input;
  if (rt.ended) return [];
  const team = rt.id;
  const out: NeedItem[] = [];
  const lead = rt.lead?.name ?? 'team-lead';
  const session = facts.session;

  // The lead waits in its terminal: for whom (the asker, inferred) and for what.
  if (session?.status === 'waiting') {
    const asker = askerOf(rt, facts);
    const member = asker?.member ?? lead;
    const frame = [...rt.facts.asks.values()].filter((a) => a.kind === 'permission' && a.from === member).at(-1);
    const what = frame?.what ?? (asker ? `${asker.call.name}${asker.call.summary ? ` ${asker.call.summary}` : ''}` : undefined);
    const words = waitingWords(session.waitingFor);
    const title = `${member} waits for ${words.replace(/ in the lead's terminal$/, '').replace(/ \(in the lead's terminal\)$/, '')}${what ? `: ${what}` : ''}`;
    // The tool call's id makes the item's id: a new prompt of the same member is another item.
    const ask = asker ? { tool: asker.call.name, ...(asker.call.subject !== undefined ? { subject: asker.call.subject } : asker.call.summary ? { subject: asker.call.summary } : {}) } : undefined;
    const id = `permission:${team}:${member}${asker ? `:${asker.call.id}` : ''}`;
    out.push({ id, kind: 'permission', team, member, title, detail: `Answer it in the lead's terminal (${lead}).`, since: session.statusUpdatedAt ?? session.updatedAt ?? now, ...(ask ? { ask } : {}) });
  }
  for (const a of rt.facts.asks.values()) {
    if (rt.goneReason(a.from) !== undefined) continue;
    if (a.kind === 'plan-approval') {
      // Answered when the member's transcript shows it prompted again after asking.
      const track = facts.tracks.get(a.from);
      if (track?.lastPromptAt !== undefined && track.lastPromptAt > a.at) continue;
      out.push({ id: `plan:${team}:${a.requestId}`, kind: 'plan-approval', team, member: a.from, title: `${a.from} waits for its plan to be approved: ${a.what}`, detail: `The lead (${lead}) approves or rejects it.`, since: a.at, ...(a.plan !== undefined ? { plan: a.plan } : {}) });
    } else if (!session && now - a.at < ASK_WITHOUT_SESSION_MS && !out.some((n) => n.member === a.from && n.kind === 'permission')) {
      out.push({ id: `permission:${team}:${a.from}`, kind: 'permission', team, member: a.from, title: `${a.from} waits for a permission answer: ${a.what}`, detail: `Answer it in the lead's terminal (${lead}).`, since: a.at });
    }
  }

  // Messages Teamdeck sent that are stuck on their way.
  const kind = new Map(activity.map((x) => [x.member, x]));
  for (const s of rt.history.sent.values()) {
    if (s.undeliverableAt !== undefined || rt.goneReason(s.to) !== undefined) continue;
    if (s.deliveredAt === undefined) {
      if (now - s.queuedAt <= STUCK_MS) continue;
      const why = waitReason(s.id);
      out.push({ id: `stuck-queued:${team}:${s.id}`, kind: 'stuck-queued', team, member: s.to, messageId: s.id, since: s.queuedAt, title: `A message to ${s.to} has been queued for ${minutes(now - s.queuedAt)}: ${quoted(s.text)}`, ...(why ? { detail: why } : {}) });
      continue;
    }
    if (s.consumedAt === undefined) {
      const act = kind.get(s.to);
      if (act?.kind !== 'idle') continue;
      const from = Math.max(s.deliveredAt, act.since ?? 0);
      if (now - from <= IDLE_MAIL_MS) continue;
      const detail = s.to === lead && !leadHasTeammates(rt) ? 'The lead reads its inbox only while it has teammates it spawned itself.' : 'It has not picked it up from its inbox.';
      out.push({ id: `idle-with-mail:${team}:${s.id}`, kind: 'idle-with-mail', team, member: s.to, messageId: s.id, since: s.deliveredAt, title: `${s.to} is idle while a message to it waits: ${quoted(s.text)}`, detail });
      continue;
    }
    if (rt.era === 'current' && s.seenAt === undefined && !rt.facts.isReplied(s.id) && facts.transcribed.has(s.to) && now - s.consumedAt > STUCK_MS) {
      out.push({ id: `stuck-taken:${team}:${s.id}`, kind: 'stuck-taken', team, member: s.to, messageId: s.id, since: s.consumedAt, title: `${s.to} took a message ${minutes(now - s.consumedAt)} ago, but its model has not seen it: ${quoted(s.text)}`, detail: 'Claude holds a message taken while busy until the turn ends; if the process died, it is lost.' });
    }
  }

  // Inboxes no member reads: a name that is not (or no longer) on the team.
  if (rt.config) {
    const readers = new Set(rt.config.members.map((m) => inboxFileStem(m.name)));
    const ours = new Set([LEGACY_SENDER, inboxFileStem(senderFor(rt.era, senderName)), inboxFileStem(senderName)]);
    for (const { owner, messages } of inboxes) {
      if (readers.has(owner) || ours.has(owner) || messages === 0) continue;
      const since = Math.min(now, earliestTo(rt).get(owner) ?? now);
      out.push({ id: `orphan-inbox:${team}:${owner}`, kind: 'orphan-inbox', team, title: `${messages} message${messages === 1 ? '' : 's'} in inboxes/${owner}.json, which no member reads`, detail: 'No member of the team has that name; whatever was sent there is never read.', since, orphan: { inbox: owner, messages } });
    }
  }
  return out;
}

/** Per team: the observed map's size when last counted, and the earliest message to each inbox. */
const earliest = new WeakMap<Team, { size: number; byInbox: Map<string, number> }>();

/**
 * The time of the earliest observed message to each inbox. Observed messages are only ever
 * added, so the count is taken again only when the map has grown: the needs are judged on every
 * tick, and a pass over every message of a long team on each one was most of the engine's idle work.
 */
function earliestTo(rt: Team): Map<string, number> {
  const have = earliest.get(rt);
  if (have && have.size === rt.history.observed.size) return have.byInbox;
  const byInbox = new Map<string, number>();
  for (const o of rt.history.observed.values()) {
    // Read from a transcript: it reached its recipient's model, not an inbox.
    if (o.via !== undefined) continue;
    const stem = inboxFileStem(o.to);
    const t = Date.parse(o.timestamp) || o.at;
    if (t < (byInbox.get(stem) ?? Infinity)) byInbox.set(stem, t);
  }
  earliest.set(rt, { size: rt.history.observed.size, byInbox });
  return byInbox;
}

function leadHasTeammates(rt: Team): boolean {
  return (rt.config?.members.length ?? 0) > 1;
}

/** All teams' needs in one list, newest first (ties by id, so the order is stable). */
export function allNeeds(inputs: Iterable<NeedsInput>, senderName: string, now: number): NeedItem[] {
  const out: NeedItem[] = [];
  for (const i of inputs) out.push(...teamNeeds(i, senderName, now));
  return out.sort((a, b) => b.since - a.since || a.id.localeCompare(b.id));
}
