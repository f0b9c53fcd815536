// The soak's foreign lock holder: another process that takes random inboxes' locks exactly as
// Claude Code does (proper-lockfile, `<inbox>.json.lock`, Claude's options) and holds each for
// a random short spell, the way a busy teammate or a slow writer would.
//
// Usage: soak-locker.ts '<json {inboxes: string[], seed, holdMs: [min,max], gapMs: [min,max]}>'
// Prints {"ready":true}; on the stdin line "stop" (or end of stdin) releases what it holds,
// prints {"stopped":{spells, busy}} and exits.
import { createInterface } from 'node:readline';
import { claudeLock } from '../src/sim/claude-inbox.js';
import { createRng } from '../src/sim/prng.js';

interface LockerOptions {
  inboxes: string[];
  seed: number;
  holdMs: [number, number];
  gapMs: [number, number];
}

const opts = JSON.parse(process.argv[2] ?? '{}') as LockerOptions;
const rng = createRng(opts.seed, 'locker');
let running = true;
let spells = 0;
let busy = 0;
let wake: (() => void) | undefined;
const pause = (ms: number) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    wake = () => {
      clearTimeout(t);
      resolve();
    };
  });

async function loop(): Promise<void> {
  while (running) {
    await pause(rng.int(opts.gapMs[0], opts.gapMs[1]));
    if (!running) break;
    const inbox = rng.pick(opts.inboxes);
    let release: (() => Promise<void>) | undefined;
    try {
      release = await claudeLock(inbox);
    } catch {
      busy++; // someone else holds it right now: like Claude, give up this round
      continue;
    }
    spells++;
    try {
      await pause(rng.int(opts.holdMs[0], opts.holdMs[1]));
    } finally {
      // As Claude's lockfile: a lock that cannot be removed goes stale and is taken over.
      await release().catch(() => {});
    }
  }
}

const done = loop();
process.stdout.write(JSON.stringify({ ready: true }) + '\n');
const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  if (line.trim() === 'stop') break;
}
running = false;
wake?.();
await done;
process.stdout.write(JSON.stringify({ stopped: { spells, busy } }) + '\n');
rl.close();
process.exit(0);
