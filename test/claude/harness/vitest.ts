// Vitest glue shared by the contract test files: skip (with the reason) or fail loudly, and
// print what the lead showed and what the models received when a test fails.
import { beforeEach, describe, it } from 'vitest';
import { claudeSuite } from './suite.js';

/** describe() that skips with the reason when the binary cannot be had (and fails under CI). */
export function describeClaude(name: string, body: () => void): void {
  const suite = claudeSuite();
  if (suite.skip) {
    describe(name, () => {
      it.skip(`skipped: ${suite.skip}`, () => {});
    });
    return;
  }
  describe(name, body);
}

/** On a failed test, prints `report()` (the lead's screen, its debug-log tail, the requests). */
export function reportOnFailure(report: () => string | undefined): void {
  beforeEach(({ onTestFailed }) => {
    onTestFailed(() => {
      const r = report();
      if (r) process.stderr.write(`\n${r}\n`);
    });
  });
}
