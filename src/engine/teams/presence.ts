import type { MemberState, TeamMessage } from '../../shared/types.js';
import { isShutdownApproval } from '../claude/frames.js';

export const DEFAULT_IDLE_THRESHOLD_MS = 5 * 60_000;

export interface PresenceFacts {
  /** Latest event time from the member (messages it sent, idle notifications, joining). */
  lastEventAt?: number;
  /** A shutdown approval from the member was seen. */
  terminated: boolean;
}

/** ACTIVE while the latest event is younger than the threshold; TERMINATED only after a shutdown approval. */
export function memberState(facts: PresenceFacts, now: number, thresholdMs = DEFAULT_IDLE_THRESHOLD_MS): MemberState {
  if (facts.terminated) return 'terminated';
  if (facts.lastEventAt !== undefined && now - facts.lastEventAt < thresholdMs) return 'active';
  return 'idle';
}

/** Folds messages (from any inbox) and config join times into per-member presence facts. */
export function presenceFacts(
  messages: Iterable<Pick<TeamMessage, 'from' | 'time' | 'frame'>>,
  joinedAt: Map<string, number> = new Map(),
): Map<string, PresenceFacts> {
  const facts = new Map<string, PresenceFacts>();
  const get = (name: string) => {
    let f = facts.get(name);
    if (!f) facts.set(name, (f = { terminated: false }));
    return f;
  };
  for (const [name, t] of joinedAt) {
    const f = get(name);
    if (f.lastEventAt === undefined || t > f.lastEventAt) f.lastEventAt = t;
  }
  for (const m of messages) {
    if (m.from === 'user') continue;
    const f = get(m.from);
    if (m.time && (f.lastEventAt === undefined || m.time > f.lastEventAt)) f.lastEventAt = m.time;
    if (isShutdownApproval(m.frame)) f.terminated = true;
  }
  return facts;
}
