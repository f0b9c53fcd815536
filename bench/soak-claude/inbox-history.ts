// What a member's inbox file held of one message over the run, from the observer's samples
// (every distinct state, ~10 ms apart): the most copies of its text in one state (with their
// ids), and how often it appeared after being absent (written again after Claude pruned it).
// A duplicate in one model request is explained by this, not guessed at: two copies in one
// state were two entries in the file (a writer's de-duplication failed, or two ids for one
// send); one copy at a time means the doubling happened after the file (in Claude).
import { inboxFileStem } from '../../src/engine/claude/paths.js';
import type { Observer } from '../../test/claude/harness/observer.js';

export interface InboxHistory {
  /** The most entries carrying the text in any one observed state of the file. */
  mostAtOnce: number;
  /** Their ids (msg_id, messageId, or none) in that state. */
  idsAtOnce: string[];
  /** How many times the text appeared in the file after a state without it (1: written once). */
  appearances: number;
  /** Observed states of the file in all. */
  states: number;
}

function entriesOf(content: string | undefined): Array<Record<string, unknown>> {
  if (content === undefined) return [];
  try {
    const v = JSON.parse(content) as unknown;
    return Array.isArray(v) ? (v as Array<Record<string, unknown>>) : [];
  } catch {
    return []; // torn mid-write: not a state of the queue
  }
}

export function inboxHistory(observer: Observer, team: string, member: string, text: string): InboxHistory {
  const path = `teams/${team}/inboxes/${inboxFileStem(member)}.json`;
  const states = observer.statesOf(path);
  let mostAtOnce = 0;
  let idsAtOnce: string[] = [];
  let appearances = 0;
  let present = false;
  for (const s of states) {
    const copies = entriesOf(s.content).filter((e) => e.text === text);
    if (copies.length > mostAtOnce) {
      mostAtOnce = copies.length;
      idsAtOnce = copies.map((e) => String(e.msg_id ?? e.messageId ?? 'no id'));
    }
    if (copies.length > 0 && !present) appearances++;
    present = copies.length > 0;
  }
  return { mostAtOnce, idsAtOnce, appearances, states: states.length };
}

/** The history in a few words, for a duplicate's problem line. */
export function describeHistory(h: InboxHistory): string {
  if (h.states === 0) return 'its inbox was never sampled';
  const atOnce = h.mostAtOnce > 1 ? `the inbox held ${h.mostAtOnce} copies at once (ids ${h.idsAtOnce.join(', ')})` : `the inbox never held two copies at once (${h.mostAtOnce ? `id ${h.idsAtOnce[0]}` : 'never seen there'})`;
  return `${atOnce}; it appeared in the inbox ${h.appearances} time(s)`;
}
