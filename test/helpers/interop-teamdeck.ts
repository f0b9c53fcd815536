// Interop test side A: Teamdeck's own writer (appendToInbox) sending N messages with unique
// ids to one inbox, retrying temporary refusals the way the engine's outbox does.
// Usage: interop-teamdeck.ts <inbox.json> <count>. Prints "ready", waits for "go" on stdin,
// then prints one JSON summary line.
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { AdmissionError, appendToInbox, userInboxEntry } from '../../src/engine/claude/inbox-writer.js';

const [inbox, countArg] = process.argv.slice(2);
const count = Number(countArg);
if (!inbox || !Number.isInteger(count)) {
  process.stderr.write('usage: interop-teamdeck.ts <inbox.json> <count>\n');
  process.exit(2);
}

const rl = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
for await (const line of rl) if (line.trim() === 'go') break;
rl.close();

const start = Date.now();
let retries = 0;
let duplicates = 0;
const retryCodes: Record<string, number> = {};
for (let i = 0; i < count; i++) {
  const entry = userInboxEntry(`teamdeck-${i}`, `message ${i} from the user`, new Date().toISOString());
  for (;;) {
    try {
      const r = await appendToInbox(inbox, entry);
      if (r.duplicate) duplicates++;
      break;
    } catch (e) {
      if (!(e instanceof AdmissionError) || !e.temporary) throw e;
      retries++;
      retryCodes[e.code ?? '?'] = (retryCodes[e.code ?? '?'] ?? 0) + 1;
      await sleep(Math.random() * 5);
    }
  }
}
process.stdout.write(JSON.stringify({ side: 'teamdeck', sent: count, duplicates, retries, retryCodes, start, end: Date.now() }) + '\n');
