// Interop test side B: a teammate following Claude Code's own algorithms (src/sim/claude-inbox.ts)
// on the same inbox: it alternates consuming in prune mode and appending its own messages,
// logging every consumed message as one JSON line, written before the next operation.
// Usage: interop-claude.ts <inbox.json> <operations> <consumed.log>. Prints "ready", waits
// for "go" on stdin, then prints one JSON summary line.
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { claudeAppend, claudeConsume } from '../../src/sim/claude-inbox.js';

const [inbox, opsArg, log] = process.argv.slice(2);
const ops = Number(opsArg);
if (!inbox || !log || !Number.isInteger(ops)) {
  process.stderr.write('usage: interop-claude.ts <inbox.json> <operations> <consumed.log>\n');
  process.exit(2);
}

/** Claude gives up when the lock stays busy past its retries; nothing was read or written then. */
async function retryLocked<T>(op: () => Promise<T>, onRetry: () => void): Promise<T> {
  for (;;) {
    try {
      return await op();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ELOCKED') throw e;
      onRetry();
      await sleep(Math.random() * 5);
    }
  }
}

const rl = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
for await (const line of rl) if (line.trim() === 'go') break;
rl.close();

const start = Date.now();
let appended = 0;
let consumed = 0;
let consumes = 0;
let retries = 0;
for (let i = 0; i < ops; i++) {
  if (i % 2 === 1) {
    const n = appended;
    await retryLocked(
      () => claudeAppend(inbox, { from: 'researcher', text: `claude message ${n}`, timestamp: new Date().toISOString(), color: 'blue', read: false, msg_id: `claude-${n}` }),
      () => retries++,
    );
    appended++;
  } else {
    const taken = await retryLocked(() => claudeConsume(inbox, 'prune'), () => retries++);
    consumes++;
    consumed += taken.length;
    if (taken.length > 0) appendFileSync(log, taken.map((m) => JSON.stringify(m) + '\n').join(''));
  }
}
process.stdout.write(JSON.stringify({ side: 'claude', appended, consumed, consumes, retries, start, end: Date.now() }) + '\n');
