// The engine in its own process: a TeamService (watch off unless asked) driven by JSON lines on stdin,
// answering with JSON lines on stdout. Used where the engine must be a separate process:
// to be killed with SIGKILL at any point, or to run with other privileges than the test.
//
// Usage: engine-runner.ts '<json {teamsRoot, stateDir, backoff?, maxPendingPerTarget?, watch?}>'
// or, to have a process warmed up before its folders exist, no argument and then the stdin
// line {"cmd":"open", ...the same options}.
// Prints {"ready":true,"pid":n} once started (recovery of a previous run has begun by then).
// Commands:
//   {"cmd":"send","team":"t","to":"m","text":"…","tag":"k"}  -> later {"sent":{tag,id,status,reason?,to,text}}
//   {"cmd":"burst","team":"t","gapMs":n,"plan":[{"to":"m","text":"…"}]}
//        -> sends each planned message (the i-th is called at i*gapMs, none awaits another),
//           prints one {"sent":{…}} line per answered send as it is answered, then {"burstDone":n}
//   {"cmd":"queued"}   -> {"queued":<queuedCount()>}
//   {"cmd":"stop"}     -> stops the service, prints {"stopped":true} and exits
// Delivery events are printed as {"event":{…}}. Every line is written synchronously, so a
// line the parent read was printed before any later kill.
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { TeamService } from '../../src/engine/service/team-service.js';
import type { BackoffOptions } from '../../src/engine/delivery/outbox.js';

interface RunnerOptions {
  teamsRoot: string;
  stateDir: string;
  backoff?: BackoffOptions;
  maxPendingPerTarget?: number;
  /** Run the watcher too, as the app does (the soak); default off. */
  watch?: boolean;
}

export interface SentLine {
  tag?: string;
  id?: string;
  status?: 'accepted' | 'queued' | 'undeliverable';
  reason?: string;
  error?: string;
  to: string;
  text: string;
}

type Command =
  | { cmd: 'send'; team: string; to: string; text: string; tag?: string }
  | { cmd: 'burst'; team: string; gapMs?: number; plan: Array<{ to: string; text: string }> }
  | { cmd: 'queued' }
  | { cmd: 'stop' };

interface OpenCommand extends RunnerOptions {
  cmd: 'open';
}

const out = (v: unknown) => process.stdout.write(JSON.stringify(v) + '\n');
const rl = createInterface({ input: process.stdin });
const input = rl[Symbol.asyncIterator]();

let opts: RunnerOptions;
if (process.argv[2]) {
  opts = JSON.parse(process.argv[2]) as RunnerOptions;
} else {
  const first = await input.next();
  if (first.done) process.exit(0);
  opts = JSON.parse(first.value) as OpenCommand;
}
const svc = new TeamService({
  teamsRoot: opts.teamsRoot,
  stateDir: opts.stateDir,
  watch: opts.watch ?? false,
  backoff: opts.backoff ?? { initialMs: 20, maxMs: 200 },
  ...(opts.maxPendingPerTarget ? { maxPendingPerTarget: opts.maxPendingPerTarget } : {}),
});
svc.onEvent((e) => {
  if (e.type === 'delivery') out({ event: e });
});
await svc.start();
out({ ready: true, pid: process.pid });

async function send(team: string, to: string, text: string, tag?: string): Promise<void> {
  const line: SentLine = { to, text, ...(tag !== undefined ? { tag } : {}) };
  try {
    const r = await svc.send({ team, to, text });
    line.id = r.id;
    line.status = r.status;
    if (r.status !== 'accepted') line.reason = r.reason;
  } catch (e) {
    line.error = (e as Error).message;
  }
  out({ sent: line });
}

async function burst(team: string, gapMs: number, plan: Array<{ to: string; text: string }>): Promise<void> {
  const answers: Promise<void>[] = [];
  const t0 = Date.now();
  for (let i = 0; i < plan.length; i++) {
    const wait = t0 + i * gapMs - Date.now();
    if (wait > 0) await sleep(wait);
    answers.push(send(team, plan[i]!.to, plan[i]!.text));
  }
  await Promise.all(answers);
  out({ burstDone: plan.length });
}

for (let next = await input.next(); !next.done; next = await input.next()) {
  const raw = next.value;
  if (!raw.trim()) continue;
  const c = JSON.parse(raw) as Command;
  if (c.cmd === 'send') void send(c.team, c.to, c.text, c.tag);
  else if (c.cmd === 'burst') void burst(c.team, c.gapMs ?? 0, c.plan);
  else if (c.cmd === 'queued') out({ queued: svc.queuedCount() });
  else if (c.cmd === 'stop') break;
}
await svc.stop();
out({ stopped: true });
rl.close();
process.exit(0);
