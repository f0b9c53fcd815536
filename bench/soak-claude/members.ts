// The account of the members' own messages (models.ts has them make them): every SendMessage a
// scripted model made to another member, followed to the team's feed in Teamdeck (the window's
// `feed` call, after the drain), where it must be shown exactly once, from its sender to its
// recipient, with its text.
//
// - sent: calls Claude ran: the call's result is in the sender's transcript, or came back to its
//   model. A call refused by Claude (its result an error, or `success: false`) was sent all the
//   same: the sender's transcript holds it, and so must Teamdeck (docs/claude-contract.md#record,
//   the sender's SendMessage row). So was one to a member shutting down or gone, or made as the
//   team ended: whether anyone read it is beside the point (`read by their recipients` says how
//   many were), the sender's row is the record.
// - not run: calls whose result is nowhere (the sender's process ended first): not expected in
//   Teamdeck, but one shown there must be shown once.
// - missed: sent, and not in the feed; shown twice: in the feed more than once; wrong sides:
//   shown with another sender, recipient or text. Each one fails the run.
import type { ThreadMessage } from '../../src/shared/types.js';
import type { ApiRequest } from '../../test/claude/harness/script.js';
import { MEMBER_LABEL, memberArrivals, memberSends, toolResults } from './models.js';
import type { TeamLife } from './record.js';
import { forEachTranscriptLine } from './transcript-lines.js';

export interface MemberAccount {
  /** SendMessage calls the models made to other members. */
  made: number;
  sent: number;
  inTeamdeck: number;
  missed: number;
  shownTwice: number;
  wrongSides: number;
  /** Made, and never run: the sender ended first. */
  notRun: number;
  /** Sent, and refused by Claude (the result an error): the sender's row is the record. */
  refusedByClaude: number;
  /** Sent, and seen by their recipients' models. */
  readByRecipient: number;
  /** Sent, by route: teammate→teammate, teammate→lead, lead→teammate. */
  byRoute: Record<string, number>;
  problems: string[];
}

const LEAD = 'team-lead';

/** Tool results Claude wrote into the transcripts under `dir`: tool_use id -> whether it says the call failed. */
export function recordedResults(dir: string): Map<string, boolean> {
  const out = new Map<string, boolean>();
  forEachTranscriptLine(dir, (line) => {
    if (!line.includes('"tool_result"') || !line.includes('"user"')) return;
    let row: { type?: string; message?: { content?: unknown }; toolUseResult?: { success?: unknown } };
    try {
      row = JSON.parse(line) as typeof row;
    } catch {
      return; // a torn last line
    }
    if (row.type !== 'user' || !Array.isArray(row.message?.content)) return;
    for (const b of row.message.content as Array<{ type?: string; tool_use_id?: string; is_error?: boolean }>) {
      if (b.type === 'tool_result' && typeof b.tool_use_id === 'string') out.set(b.tool_use_id, b.is_error === true || row.toolUseResult?.success === false);
    }
  });
  return out;
}

const routeOf = (from: string, to: string) => `${from === LEAD ? 'lead' : 'teammate'}→${to === LEAD ? 'lead' : 'teammate'}`;

/** The members' own messages, each checked against its team's feed. */
export function memberAccount(input: { log: ApiRequest[]; feeds: ReadonlyMap<string, ThreadMessage[]>; lives: TeamLife[]; projectsDir: string }): MemberAccount {
  const { log, feeds, lives } = input;
  const recorded = recordedResults(input.projectsDir);
  const returned = toolResults(log);
  const read = new Set(memberArrivals(log));
  // The lead's calls carry no team: the team whose lead ran at that moment.
  const lifeAt = (at: number) => lives.find((l) => l.launchedAt <= at && (l.end?.leadGoneAt ?? l.end?.at ?? Infinity) >= at);
  // Per team, the feed's messages by the member-msg number they start with.
  const shown = new Map<string, Map<number, ThreadMessage[]>>();
  for (const [team, feed] of feeds) {
    const byN = new Map<number, ThreadMessage[]>();
    for (const m of feed) {
      const n = MEMBER_LABEL.exec(m.text)?.[1];
      if (n !== undefined) byN.set(Number(n), [...(byN.get(Number(n)) ?? []), m]);
    }
    shown.set(team, byN);
  }
  const a: MemberAccount = { made: 0, sent: 0, inTeamdeck: 0, missed: 0, shownTwice: 0, wrongSides: 0, notRun: 0, refusedByClaude: 0, readByRecipient: 0, byRoute: {}, problems: [] };
  const accounted = new Set<string>();
  for (const s of memberSends(log)) {
    a.made++;
    const team = s.team ?? lifeAt(s.at)?.team;
    const what = `member-msg ${s.n} from ${s.from} to ${s.to}${team ? ` of ${team}` : ''}`;
    const failed = recorded.get(s.callId) ?? returned.get(s.callId)?.isError;
    const ran = failed !== undefined;
    const copies = team ? (shown.get(team)?.get(s.n) ?? []) : [];
    if (team) accounted.add(`${team}|${s.n}`);
    if (copies.length > 1) {
      a.shownTwice++;
      a.problems.push(`${what} is shown ${copies.length} times in Teamdeck (ids ${copies.map((c) => c.id).join(', ')})`);
    }
    for (const c of copies) {
      if (c.from !== s.from || c.to !== s.to || c.text.trim() !== s.text.trim()) {
        a.wrongSides++;
        a.problems.push(`${what} is shown as from ${c.from} to ${c.to}${c.text.trim() !== s.text.trim() ? `, with the text ${JSON.stringify(c.text.slice(0, 80))}` : ''}`);
      }
    }
    if (!ran) {
      a.notRun++;
      continue;
    }
    a.sent++;
    a.byRoute[routeOf(s.from, s.to)] = (a.byRoute[routeOf(s.from, s.to)] ?? 0) + 1;
    if (failed) a.refusedByClaude++;
    if (read.has(s.n)) a.readByRecipient++;
    if (copies.length === 0) {
      a.missed++;
      const where = recorded.has(s.callId) ? "its result is in the sender's transcript" : 'its result came back to the model (not in a transcript)';
      a.problems.push(`${what} was sent (${failed ? 'refused by Claude; ' : ''}${where}) and is not in Teamdeck's feed`);
    } else a.inTeamdeck++;
  }
  // Shown, and no model made it: a message Teamdeck made up, or one of another team.
  for (const [team, byN] of shown) {
    for (const [n, ms] of byN) {
      if (accounted.has(`${team}|${n}`)) continue;
      a.wrongSides++;
      a.problems.push(`${team}'s feed shows member-msg ${n} (from ${ms[0]!.from} to ${ms[0]!.to}), which no model of that team made`);
    }
  }
  return a;
}
