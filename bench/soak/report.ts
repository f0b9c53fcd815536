// The soak's verdict and its print: whether the account holds, and the account as a table a
// person reads, then one machine-readable line for the test that runs a short soak.
import type { Summary } from './account.js';
import { MODE } from './team.js';

/** Whether anything the soak must never see happened. */
export function failed(s: Summary): boolean {
  return s.lost > 0 || s.orderViolations > 0 || s.duplicatesOutsideWindow > 0 || s.acceptedNotJournaled > 0 || s.journalFoldFailures > 0 || s.problems.length > 0;
}

export function print(s: Summary): void {
  const rows: [string, string | number][] = [
    ['seed', s.seed],
    ['stream', `${s.seconds} s, ${s.engineKills} engine kills (SIGKILL) and restarts`],
    ['sent', s.sent],
    ['answered', `${s.answered} (accepted ${s.accepted}, queued ${s.queued}); refused ${s.refused}`],
    ['journaled, killed before answering', s.journaledUnanswered],
    ['killed before journaling (nothing promised)', s.neverJournaled],
    ['queued, then delivered', s.queuedThenDelivered],
    ['delivered exactly once', s.deliveredExactlyOnce],
    ['duplicates', `${s.duplicates} (in the crash window ${s.duplicatesInWindow}, outside ${s.duplicatesOutsideWindow})`],
    ['lost', s.lost],
    ['accepted but not journaled', s.acceptedNotJournaled],
    ['order violations', `${s.orderViolations}${Object.keys(s.orderViolationsByTarget).length ? ` ${JSON.stringify(s.orderViolationsByTarget)}` : ''}`],
    ['journal folds OK', `${s.journalFolds - s.journalFoldFailures} of ${s.journalFolds} (torn tails cut: ${s.tornTailsCut})`],
  ];
  const w = Math.max(...rows.map((r) => r[0].length));
  const out = ['', 'Teamdeck soak', ...rows.map(([k, v]) => `  ${k.padEnd(w)}  ${v}`)];
  for (const d of s.duplicateDetails) out.push(`  duplicate: send ${d.seq} to ${d.to} (${MODE.get(d.to)}), ${d.copies} copies, ${d.inWindow ? 'in the window' : 'OUTSIDE the window'}: ${d.why}`);
  for (const p of s.problems.slice(0, 50)) out.push(`  problem: ${p}`);
  if (s.problems.length > 50) out.push(`  ... and ${s.problems.length - 50} more problems`);
  process.stdout.write(out.join('\n') + '\n');
  // One machine-readable line last, for the test that runs a short soak.
  process.stdout.write(JSON.stringify({ soak: { ...s, duplicateDetails: s.duplicateDetails.length, problems: s.problems.length } }) + '\n');
}
