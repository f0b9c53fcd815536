// vitest globalSetup: builds the `teamdeck` bundle (out/cli/teamdeck.cjs) before any test runs.
// Tests spawn the real command, bin/teamdeck.mjs, which runs that bundle: it must be built from
// the sources under test. When the build fails, the old bundle is removed rather than tested:
// the tests that spawn `teamdeck` then fail with the build's error, and the others still run.
import { rm } from 'node:fs/promises';
import { buildCli, CLI_BUNDLE, FIRST_SCREEN_BUNDLE } from '../scripts/build-cli.mjs';

export default async function setup() {
  try {
    await buildCli({ quiet: true });
  } catch (e) {
    await rm(CLI_BUNDLE, { force: true });
    await rm(FIRST_SCREEN_BUNDLE, { force: true });
    process.stderr.write(`\nbuild-cli: the teamdeck command does not build, so tests that run it will fail:\n${e.message}\n\n`);
  }
}
