// Whether this process runs the Claude Code contract tests, and with which binary.
import { claudeForTests } from './binary.js';

/**
 * The binary's path, or why the contract tests skip here: outside `npm run test:claude`
 * (the unit run's include matches test/** too, and a second, parallel run of these slow
 * tests would only race the first), or where the binary cannot be had. Under CI a missing
 * binary throws instead (see claudeForTests).
 */
export function claudeSuite(): { path: string; skip?: undefined } | { skip: string } {
  if (process.env.TEAMDECK_CLAUDE_SUITE !== '1') return { skip: 'the Claude Code contract tests run in `npm run test:claude`' };
  return claudeForTests();
}
