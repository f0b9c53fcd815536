#!/usr/bin/env node
// The whole test run: static checks, unit and integration tests (vitest), the contract tests
// against the real Claude Code (vitest, test/claude), a build of the app, then end-to-end
// tests (Playwright against the browser host in Chromium). It ends with one summary line for
// all runners: "total: N passed, N failed, N skipped". `--unit` stops after the unit tests.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const VITEST_JSON = '.vitest-results.json';
const PLAYWRIGHT_JSON = '.playwright-results.json';
const skipE2e = process.argv.includes('--unit');

function run(label, cmd, args, env = {}) {
  process.stdout.write(`\n=== ${label}: ${cmd} ${args.join(' ')}\n`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

const counts = { passed: 0, failed: 0, skipped: 0 };
let broken = [];

for (const f of [VITEST_JSON, PLAYWRIGHT_JSON]) rmSync(f, { force: true });

if (run('typecheck', 'npm', ['run', '--silent', 'typecheck']) !== 0) broken.push('typecheck');
// eslint, and the source tree's layers and cycles (dependency-cruiser, .dependency-cruiser.cjs).
if (run('lint', 'npm', ['run', '--silent', 'lint']) !== 0) broken.push('lint');

/** One vitest run with the JSON reporter; its counts are added to the total. */
function vitestStep(label, name, extraArgs) {
  rmSync(VITEST_JSON, { force: true });
  const code = run(label, 'npx', ['vitest', 'run', ...extraArgs, '--reporter=default', '--reporter=json', `--outputFile=${VITEST_JSON}`]);
  if (existsSync(VITEST_JSON)) {
    const r = JSON.parse(readFileSync(VITEST_JSON, 'utf8'));
    counts.passed += r.numPassedTests ?? 0;
    counts.failed += r.numFailedTests ?? 0;
    counts.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    if (code !== 0 && (r.numFailedTests ?? 0) === 0) broken.push(`${name} (a suite failed to load)`);
  } else if (code !== 0) broken.push(name);
}

vitestStep('unit and integration tests', 'vitest', []);
// The contract tests against the real Claude Code binary (test/claude), one lead at a time.
if (!skipE2e) vitestStep('Claude Code contract tests', 'vitest claude', ['-c', 'vitest.claude.config.mts']);

if (!skipE2e && existsSync('playwright.config.ts')) {
  if (run('build', 'npm', ['run', '--silent', 'build']) !== 0) broken.push('build');
  else {
    const code = run('end-to-end tests', 'npx', ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: PLAYWRIGHT_JSON });
    if (existsSync(PLAYWRIGHT_JSON)) {
      const s = JSON.parse(readFileSync(PLAYWRIGHT_JSON, 'utf8')).stats ?? {};
      counts.passed += (s.expected ?? 0) + (s.flaky ?? 0);
      counts.failed += s.unexpected ?? 0;
      counts.skipped += s.skipped ?? 0;
      if (code !== 0 && (s.unexpected ?? 0) === 0) broken.push('playwright (run failed)');
    } else if (code !== 0) broken.push('playwright');
  }
}

if (broken.length) process.stdout.write(`\nfailed steps: ${broken.join(', ')}\n`);
const failed = counts.failed + broken.length;
process.stdout.write(`\ntotal: ${counts.passed} passed, ${failed} failed, ${counts.skipped} skipped\n`);
process.exit(failed > 0 ? 1 : 0);
