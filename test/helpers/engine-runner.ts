// The engine in its own process: a TeamService (watch off unless asked) driven by JSON lines on stdin,
// answering with JSON lines on stdout. Used where the engine must be a separate process:
// to be killed with SIGKILL at any point, or to run with other privileges or limits than the test.
//
// Usage: engine-runner.ts '<json {teamsRoot, stateDir, backoff?, maxPendingPerTarget?, watch?, openInBackground?}>'
// or, to have a process warmed up before its folders exist, no argument and then the stdin
// line {"cmd":"open", ...the same options}.
// Prints {"ready":true,"pid":n} once started (recovery of a previous run has begun by then).
// Commands:
//   {"cmd":"send","team":"t","to":"m","text":"…","tag":"k","channel"?:"socket"}  -> later {"sent":{tag,id,status,reason?,to,text}}
//   {"cmd":"burst","team":"t","gapMs":n,"plan":[{"to":"m","text":"…"}]}
//        -> sends each planned message (the i-th is called at i*gapMs, none awaits another),
//           prints one {"sent":{…}} line per answered send as it is answered, then {"burstDone":n}
//   {"cmd":"queued"}   -> {"queued":<queuedCount()>}
//   {"cmd":"problems"} -> {"problems":[…problems()]}
//   {"cmd":"stop"}     -> stops the service, prints {"stopped":true} and exits
// Delivery events are printed as {"event":{…}}, problem events as {"problem":{…}}. Every line
// is written synchronously, so a line the parent read was printed before any later kill.
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { TeamService } from '../../src/engine/service/team-service.js';
import type { BackoffOptions } from '../../src/engine/delivery/outbox.js';
import type { ChannelKind } from '../../src/shared/types.js';

interface RunnerOptions {
  teamsRoot: string;
  stateDir: string;
  backoff?: BackoffOptions;
  maxPendingPerTarget?: number;
  /** Run the watcher too, as the app does (the soak); default off. */
  watch?: boolean;
  /** Read the teams the window has not asked for in the background, as the app does; default off. */
  openInBackground?: boolean;
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
  | { cmd: 'send'; team: string; to: string; text: string; tag?: string; channel?: ChannelKind }
  | { cmd: 'burst'; team: string; gapMs?: number; plan: Array<{ to: string; text: string }> }
  | { cmd: 'queued' }
  | { cmd: 'problems' }
  | { cmd: 'stop' };

interface OpenCommand extends RunnerOptions {
  cmd: 'open';
}

const out = (v: unknown) => process.stdout.write(JSON.stringify(v) + '\n');
// Under a file-size limit (`ulimit -f`), a write past it fails with EFBIG, as Node makes it by
// ignoring SIGXFSZ: the exit hook proper-lockfile installs (signal-exit) would otherwise raise
// the signal again and end the process. A listener of our own keeps Node's behaviour.
process.on('SIGXFSZ', () => {});
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
  ...(opts.openInBackground ? { openInBackground: true } : {}),
});
svc.onEvent((e) => {
  if (e.type === 'delivery') out({ event: e });
  if (e.type === 'problem') out({ problem: e.problem });
});
await svc.start();
out({ ready: true, pid: process.pid });

async function send(team: string, to: string, text: string, tag?: string, channel?: ChannelKind): Promise<void> {
  const line: SentLine = { to, text, ...(tag !== undefined ? { tag } : {}) };
  try {
    const r = await svc.send({ team, to, text, ...(channel ? { channel } : {}) });
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
  if (c.cmd === 'send') void send(c.team, c.to, c.text, c.tag, c.channel);
  else if (c.cmd === 'burst') void burst(c.team, c.gapMs ?? 0, c.plan);
  else if (c.cmd === 'queued') out({ queued: svc.queuedCount() });
  else if (c.cmd === 'problems') out({ problems: svc.problems() });
  else if (c.cmd === 'stop') break;
}
await svc.stop();
out({ stopped: true });
rl.close();
process.exit(0);
