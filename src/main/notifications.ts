// When a teammate answers the user while the window is in the background, say so with a
// desktop notification. Only real replies (legacy: messages to `user`; current era: answers the
// engine found in an idle notification or a transcript, marked with their `source`), never
// protocol frames, only new ones, once each. The decision is pure; index.ts shows it.
import type { AppEvent } from '../shared/contract.js';

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
