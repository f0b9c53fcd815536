import { defineConfig } from 'vitest/config';

// Contract tests against the real Claude Code binary (test/claude): one lead at a time on
// two cores, with timeouts that leave room for Claude's 0.5-1 s inbox polls.
export default defineConfig({
  test: {
    include: ['test/claude/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    // Tests run the real `teamdeck` command, which runs the bundle: built from these sources first.
    globalSetup: ['test/build-cli.global.mjs'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Lets the tests tell this run from the unit run (whose include also matches test/**).
    env: { TEAMDECK_CLAUDE_SUITE: '1' },
  },
});
