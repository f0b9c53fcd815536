// Another process holding an inbox's lock with proper-lockfile, exactly as Claude Code takes
// it. Usage: hold-lock.ts <inbox.json> [appendText]
// Prints "locked" once it holds the lock; on the stdin line "release" it appends a message
// (when appendText is given, read-modify-write under the lock like Claude) and releases.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import lockfile from 'proper-lockfile';

const [inbox, appendText] = process.argv.slice(2);
if (!inbox) {
  process.stderr.write('usage: hold-lock.ts <inbox.json> [appendText]\n');
  process.exit(2);
}
const release = await lockfile.lock(inbox, { lockfilePath: `${inbox}.lock`, stale: 10_000, realpath: false });
// Read while holding the lock: a writer that ignored the lock would be overwritten below.
const before = JSON.parse(await readFile(inbox, 'utf8')) as unknown[];
process.stdout.write('locked\n');
const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  if (line.trim() !== 'release') continue;
  if (appendText) {
    before.push({ from: 'holder', text: appendText, timestamp: new Date().toISOString(), read: false });
    await writeFile(`${inbox}.tmp.holder01`, JSON.stringify(before, null, 2));
    await rename(`${inbox}.tmp.holder01`, inbox);
  }
  await release();
  process.stdout.write('released\n');
  break;
}
rl.close();
