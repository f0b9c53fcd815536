// Questions members put to the lead through its inbox (format §9): plan approvals and (pane
// teammates') permission and sandbox asks, indexed as they are observed so that the needs-you
// queue never re-parses the history. An answer seen for the same request id closes the ask.
import { parseFrame } from '../claude/frames.js';
import type { ObservedState } from '../journal/journal.js';
import type { TeamRuntime } from './team-runtime.js';
import { oneLine } from '../claude/transcript-rows.js';

export interface Ask {
  kind: 'permission' | 'plan-approval';
  requestId: string;
  /** The member asking. */
  from: string;
  /** ms: when it asked. */
  at: number;
  /** What is asked, in one line ("Bash: npm test", the plan's first line). */
  what: string;
}

/** Asks per team are bounded: the oldest unanswered ones go first. */
const MAX_ASKS = 500;

/** Folds one observed message into the team's open asks. */
export function noteAsk(rt: TeamRuntime, o: ObservedState): void {
  // Only these frames matter, and their type names them (unless escaped).
  // (A text left in the journal is never a frame: see textMayStayOnDisk.)
  const text = o.text;
  if (text === undefined || (!text.includes('plan_approval_') && !text.includes('permission_re') && !text.includes('\\u'))) return;
  const f = parseFrame(text);
  if (!f) return;
  const s = (k: string) => (typeof f.fields[k] === 'string' ? (f.fields[k] as string) : undefined);
  const at = Date.parse(o.timestamp) || o.at;
  switch (f.type) {
    case 'plan_approval_request': {
      const id = s('requestId');
      if (id && !rt.answered.has(id)) add(rt, { kind: 'plan-approval', requestId: id, from: o.from, at, what: oneLine(s('planContent') ?? s('planFilePath') ?? 'a plan', 120) });
      return;
    }
    case 'permission_request': {
      const id = s('request_id');
      const what = [s('tool_name'), s('description')].filter(Boolean).join(': ');
      if (id && !rt.answered.has(id)) add(rt, { kind: 'permission', requestId: id, from: o.from, at, what: oneLine(what || 'a tool call', 160) });
      return;
    }
    case 'sandbox_permission_request': {
      const id = s('requestId');
      const host = (f.fields.hostPattern as { host?: unknown } | undefined)?.host;
      if (id && !rt.answered.has(id)) add(rt, { kind: 'permission', requestId: id, from: o.from, at, what: `network access to ${typeof host === 'string' ? oneLine(host, 120) : 'a host'}` });
      return;
    }
    case 'plan_approval_response':
    case 'sandbox_permission_response':
      return answer(rt, s('requestId'));
    case 'permission_response':
      return answer(rt, s('request_id'));
  }
}

function add(rt: TeamRuntime, a: Ask): void {
  rt.asks.set(a.requestId, a);
  if (rt.asks.size > MAX_ASKS) rt.asks.delete(rt.asks.keys().next().value as string);
}

function answer(rt: TeamRuntime, id: string | undefined): void {
  if (!id) return;
  rt.asks.delete(id);
  rt.answered.add(id);
  if (rt.answered.size > MAX_ASKS * 4) rt.answered.delete(rt.answered.values().next().value as string);
}
