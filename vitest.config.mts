import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'],
    // The real Claude Code runs in its own step (npm run test:claude, vitest.claude.config.mts).
    exclude: ['**/node_modules/**', 'test/claude/**'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Tests run the real `teamdeck` command, which runs the bundle: built from these sources first.
    globalSetup: ['test/build-cli.global.mjs'],
  },
});
