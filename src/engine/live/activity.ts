// What each member is doing now, from three sources (docs/claude-contract.md#config, #sessions, #transcripts): its transcript (a
// tool call without its result yet is in flight; a turn end makes it idle), the lead's sessions
// file (busy, idle, waiting for what) and config flags (`isActive`, set by pane teammates).
// Transcript rows are folded into a small track per agent as they are read, so judging costs
// nothing per row already seen.
import type { MemberActivity } from '../../shared/types.js';
import type { LeadSession } from '../claude/sessions.js';
import { assistantText, isCancelledTurn, isInterruptRow, isTurnEnd, oneLine, promptOf, rowTime, toolResults, toolUses, type Row, type ToolCall } from '../claude/transcript-rows.js';
import type { Team } from '../team/team.js';

/** Tool calls remembered per agent, at most: a turn rarely has more than a few in flight. */
const MAX_TRACKED_CALLS = 64;
/** A teammate's tool call counts as the one the lead waits on if it started at most this long after the lead began waiting. */
const ASK_SLACK_MS = 1_000;

export interface AgentTrack {
  inflight: Map<string, ToolCall>;
  lastText?: string;
  lastTurnEndAt?: number;
  lastPromptAt?: number;
  lastRowAt?: number;
}

export function newTrack(): AgentTrack {
  return { inflight: new Map() };
}

/** Folds newly read rows into an agent's track; true when something it shows changed. */
export function foldRows(track: AgentTrack, rows: readonly Row[]): boolean {
  let changed = false;
  for (const row of rows) {
    const at = rowTime(row) || track.lastRowAt || 0;
    if (row.type === 'assistant' || row.type === 'user') track.lastRowAt = Math.max(track.lastRowAt ?? 0, at);
    for (const call of toolUses(row)) {
      track.inflight.set(call.id, { ...call, at: call.at || at });
      if (track.inflight.size > MAX_TRACKED_CALLS) track.inflight.delete(track.inflight.keys().next().value as string);
      changed = true;
    }
    for (const r of toolResults(row)) if (track.inflight.delete(r.toolUseId)) changed = true;
    const text = assistantText(row);
    if (text !== undefined) {
      track.lastText = oneLine(text, 200);
      changed = true;
    }
    if (isTurnEnd(row) || isCancelledTurn(row) || isInterruptRow(row)) {
      // A turn that ended, was interrupted, or the user cancelled (docs/claude-contract.md#changes-2-1-337)
      // has nothing in flight, whatever was not answered.
      track.inflight.clear();
      track.lastTurnEndAt = at;
      changed = true;
    } else if (toolResults(row).length === 0 && promptOf(row) !== undefined) {
      track.lastPromptAt = at;
      changed = true;
    }
  }
  return changed;
}

/** The lead's `waitingFor`, in words for the human. */
export function waitingWords(waitingFor: string | undefined): string {
  switch (waitingFor) {
    case 'permission prompt':
      return "a permission answer in the lead's terminal";
    case 'dialog open':
      return "a dialog to be closed in the lead's terminal";
    case 'input needed':
      return "input in the lead's terminal";
    case 'worker request':
      return "an answer to a teammate's request in the lead's terminal";
    case 'sandbox request':
      return "a sandbox permission answer in the lead's terminal";
    case undefined:
      return "an answer in the lead's terminal";
    default:
      return `${oneLine(waitingFor, 80)} (in the lead's terminal)`;
  }
}

/** Whether the lead's wait is an ask some member's tool call raised (not a dialog of its own). */
function isAsk(waitingFor: string | undefined): boolean {
  return waitingFor === 'permission prompt' || waitingFor === 'worker request' || waitingFor === 'sandbox request';
}

function latestCall(track: AgentTrack | undefined): ToolCall | undefined {
  let best: ToolCall | undefined;
  for (const c of track?.inflight.values() ?? []) if (!best || c.at >= best.at) best = c;
  return best;
}

export interface ActivityFacts {
  tracks: ReadonlyMap<string, AgentTrack>;
  /** Members whose transcript Teamdeck reads. */
  transcribed: ReadonlySet<string>;
  /** The lead's sessions file, when it was read. */
  session: LeadSession | undefined;
}

/**
 * Who asked what the lead waits on: the sessions file does not name the member (docs/claude-contract.md#sessions), so it is the
 * member with a tool call in flight when the lead started waiting (the latest such call).
 */
export function askerOf(rt: Team, facts: ActivityFacts): { member: string; call: ToolCall } | undefined {
  const s = facts.session;
  if (s?.status !== 'waiting' || !isAsk(s.waitingFor)) return undefined;
  const since = s.statusUpdatedAt ?? s.updatedAt ?? Infinity;
  let best: { member: string; call: ToolCall } | undefined;
  for (const m of rt.members) {
    const call = latestCall(facts.tracks.get(m.name));
    if (!call || call.at > since + ASK_SLACK_MS) continue;
    if (!best || call.at > best.call.at) best = { member: m.name, call };
  }
  return best;
}

/** Every member's activity now, in roster order. */
export function judgeActivity(rt: Team, facts: ActivityFacts): MemberActivity[] {
  const session = facts.session;
  const asker = askerOf(rt, facts);
  const leadName = rt.lead?.name;
  return rt.members.map((m): MemberActivity => {
    const track = facts.tracks.get(m.name);
    const sources: MemberActivity['sources'] = [];
    const a: MemberActivity = { member: m.name, kind: 'unknown', sources };
    if (track) {
      sources.push('transcript');
      if (track.lastText !== undefined) a.lastText = track.lastText;
      if (track.lastTurnEndAt !== undefined) a.lastTurnEndAt = track.lastTurnEndAt;
    }
    const isLead = m.isLead || m.name === leadName;
    if (isLead && session) sources.push('session');
    const gone = rt.ended ? rt.ended.reason : rt.goneReason(m.name);
    if (gone !== undefined) {
      a.kind = 'shut-down';
      const at = rt.ended?.at ?? track?.lastRowAt ?? rt.facts.lastEventOf(m.name);
      if (at !== undefined) a.since = at;
      return a;
    }
    const call = latestCall(track);
    if (call) a.tool = { name: call.name, summary: call.summary, since: call.at };
    // The lead waits for the human: on behalf of the asker, or on its own.
    if (session?.status === 'waiting' && (asker ? asker.member === m.name || isLead : isLead)) {
      a.kind = 'waiting';
      a.since = session.statusUpdatedAt ?? session.updatedAt ?? call?.at ?? 0;
      a.waitingFor = asker && isLead && asker.member !== m.name ? `${waitingWords(session.waitingFor)} (asked by ${asker.member})` : waitingWords(session.waitingFor);
      return a;
    }
    if (call) {
      a.kind = 'working';
      a.since = call.at;
      return a;
    }
    if (track && (track.lastPromptAt ?? 0) > (track.lastTurnEndAt ?? -1)) {
      // A turn began and has not ended: the model is thinking or writing.
      a.kind = 'working';
      a.since = track.lastPromptAt!;
      return a;
    }
    if (isLead && session?.status === 'shell') {
      a.kind = 'working';
      a.since = session.statusUpdatedAt ?? session.updatedAt ?? 0;
      return a;
    }
    if (track?.lastTurnEndAt !== undefined) {
      a.kind = 'idle';
      a.since = track.lastTurnEndAt;
      return a;
    }
    if (isLead && session?.status === 'idle') {
      a.kind = 'idle';
      a.since = session.statusUpdatedAt ?? session.updatedAt ?? 0;
      return a;
    }
    // Pane teammates set isActive at turn start and clear it at Stop (docs/claude-contract.md#config).
    const cm = rt.config?.members.find((c) => c.name === m.name);
    if (cm && typeof cm.isActive === 'boolean') {
      sources.push('config');
      a.kind = cm.isActive ? 'working' : 'idle';
      const last = rt.facts.lastEventOf(m.name);
      if (last !== undefined) a.since = last;
      return a;
    }
    if (isLead && session?.status === 'busy') {
      a.kind = 'working';
      a.since = session.statusUpdatedAt ?? session.updatedAt ?? 0;
    }
    return a;
  });
}
