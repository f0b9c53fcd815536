// A soak run against an engine broken on purpose fails by design, and the soak test prints its
// whole account: every line of it that reads like a failure must say it is the break being caught,
// or a CI log read for `problem:` takes it for a real one (as happened with a no-dedup run's doubling).
import { describe, expect, it } from 'vitest';
import type { Account } from '../bench/soak-claude/account.js';
import { printAccount } from '../bench/soak-claude/report.js';

const BASE = {"command":"npm run soak:claude -- --seconds 60 --seed 101","seed":101,"seconds":60,"teams":[{"team":"t1","shutdowns":[]}],"ends":[],"engineKills":{"total":5,"after-write":2,"random":2,"before-end":1},"afterWriteInWindow":1,"foreignLockSpells":19,"sent":186,"answered":{"accepted":157,"queued":10,"undeliverable":8},"refused":{"count":9,"byReason":{"member shut down":2,"team ended (folder gone)":6,"team ended (lead's process gone)":1},"falseReasons":0},"unanswered":{"count":2,"journaled":2},"accepted":157,"queuedThenDelivered":4,"delivered":163,"undeliverable":{"count":14,"byReason":{"member shut down":2,"team ended (folder gone)":10,"team ended (lead's process gone)":2},"falseReasons":0},"seen":{"byTeamdeck":50,"byModels":50,"teamdeckSeenModelDidNot":0},"cutOff":{"byTeamEnd":40,"byShutdown":3,"whileEnding":70},"answers":{"given":38,"recorded":38,"captured":38,"missed":0,"percentCaptured":100},"lost":0,"deliveredAfterTeamdeckKnewTheEnd":0,"endsNotNoticed":0,"stalled":{"count":0,"byChannel":{},"longestMs":0,"examples":[]},"misdelivered":0,"duplicates":{"total":0,"inWindow":0,"outsideWindow":0},"orderViolations":{"total":0,"byTarget":{}},"recreatedFolders":0,"journalFolds":{"ok":11,"failed":0,"tornTailsCut":0},"memberMessages":{"made":9,"sent":9,"inTeamdeck":9,"missed":0,"shownTwice":0,"wrongSides":0,"notRun":0,"refusedByClaude":0,"readByRecipient":9,"byRoute":{}},"problems":[],"notes":[]} as unknown as Account;
const DOUBLED = 'soak-msg 5 to tester (inbox) reached its model 2 times outside the crash window: two copies reached the model in one request';

function printed(a: Account): string[] {
  let out = '';
  printAccount(a, (s) => (out += s));
  return out.split('\n');
}

describe('printAccount', () => {
  it('labels every problem of a run against a broken engine as the expected catch, and says so at the top', () => {
    const lines = printed({ ...BASE, breakEngine: 'no-dedup', problems: [DOUBLED] });
    expect(lines.find((l) => l.includes(DOUBLED))).toContain('problem (expected, TEAMDECK_BREAK=no-dedup): ');
    expect(lines.some((l) => /^\s*problem: /.test(l))).toBe(false);
    expect(lines.find((l) => l.startsWith('Teamdeck soak'))).toContain('ENGINE BROKEN ON PURPOSE');
  });

  it('prints a real run\'s problems as problems', () => {
    const lines = printed({ ...BASE, problems: [DOUBLED] });
    expect(lines).toContain(`  problem: ${DOUBLED}`);
    expect(lines.join('\n')).not.toContain('BROKEN');
  });
});
