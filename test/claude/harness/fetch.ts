// Prefetches the pinned Claude Code binary into the cache (.ci/run calls this before the tests):
//   node bin/run-ts.mjs test/claude/harness/fetch.ts
// Exits 1 when it cannot be had and CI is set; otherwise says why and exits 0 (the tests skip).
import { CLAUDE_CODE_VERSION, ensureClaudeBinary, isCI } from './binary.js';

const b = ensureClaudeBinary({ log: (l) => process.stdout.write(`${l}\n`) });
if ('path' in b) {
  process.stdout.write(`Claude Code ${CLAUDE_CODE_VERSION}: ${b.path}\n`);
} else {
  process.stdout.write(`${b.skip}\n`);
  if (isCI()) process.exit(1);
}
