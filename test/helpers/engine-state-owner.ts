// A process that takes a state dir's owner lock the way the engine does at start.
// Usage: engine-state-owner.ts [stateDir]
// Prints {"waiting":pid}, then obeys stdin lines, so several processes can be started ahead
// and race on cue:
//   "go [dir]"  -> tries to take the lock of dir (default: the argument); prints
//                  {"owned":pid} or {"busy":"<message>","name":"<error name>"}
//   "release"   -> releases a lock it owns; prints {"released":true}
//   "exit"      -> releases and exits
import { createInterface } from 'node:readline';
import { acquireStateLock } from '../../src/engine/service/state-lock.js';

const out = (v: unknown) => process.stdout.write(JSON.stringify(v) + '\n');
let release: (() => Promise<void>) | undefined;
out({ waiting: process.pid });
const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  const [cmd, dir] = line.trim().split(/\s+/, 2);
  if (cmd === 'go') {
    try {
      release = await acquireStateLock(dir ?? process.argv[2]!);
      out({ owned: process.pid });
    } catch (e) {
      out({ busy: (e as Error).message, name: (e as Error).name });
    }
  } else if (cmd === 'release') {
    await release?.();
    release = undefined;
    out({ released: true });
  } else if (cmd === 'exit') {
    break;
  }
}
await release?.();
rl.close();
process.exit(0);
