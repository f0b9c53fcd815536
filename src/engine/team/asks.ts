// Questions members put to the lead through its inbox (docs/claude-contract.md#frames): plan
// approvals and (pane teammates') permission and sandbox asks, indexed as they are observed so
// that the needs-you queue never re-parses the history. An answer seen for the same request id
// closes the ask.
import { parseFrame } from '../claude/frames.js';
import { oneLine } from '../claude/transcript-rows.js';
import type { ObservedState } from '../journal/journal.js';

export interface Ask {
  kind: 'permission' | 'plan-approval';
  requestId: string;
  /** The member asking. */
  from: string;
  /** ms: when it asked. */
  at: number;
  /** What is asked, in one line ("Bash: npm test", the plan's first line). */
  what: string;
  /** plan-approval: the plan whole (bounded), to be read before it is approved. */
  plan?: string;
}

/** The longest plan kept whole with its ask. */
const MAX_PLAN_CHARS = 20_000;

/** Asks per team are bounded: the oldest unanswered ones go first. */
const MAX_ASKS = 500;

/** A team's open asks. */
export class TeamAsks {
  /** Not answered yet, by request id, oldest first. */
  private readonly open = new Map<string, Ask>();
  /** Request ids seen answered (an answer may be observed before its ask). */
  private readonly answered = new Set<string>();

  /** The asks not answered yet, oldest first. */
  values(): IterableIterator<Ask> {
    return this.open.values();
  }

  /** Folds one observed message in. */
  note(o: ObservedState): void {
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
        const plan = s('planContent');
        if (id) this.add({ kind: 'plan-approval', requestId: id, from: o.from, at, what: oneLine(plan ?? s('planFilePath') ?? 'a plan', 120), ...(plan !== undefined ? { plan: plan.slice(0, MAX_PLAN_CHARS) } : {}) });
        return;
      }
      case 'permission_request': {
        const what = [s('tool_name'), s('description')].filter(Boolean).join(': ');
        const id = s('request_id');
        if (id) this.add({ kind: 'permission', requestId: id, from: o.from, at, what: oneLine(what || 'a tool call', 160) });
        return;
      }
      case 'sandbox_permission_request': {
        const host = (f.fields.hostPattern as { host?: unknown } | undefined)?.host;
        const id = s('requestId');
        if (id) this.add({ kind: 'permission', requestId: id, from: o.from, at, what: `network access to ${typeof host === 'string' ? oneLine(host, 120) : 'a host'}` });
        return;
      }
      case 'plan_approval_response':
      case 'sandbox_permission_response':
        return this.answer(s('requestId'));
      case 'permission_response':
        return this.answer(s('request_id'));
    }
  }

  private add(a: Ask): void {
    if (this.answered.has(a.requestId)) return;
    this.open.set(a.requestId, a);
    if (this.open.size > MAX_ASKS) this.open.delete(this.open.keys().next().value as string);
  }

  private answer(id: string | undefined): void {
    if (!id) return;
    this.open.delete(id);
    this.answered.add(id);
    if (this.answered.size > MAX_ASKS * 4) this.answered.delete(this.answered.values().next().value as string);
  }
}
