// A team's messages as one list, oldest first and unique by id: how a pushed message, a loaded
// batch and a delivery state merge into it, and how many messages a member has that the user has
// not seen. Pure list-level functions; messages-state.ts applies them to the DeckState.
import { isUnreadCandidate } from '../../../shared/threads';
import type { DeliveryStatus, ThreadMessage } from '../../../shared/types';
import { hasReason, laterStatus } from '../lib/delivery';
import { memberKey, type Delivery } from './deck-state';

/** One message merged with what was known of it: the later delivery state, with its own reason. */
export function mergeMessage(old: ThreadMessage | undefined, inc: ThreadMessage, d: Delivery | undefined): ThreadMessage {
  const merged: ThreadMessage = old ? { ...old, ...inc, read: old.read || inc.read } : { ...inc };
  const status = laterStatus(laterStatus(old?.status, inc.status), d?.status);
  if (status) merged.status = status;
  else delete merged.status;
  const reason = reasonFor(status, d, inc, old);
  if (reason) merged.reason = reason;
  else delete merged.reason;
  return merged;
}

/**
 * The reason that goes with the state a message ended up in, from the first source that reported
 * that same state: a queued message's "inbox locked" never explains why it became undeliverable.
 */
export function reasonFor(status: DeliveryStatus | undefined, ...from: (Delivery | ThreadMessage | undefined)[]): string | undefined {
  if (!hasReason(status)) return undefined;
  for (const x of from) if (x && x.status === status && x.reason) return x.reason;
  return undefined;
}

function upperBound(list: readonly ThreadMessage[], time: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.time <= time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Where a message with this id is in the list, or -1. */
export function lastIndexOfId(list: readonly ThreadMessage[], id: string): number {
  // Updates nearly always concern recent messages: search from the end.
  for (let i = list.length - 1; i >= 0; i--) if (list[i]!.id === id) return i;
  return -1;
}

/** Inserts or merges one message, keeping time order. `added` is false when the id was known. */
export function upsertMessage(
  list: readonly ThreadMessage[],
  inc: ThreadMessage,
  deliveries: Record<string, Delivery> = {},
): { list: ThreadMessage[]; added: boolean } {
  const idx = lastIndexOfId(list, inc.id);
  const merged = mergeMessage(idx >= 0 ? list[idx] : undefined, inc, deliveries[inc.id]);
  if (idx >= 0 && list[idx]!.time === merged.time) {
    const copy = list.slice();
    copy[idx] = merged;
    return { list: copy, added: false };
  }
  const rest = idx >= 0 ? list.slice(0, idx).concat(list.slice(idx + 1)) : list.slice();
  rest.splice(upperBound(rest, merged.time), 0, merged);
  return { list: rest, added: idx < 0 };
}

/** Merges a batch (a loaded thread or feed) into the known messages: union by id, time order. */
export function mergeMessages(
  list: readonly ThreadMessage[],
  incoming: readonly ThreadMessage[],
  deliveries: Record<string, Delivery> = {},
): ThreadMessage[] {
  if (incoming.length === 0) return list as ThreadMessage[];
  const out = list.slice();
  const at = new Map<string, number>();
  out.forEach((m, i) => at.set(m.id, i));
  for (const inc of incoming) {
    const i = at.get(inc.id);
    if (i === undefined) {
      at.set(inc.id, out.length);
      out.push(mergeMessage(undefined, inc, deliveries[inc.id]));
    } else {
      out[i] = mergeMessage(out[i], inc, deliveries[inc.id]);
    }
  }
  // Array.prototype.sort is stable: equal times keep the order they were seen in.
  return out.sort((a, b) => a.time - b.time);
}

/** Per member: its messages to the user newer than when the user last viewed its thread. */
export function recountUnread(
  messages: readonly ThreadMessage[],
  team: string,
  viewedAt: Record<string, number>,
  baseline: number,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of messages) {
    if (!isUnreadCandidate(m)) continue;
    const seen = viewedAt[memberKey(team, m.from)] ?? baseline;
    if (m.time > seen) out[m.from] = (out[m.from] ?? 0) + 1;
  }
  return out;
}
