// Another process holding an inbox's lock with proper-lockfile, exactly as Claude Code takes
// it. Usage: engine-lock-holder.ts <inbox.json>
// Prints "locked" once it holds the lock, and keeps it (refreshing it like any live holder)
// until the stdin line "release"; then releases, prints "released" and exits.
import { createInterface } from 'node:readline';
import lockfile from 'proper-lockfile';

const inbox = process.argv[2];
if (!inbox) {
  process.stderr.write('usage: engine-lock-holder.ts <inbox.json>\n');
  process.exit(2);
}
const release = await lockfile.lock(inbox, {
  lockfilePath: `${inbox}.lock`,
  stale: 10_000,
  retries: { retries: 50, minTimeout: 5, maxTimeout: 100 },
  realpath: false,
});
process.stdout.write('locked\n');
const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  if (line.trim() === 'release') break;
}
await release();
process.stdout.write('released\n');
rl.close();
process.exit(0);
