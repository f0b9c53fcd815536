// `npm run soak [-- --minutes N | --seconds N] [--seed N] [--keep]`: the delivery guarantee
// under a steady load with crashes, checked end to end.
//
// A simulated team of 8 (the lead and four teammates prune what they read, three teammates
// flag it read) runs in its own process. An engine process (test/helpers/engine-runner.ts, a
// real TeamService with its watcher on) gets a steady random stream of sends to random members
// and answers each; it is killed with SIGKILL at random moments (sometimes right after a
// send, sometimes while it is still recovering) and a fresh one starts on the same state dir.
// A foreign process takes random inboxes' locks with Claude's own lock settings for short
// spells. At the end the stream stops, a last clean engine runs until nothing is queued, the
// members take what is left, and every message is accounted for:
//
// - lost: answered (accepted or queued) or journaled, and never arrived; must be 0
// - order violations: a member got its messages in another order than they were sent; must be 0
// - duplicates: only inside the documented window (docs/delivery.md#duplicate-window): the engine wrote the
//   message but was killed before journaling `delivered`, and the member took it before the
//   restarted engine wrote it again (the message is no longer there to be recognised by id)
// - journal folds: Journal.open after every kill and at the end; every one must fold
//
// Exit 0 when all of that holds, 1 when it does not, 2 when the soak itself could not run. It
// always stops by itself: a watchdog ends it (exit 2) if the drain does not finish in time.
//
// The pieces are in bench/soak/: the team, what the soak does (actions), its timeline (scenario),
// reading back the inboxes, the account and the report.
import { parseArgs } from 'node:util';
import { rng } from '../test/helpers/engine-proc.js';
import { tempTeams } from '../test/helpers/team-fixture.js';
import { account } from './soak/account.js';
import { Soak } from './soak/actions.js';
import { readTaken, remainingUnread } from './soak/inboxes.js';
import { newHappened } from './soak/record.js';
import { failed, print } from './soak/report.js';
import { DRAIN_BUDGET_MS, runScenario } from './soak/scenario.js';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    minutes: { type: 'string' },
    seconds: { type: 'string' },
    seed: { type: 'string' },
    keep: { type: 'boolean' },
    quiet: { type: 'boolean' },
  },
  strict: true,
});

const seconds = values.seconds !== undefined ? Number(values.seconds) : 60 * Number(values.minutes ?? 3);
if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 24 * 3600) {
  process.stderr.write('usage: soak.ts [--minutes N | --seconds N] [--seed N] [--keep] [--quiet]\n');
  process.exit(2);
}
const SEED = values.seed !== undefined ? Number(values.seed) : Date.now() % 1_000_000;

const log = (s: string) => {
  if (!values.quiet) process.stderr.write(`soak: ${s}\n`);
};

let soak: Soak | undefined;

// Bounded no matter what: the stream, the drain and the checks must end by then.
const watchdog = setTimeout(
  () => {
    process.stderr.write(`soak: did not finish within ${seconds} s + ${DRAIN_BUDGET_MS / 1000} s; stopping (seed ${SEED})\n`);
    soak?.killAll();
    process.exit(2);
  },
  seconds * 1000 + DRAIN_BUDGET_MS + 30_000,
);
watchdog.unref();
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    soak?.killAll();
    process.exit(2);
  });
}

async function run(): Promise<number> {
  const t = await tempTeams('teamdeck-soak-');
  soak = new Soak(newHappened(SEED, seconds), rng(SEED), t, log);
  log(`seed ${SEED}, ${seconds} s of sends, folders in ${t.base}`);
  const { takenLog, inbox } = await runScenario(soak, seconds);

  // 3. Accounting.
  const final = await soak.fold('at the end');
  const taken = await readTaken(takenLog);
  const summary = account(soak.h, final, taken, await remainingUnread(inbox));
  print(summary);
  const bad = failed(summary);
  if (bad || values.keep) log(`folders kept for inspection: ${t.base}`);
  else await t.cleanup();
  return bad ? 1 : 0;
}

let code: number;
try {
  code = await run();
} catch (e) {
  process.stderr.write(`soak: failed to run (seed ${SEED}): ${(e as Error).stack ?? String(e)}\n`);
  if (soak) process.stderr.write(`soak: folders kept for inspection: ${soak.t.base}\n`);
  code = 2;
}
soak?.killAll();
clearTimeout(watchdog);
process.exit(code);
