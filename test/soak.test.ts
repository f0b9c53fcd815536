// A short run of the soak (bench/soak.ts; `npm run soak` runs it for minutes): a simulated team
// of 8, an engine process killed with SIGKILL and restarted at random, a foreign process taking
// inbox locks, then a drain. Nothing may be lost, reordered, doubled outside the documented
// crash window, or left in a journal that does not fold.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/tmp.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 20);
const SEED = Number(process.env.SOAK_SEED ?? Date.now() % 1_000_000);

interface SoakLine {
  soak: {
    sent: number;
    answered: number;
    engineKills: number;
    deliveredExactlyOnce: number;
    duplicatesInWindow: number;
    duplicatesOutsideWindow: number;
    lost: number;
    acceptedNotJournaled: number;
    orderViolations: number;
    journalFolds: number;
    journalFoldFailures: number;
    problems: number;
  };
}

function runSoak(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'run-ts.mjs'), 'bench/soak.ts', '--seconds', String(SECONDS), '--seed', String(SEED), '--quiet'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('soak (short)', () => {
  it(`loses, reorders and doubles nothing over ${SECONDS} s of sends with random SIGKILLs (seed ${SEED})`, { timeout: (SECONDS + 150) * 1000 }, async () => {
    const r = await runSoak();
    const last = r.stdout.trim().split('\n').at(-1) ?? '';
    // The whole report goes to the test output, so a failure shows the duplicates and problems.
    console.log(r.stdout + r.stderr);
    expect(r.code, r.stderr).toBe(0);
    const { soak } = JSON.parse(last) as SoakLine;
    expect(soak.sent).toBeGreaterThan(50);
    expect(soak.engineKills).toBeGreaterThan(1);
    expect(soak.deliveredExactlyOnce).toBeGreaterThan(0);
    expect({
      lost: soak.lost,
      orderViolations: soak.orderViolations,
      duplicatesOutsideWindow: soak.duplicatesOutsideWindow,
      acceptedNotJournaled: soak.acceptedNotJournaled,
      journalFoldFailures: soak.journalFoldFailures,
      problems: soak.problems,
    }).toEqual({ lost: 0, orderViolations: 0, duplicatesOutsideWindow: 0, acceptedNotJournaled: 0, journalFoldFailures: 0, problems: 0 });
    expect(soak.journalFolds).toBe(soak.engineKills + 1);
  });
});
