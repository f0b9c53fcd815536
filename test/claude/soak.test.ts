// The soak against the real Claude Code, short (bench/soak-claude.ts; `npm run soak:claude` runs
// it for minutes): a lead Teamdeck launches with three in-process teammates on scripted models,
// sends through the command (inbox and the hosted terminal), engine SIGKILLs, foreign inbox
// locks, a lead ended and a new team launched, and the members messaging each other on their own.
// Nothing may be lost, doubled outside the crash window, reordered, made again after Claude
// removed it, missed among the answers, or undeliverable for a reason that did not hold; every
// message a member sent another is in the team's feed exactly once. Then a deliberately broken engine for each of
// three rules (TEAMDECK_BREAK, a test-only switch in src/engine), each caught by a short soak
// aimed at it: the account must fail, on the counter that names the break.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Account } from '../../bench/soak-claude/account.js';
import { describeClaude } from './harness/vitest.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const SEED = Number(process.env.SOAK_SEED ?? Date.now() % 1_000_000);
const out = mkdtempSync(join(tmpdir(), 'teamdeck-soak-claude-test-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface SoakRun {
  code: number | null;
  stdout: string;
  stderr: string;
  account?: Account;
}

function runSoak(name: string, args: string[], seed = SEED): Promise<SoakRun> {
  const file = join(out, `${name}.json`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO, 'bin', 'run-ts.mjs'), 'bench/soak-claude.ts', ...args, '--seed', String(seed), '--quiet', '--out', file], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      let account: Account | undefined;
      try {
        account = JSON.parse(readFileSync(file, 'utf8')) as Account;
      } catch {
        account = undefined;
      }
      // The whole account goes to the test output: a failure shows what was lost or doubled, and the seed.
      console.log(`${stdout}${stderr}`);
      resolve({ code, stdout, stderr, account });
    });
  });
}

describeClaude('the soak against Claude Code (short runs)', () => {
  it(`30 s of sends, engine kills, foreign locks, members' own messages and a lead's end: nothing lost, doubled, reordered, recreated or missed (seed ${SEED})`, { timeout: 180_000 }, async () => {
    const r = await runSoak('thirty', ['--seconds', '30']);
    expect(r.code, r.stderr).toBe(0);
    const a = r.account!;
    expect(a.sent).toBeGreaterThan(20);
    expect(a.engineKills.total).toBeGreaterThan(0);
    expect(a.teams.length).toBeGreaterThanOrEqual(1);
    expect(a.seen.byModels).toBeGreaterThan(0);
    // The members talked among themselves, and Teamdeck shows each of their messages once.
    expect(a.memberMessages.sent).toBeGreaterThan(0);
    expect(a.memberMessages.inTeamdeck).toBe(a.memberMessages.sent);
    expect({
      lost: a.lost,
      duplicatesOutsideWindow: a.duplicates.outsideWindow,
      orderViolations: a.orderViolations.total,
      recreatedFolders: a.recreatedFolders,
      missedAnswers: a.answers.missed,
      falseUndeliverable: a.undeliverable.falseReasons,
      falseRefusals: a.refused.falseReasons,
      journalFoldFailures: a.journalFolds.failed,
      endsNotNoticed: a.endsNotNoticed,
      memberMessagesMissed: a.memberMessages.missed,
      memberMessagesShownTwice: a.memberMessages.shownTwice,
      memberMessagesWrongSides: a.memberMessages.wrongSides,
    }).toEqual({
      lost: 0,
      duplicatesOutsideWindow: 0,
      orderViolations: 0,
      recreatedFolders: 0,
      missedAnswers: 0,
      falseUndeliverable: 0,
      falseRefusals: 0,
      journalFoldFailures: 0,
      endsNotNoticed: 0,
      memberMessagesMissed: 0,
      memberMessagesShownTwice: 0,
      memberMessagesWrongSides: 0,
    });
    expect(a.answers.percentCaptured).toBe(100);
  });

  describe('a deliberately broken engine is caught', () => {
    it('without de-duplication by id: the engine killed right after a write writes it again, and a model gets it twice in one turn', { timeout: 420_000 }, async () => {
      // The kill must land between the inbox's rename and the journal's `delivered` line, which
      // the engine writes right after it: most kills do, some land after it, and a 35 s run has
      // time for one. A run whose kill missed the window says nothing of the break: another
      // seed then, up to three runs in all.
      let r: SoakRun | undefined;
      for (let i = 0; i < 3; i++) {
        r = await runSoak(`no-dedup-${i}`, ['--seconds', '35', '--one-team', '--break', 'no-dedup'], SEED + i);
        if ((r.account?.afterWriteInWindow ?? 0) > 0) break;
      }
      expect(r!.account!.afterWriteInWindow, 'no kill landed before a delivery was journaled in three runs').toBeGreaterThan(0);
      expect(r!.code, r!.stderr).toBe(1);
      expect(r!.account!.duplicates.outsideWindow).toBeGreaterThan(0);
    });

    it('making team folders again: a message sent as the lead exits makes its removed folder again', { timeout: 180_000 }, async () => {
      // The window is the few milliseconds between Claude removing the folder and Teamdeck
      // noticing: short lives ended by SIGTERM, until one end shows it.
      const r = await runSoak('recreate-folders', ['--seconds', '60', '--life-seconds', '2', '--end-last', '--ends', 'sigterm', '--fail-fast', '--break', 'recreate-folders']);
      expect(r.code, r.stderr).toBe(1);
      expect(r.account!.recreatedFolders).toBeGreaterThan(0);
    });

    it('without the ended-team check: a message queued when the lead is killed is written after Teamdeck knew the team had ended', { timeout: 180_000 }, async () => {
      const r = await runSoak('no-ended-check', ['--seconds', '6', '--one-team', '--end-last', '--ends', 'sigkill', '--break', 'no-ended-check']);
      expect(r.code, r.stderr).toBe(1);
      expect(r.account!.deliveredAfterTeamdeckKnewTheEnd).toBeGreaterThan(0);
      expect(r.account!.lost).toBeGreaterThan(0);
    });
  });
});
