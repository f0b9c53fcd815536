// When a teammate answers the user while the window is in the background, say so with a
// desktop notification. Only real replies (legacy: messages to `user`; current era: answers the
// engine found in an idle notification or a transcript, marked with their `source`), never
// protocol frames, only new ones, once each. New items in the needs-you queue (a permission
// prompt, a plan to approve, a stuck message) notify too. The decisions are pure; index.ts shows them.
import type { AppEvent } from '../shared/contract.js';
import type { NeedKind } from '../shared/types.js';

export interface ReplyNotice {
  title: string;
  body: string;
  team: string;
  member: string;
}

export interface NoticeContext {
  focused: boolean;
  enabled: boolean;
  /** Messages older than this (ms since epoch), such as history read at start, never notify. */
  since: number;
  /** Ids already notified; bounded by the caller. */
  seen: Set<string>;
}

const BODY_CHARS = 180;

export function replyNotice(event: AppEvent, ctx: NoticeContext): ReplyNotice | undefined {
  if (event.type !== 'message') return undefined;
  const m = event.message;
  const answer = m.source !== undefined || m.to === 'user';
  if (!answer || m.from === 'user' || m.frame || m.status !== undefined) return undefined;
  if (!ctx.enabled || ctx.focused) return undefined;
  if (m.time < ctx.since || ctx.seen.has(m.id)) return undefined;
  ctx.seen.add(m.id);
  if (ctx.seen.size > 1_000) ctx.seen.delete(ctx.seen.values().next().value as string);
  const oneLine = (m.summary?.trim() || m.text).replace(/\s+/g, ' ').trim();
  const body = oneLine.length > BODY_CHARS ? `${oneLine.slice(0, BODY_CHARS - 1)}…` : oneLine;
  return { title: `${m.from} replied (${event.team})`, body, team: event.team, member: m.from };
}

export interface NeedNotice {
  title: string;
  body: string;
  team: string;
  needId: string;
  kind: NeedKind;
  /** A permission prompt Teamdeck can answer now (its lead's terminal is reachable, answering is on). */
  answerable: boolean;
}

export interface NeedNoticeContext {
  focused: boolean;
  /** settings.needsNotifications */
  enabled: boolean;
  /** Needs already in the queue at the last event (announced or not); replaced with the current ids. */
  known: Set<string>;
  /** Needs that began before this (ms since epoch), such as those found at start, never notify. */
  since: number;
}

/**
 * The notices for a `needs` event: each need not in the queue at the previous event, once per
 * time it appears (one that clears and comes back is new again), while the window is in the
 * background and the setting is on.
 */
export function needNotices(event: AppEvent, ctx: NeedNoticeContext): NeedNotice[] {
  if (event.type !== 'needs') return [];
  const fresh = event.needs.filter((n) => !ctx.known.has(n.id));
  ctx.known.clear();
  for (const n of event.needs) ctx.known.add(n.id);
  if (!ctx.enabled || ctx.focused) return [];
  return fresh
    .filter((n) => n.since >= ctx.since)
    .map((n) => {
      const body = n.detail ? `${n.title}. ${n.detail}` : n.title;
      return {
        title: `${n.team} needs you`,
        body: body.length > BODY_CHARS ? `${body.slice(0, BODY_CHARS - 1)}…` : body,
        team: n.team,
        needId: n.id,
        kind: n.kind,
        answerable: n.kind === 'permission' && n.answer?.available === true,
      };
    });
}
