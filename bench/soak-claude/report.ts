// The soak's verdict and its print: which exit conditions an account trips, and the account as
// a table a person reads (the JSON file holds the same, whole).
import type { Account } from './account.js';

/** Which of the exit conditions the account trips. */
export function failures(a: Account): string[] {
  const out: string[] = [];
  if (a.lost) out.push(`${a.lost} lost`);
  if (a.duplicates.outsideWindow) out.push(`${a.duplicates.outsideWindow} duplicates outside the crash window`);
  if (a.orderViolations.total) out.push(`order violations for ${a.orderViolations.total} targets`);
  if (a.recreatedFolders) out.push(`${a.recreatedFolders} team folders recreated`);
  if (a.answers.missed) out.push(`${a.answers.missed} answers missed`);
  const mm = a.memberMessages;
  if (mm.missed) out.push(`${mm.missed} member messages missed`);
  if (mm.shownTwice) out.push(`${mm.shownTwice} member messages shown twice`);
  if (mm.wrongSides) out.push(`${mm.wrongSides} member messages shown with the wrong sender, recipient or text`);
  if (a.undeliverable.falseReasons) out.push(`${a.undeliverable.falseReasons} undeliverable with a false reason`);
  if (a.refused.falseReasons) out.push(`${a.refused.falseReasons} refused with a false reason`);
  if (a.journalFolds.failed) out.push(`${a.journalFolds.failed} journal folds failed`);
  if (a.endsNotNoticed) out.push(`${a.endsNotNoticed} team ends Teamdeck did not show within 5 s`);
  return out;
}

export function printAccount(a: Account, out: (s: string) => void): void {
  const mm = a.memberMessages;
  const rows: [string, string | number][] = [
    ['command', a.command],
    ['seed', a.seed],
    ...(a.breakEngine ? [['broken engine', `TEAMDECK_BREAK=${a.breakEngine}`] as [string, string]] : []),
    ['stream', `${a.seconds} s; ${a.teams.length} teams: ${a.teams.map((t) => `${t.team} (${t.ended ?? 'running'}${t.shutdowns.length ? `; ${t.shutdowns.join(', ')} shut down` : ''})`).join(', ')}`],
    ['engine kills (SIGKILL)', `${Object.entries(a.engineKills).map(([k, v]) => `${k} ${v}`).join(', ')}${a.engineKills['after-write'] ? ` (${a.afterWriteInWindow} before the delivery was journaled)` : ''}`],
    ['foreign lock spells', a.foreignLockSpells],
    ['sent', a.sent],
    ['answered', `accepted ${a.answered.accepted}, queued ${a.answered.queued}, undeliverable ${a.answered.undeliverable}`],
    ['refused', `${a.refused.count} ${JSON.stringify(a.refused.byReason)}; false reasons ${a.refused.falseReasons}`],
    ['no answer (engine killed mid-send)', `${a.unanswered.count} (journaled ${a.unanswered.journaled})`],
    ['queued, then delivered', a.queuedThenDelivered],
    ['delivered', a.delivered],
    ['undeliverable', `${a.undeliverable.count} ${JSON.stringify(a.undeliverable.byReason)}; false reasons ${a.undeliverable.falseReasons}`],
    ['seen', `by the models ${a.seen.byModels}; seen in Teamdeck ${a.seen.byTeamdeck} (of which the model never got ${a.seen.teamdeckSeenModelDidNot})`],
    ['cut off by an end', `team end ${a.cutOff.byTeamEnd}, shutdown ${a.cutOff.byShutdown}, delivered as it ended ${a.cutOff.whileEnding}`],
    ['answers', `given ${a.answers.given}, in transcripts ${a.answers.recorded}, in Teamdeck ${a.answers.captured} (${a.answers.percentCaptured}%), missed ${a.answers.missed}`],
    ['member messages', `sent ${mm.sent}, in Teamdeck ${mm.inTeamdeck}, missed ${mm.missed}, shown twice ${mm.shownTwice}`],
    [
      'member messages, more',
      `made ${mm.made}, not run (sender ended first) ${mm.notRun}, refused by Claude ${mm.refusedByClaude}, read by their recipients ${mm.readByRecipient}, wrong sender/recipient/text ${mm.wrongSides}; ${Object.entries(mm.byRoute).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`,
    ],
    ['lost', `${a.lost} (delivered after Teamdeck knew the end: ${a.deliveredAfterTeamdeckKnewTheEnd})`],
    ['misdelivered', a.misdelivered],
    ['stalled (queued over 20 s while the team ran)', `${a.stalled.count} ${JSON.stringify(a.stalled.byChannel)}${a.stalled.count ? `, longest ${(a.stalled.longestMs / 1000).toFixed(1)} s` : ''}`],
    ['duplicates', `${a.duplicates.total} (in the crash window ${a.duplicates.inWindow}, outside ${a.duplicates.outsideWindow})`],
    ['order violations', `${a.orderViolations.total}${a.orderViolations.total ? ` ${JSON.stringify(a.orderViolations.byTarget)}` : ''}`],
    ['team folders recreated', a.recreatedFolders],
    ['ends not shown within 5 s', a.endsNotNoticed],
    ['journal folds OK', `${a.journalFolds.ok} of ${a.journalFolds.ok + a.journalFolds.failed} (torn tails cut: ${a.journalFolds.tornTailsCut})`],
  ];
  const w = Math.max(...rows.map((r) => r[0].length));
  // A run against an engine broken on purpose fails by design: every line that reads like a
  // failure says so, or a log read for `problem:` takes the break's catch for a real one.
  const head = a.breakEngine ? `Teamdeck soak against Claude Code, ENGINE BROKEN ON PURPOSE (TEAMDECK_BREAK=${a.breakEngine}): its problems are the break being caught` : 'Teamdeck soak against Claude Code';
  const lines = ['', head, ...rows.map(([k, v]) => `  ${k.padEnd(w)}  ${v}`)];
  const label = a.breakEngine ? `problem (expected, TEAMDECK_BREAK=${a.breakEngine})` : 'problem';
  for (const p of a.problems.slice(0, 60)) lines.push(`  ${label}: ${p}`);
  if (a.problems.length > 60) lines.push(`  ... and ${a.problems.length - 60} more problems`);
  for (const x of a.stalled.examples) lines.push(`  stalled: ${x}`);
  for (const n of a.notes) lines.push(`  note: ${n}`);
  out(lines.join('\n') + '\n');
}
