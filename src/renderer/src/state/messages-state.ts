// A team's messages in the state: a message or delivery state the host pushed, a thread or the
// feed it loaded, and the unread badges they move (cleared when the user views a thread).
import { isUnreadCandidate } from '../../../shared/threads';
import type { DeliveryStatus, ThreadMessage } from '../../../shared/types';
import { laterStatus } from '../lib/delivery';
import { memberKey, teamCache, withTeam, type DeckState, type Delivery } from './deck-state';
import { lastIndexOfId, mergeMessage, mergeMessages, reasonFor, recountUnread, upsertMessage } from './message-list';
import { bumpPresence } from './roster-state';

/** A message the host pushed: merged, counted as unread when it is new to the user, and its sender seen to be active. */
export function applyIncomingMessage(s: DeckState, team: string, m: ThreadMessage): DeckState {
  const cache = teamCache(s, team);
  const { list, added } = upsertMessage(cache.messages, m, cache.deliveries);
  let unread = cache.unread;
  if (added && isUnreadCandidate(m)) {
    const seen = s.viewedAt[memberKey(team, m.from)] ?? s.viewedBaseline;
    if (m.time > seen) unread = { ...unread, [m.from]: (unread[m.from] ?? 0) + 1 };
  }
  const roster = bumpPresence(cache.roster, m);
  return withTeam(s, team, { ...cache, messages: list, unread, ...(roster ? { roster } : {}) });
}

/** A sent message moved on (or refused on the way); kept even when the message itself has not arrived yet. */
export function applyDelivery(s: DeckState, team: string, id: string, status: DeliveryStatus, reason?: string): DeckState {
  const cache = teamCache(s, team);
  const prev = cache.deliveries[id];
  const next = laterStatus(prev?.status, status);
  if (!next) return s;
  const why = reasonFor(next, { status, ...(reason ? { reason } : {}) }, prev);
  const delivery: Delivery = { status: next, ...(why ? { reason: why } : {}) };
  const deliveries = { ...cache.deliveries, [id]: delivery };
  const i = lastIndexOfId(cache.messages, id);
  let messages = cache.messages;
  if (i >= 0) {
    messages = messages.slice();
    messages[i] = mergeMessage(messages[i], messages[i]!, delivery);
  }
  return withTeam(s, team, { ...cache, deliveries, messages });
}

/** A load begun at record `seq` is whole only if the host read no more history since. */
const current = (cache: { recordSeq?: number }, seq: number | undefined) => seq === undefined || (cache.recordSeq ?? 0) === seq;

export function applyThreadLoaded(s: DeckState, team: string, member: string, msgs: readonly ThreadMessage[], gen = s.generation, seq?: number): DeckState {
  const cache = teamCache(s, team);
  const messages = mergeMessages(cache.messages, msgs, cache.deliveries);
  const { [member]: _dropped, ...threadError } = cache.threadError;
  return withTeam(s, team, {
    ...cache,
    messages,
    threadLoaded: current(cache, seq) ? { ...cache.threadLoaded, [member]: gen } : cache.threadLoaded,
    threadError,
    unread: recountUnread(messages, team, s.viewedAt, s.viewedBaseline),
  });
}

export function applyThreadError(s: DeckState, team: string, member: string, message: string): DeckState {
  const cache = teamCache(s, team);
  return withTeam(s, team, { ...cache, threadError: { ...cache.threadError, [member]: message } });
}

export function applyFeedLoaded(s: DeckState, team: string, msgs: readonly ThreadMessage[], gen = s.generation, seq?: number): DeckState {
  const cache = teamCache(s, team);
  const messages = mergeMessages(cache.messages, msgs, cache.deliveries);
  return withTeam(s, team, {
    ...cache,
    messages,
    feedLoaded: current(cache, seq) ? gen : cache.feedLoaded,
    feedError: undefined,
    unread: recountUnread(messages, team, s.viewedAt, s.viewedBaseline),
  });
}

/** The host read more of the team's history: its feed and threads are fetched again when shown (what is here stays meanwhile). */
export function applyRecordGrew(s: DeckState, team: string): DeckState {
  const cache = s.byTeam[team];
  if (!cache) return s;
  return withTeam(s, team, { ...cache, feedLoaded: undefined, threadLoaded: {}, recordSeq: (cache.recordSeq ?? 0) + 1 });
}

export function applyFeedError(s: DeckState, team: string, message: string): DeckState {
  return withTeam(s, team, { ...teamCache(s, team), feedError: message });
}

/** The user has seen the newest message from `member`: clear its unread badge. */
export function markViewed(s: DeckState, team: string, member: string): DeckState {
  const cache = s.byTeam[team];
  if (!cache) return s;
  let newest = 0;
  for (let i = cache.messages.length - 1; i >= 0; i--) {
    const m = cache.messages[i]!;
    if (m.from === member && isUnreadCandidate(m)) {
      newest = m.time;
      break;
    }
  }
  const key = memberKey(team, member);
  const seen = s.viewedAt[key] ?? s.viewedBaseline;
  if (newest <= seen && !cache.unread[member]) return s;
  const viewedAt = newest > seen ? { ...s.viewedAt, [key]: newest } : s.viewedAt;
  const { [member]: _u, ...unread } = cache.unread;
  return { ...withTeam(s, team, { ...cache, unread }), viewedAt };
}
