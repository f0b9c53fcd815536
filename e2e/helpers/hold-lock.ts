// Holds an inbox's lock from another process exactly as Claude Code takes it (proper-lockfile,
// lock directory `<inbox>.lock`). Prints "locked" once held; releases on the stdin line "release".
import { createInterface } from 'node:readline';
import lockfile from 'proper-lockfile';

const inbox = process.argv[2];
if (!inbox) {
  process.stderr.write('usage: hold-lock.ts <inbox.json>\n');
  process.exit(2);
}
const release = await lockfile.lock(inbox, { lockfilePath: `${inbox}.lock`, stale: 10_000, realpath: false });
process.stdout.write('locked\n');
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() !== 'release') continue;
  await release();
  process.stdout.write('released\n');
  break;
}
process.exit(0);
