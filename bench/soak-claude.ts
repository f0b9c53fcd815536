// `npm run soak:claude [-- --minutes N | --seconds N] [--seed N] [--keep] [--out FILE]`: the
// delivery guarantee against the real Claude Code, end to end, offline (a scripted Messages API
// on 127.0.0.1; Teamdeck's engine socket and Claude's files; nothing else).
//
// A real interactive lead (the pinned Claude Code) that `teamdeck launch` starts in Teamdeck's
// tmux server, with three in-process teammates; scripted models answer every message with a
// text carrying its number, sometimes after a spell of work (a long Bash call), then go idle;
// now and then a model first sends another member a message of its own (SendMessage: teammate
// to teammate, teammate to lead, lead to teammate), each of which must be in the team's feed once.
// Meanwhile a steady random stream of sends through `teamdeck send` (as a teammate message in
// the inbox, or typed into the hosted terminal), the engine SIGKILLed and restarted at random
// (sometimes mid-send, sometimes right after an inbox write), foreign processes holding inbox
// locks for short spells, sometimes a teammate shut down, and the lead ended at random (/exit,
// SIGTERM, SIGKILL) and a new team launched, with sends landing right after each end. Then a
// drain and the account (bench/soak-claude/account.ts says what each line means), printed and
// written to a JSON file (default bench/results/soak-claude.json).
//
// Exit 0 when nothing is lost, duplicated outside the crash window, reordered, made again after
// Claude removed it, missed among the answers or the members' own messages (or shown twice), or undeliverable (or refused) for a reason that
// did not hold; 1 when something is; 2 when the soak itself could not run. A watchdog bounds it.
//
// `--break no-dedup|recreate-folders|no-ended-check` runs it against a deliberately broken
// engine (TEAMDECK_BREAK, a test-only switch in src/engine); `--ends exit,sigterm,sigkill`
// picks how leads end, `--one-team` keeps one team for the whole stream, `--life-seconds N`
// makes every team live N seconds, `--end-last` ends the last team too (short runs that must
// see a crash right after a write, or an end, or several), `--fail-fast` stops the stream
// at the first end that shows a failure (a team folder made again, a held message written), and
// `--member-chance P` is the chance that a model given new messages first messages another
// member of its own accord (0.25 by default).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { createRng, randomSeed } from '../src/sim/prng.js';
import { Soak } from './soak-claude/actions.js';
import { account } from './soak-claude/account.js';
import { failures, printAccount } from './soak-claude/report.js';
import { openDeck, type Deck } from './soak-claude/deck.js';
import { soakModels } from './soak-claude/models.js';
import type { EndKind, Happened } from './soak-claude/record.js';
import { collect, drain, runScenario } from './soak-claude/scenario.js';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    minutes: { type: 'string' },
    seconds: { type: 'string' },
    seed: { type: 'string' },
    keep: { type: 'boolean' },
    quiet: { type: 'boolean' },
    out: { type: 'string' },
    break: { type: 'string' },
    ends: { type: 'string' },
    'end-last': { type: 'boolean' },
    'one-team': { type: 'boolean' },
    'life-seconds': { type: 'string' },
    'fail-fast': { type: 'boolean' },
    'member-chance': { type: 'string' },
  },
  strict: true,
});

const BREAKS = ['no-dedup', 'recreate-folders', 'no-ended-check'];
const ENDS: EndKind[] = ['exit', 'sigterm', 'sigkill'];
const seconds = values.seconds !== undefined ? Number(values.seconds) : 60 * Number(values.minutes ?? 3);
const ends = (values.ends ?? ENDS.join(',')).split(',') as EndKind[];
const lifeSeconds = values['life-seconds'] !== undefined ? Number(values['life-seconds']) : undefined;
const memberChance = values['member-chance'] !== undefined ? Number(values['member-chance']) : 0.25;
if (
  !(memberChance >= 0 && memberChance <= 1) ||
  !Number.isFinite(seconds) ||
  seconds < 5 ||
  seconds > 6 * 3600 ||
  ends.some((e) => !ENDS.includes(e)) ||
  (values.break && !BREAKS.includes(values.break)) ||
  (lifeSeconds !== undefined && !(lifeSeconds >= 1))
) {
  process.stderr.write(
    `usage: soak-claude.ts [--minutes N | --seconds N (>= 5)] [--seed N] [--keep] [--quiet] [--out FILE] [--break ${BREAKS.join('|')}] [--ends ${ENDS.join(',')}] [--one-team] [--life-seconds N] [--end-last] [--fail-fast] [--member-chance P]\n`,
  );
  process.exit(2);
}
const SEED = values.seed !== undefined ? Number(values.seed) : randomSeed() % 1_000_000;
const OUT = values.out ?? join(import.meta.dirname, 'results', 'soak-claude.json');
const TEAMMATES = ['researcher', 'writer', 'tester'];
/** Launches, ends and the drain after the stream must fit in this. */
const OVERHEAD_MS = 150_000;
const command = [
  'npm run soak:claude --',
  values.seconds !== undefined ? `--seconds ${seconds}` : `--minutes ${seconds / 60}`,
  `--seed ${SEED}`,
  ...(values.break ? [`--break ${values.break}`] : []),
  ...(values.ends ? [`--ends ${values.ends}`] : []),
  ...(values['one-team'] ? ['--one-team'] : []),
  ...(lifeSeconds ? [`--life-seconds ${lifeSeconds}`] : []),
  ...(values['end-last'] ? ['--end-last'] : []),
  ...(values['fail-fast'] ? ['--fail-fast'] : []),
  ...(values['member-chance'] !== undefined ? [`--member-chance ${memberChance}`] : []),
].join(' ');

const log = (s: string) => {
  if (!values.quiet) process.stderr.write(`soak-claude: [${((Date.now() - startedAt) / 1000).toFixed(1)} s] ${s}\n`);
};
const startedAt = Date.now();
let deck: Deck | undefined;
/** The `teamdeck` bundle every engine and command of the run starts from: it must not change meanwhile. */
const bundleHash = () => {
  try {
    return createHash('sha256').update(readFileSync(join(import.meta.dirname, '..', 'out', 'cli', 'teamdeck.cjs'))).digest('hex').slice(0, 12);
  } catch {
    return 'missing';
  }
};
const bundleAtStart = bundleHash();

async function shutdown(keep: boolean): Promise<void> {
  await deck?.close({ keep }).catch((e: Error) => process.stderr.write(`soak-claude: cleanup: ${e.message}\n`));
}

const watchdog = setTimeout(
  () => {
    process.stderr.write(`soak-claude: did not finish within ${seconds} s + ${OVERHEAD_MS / 1000} s; stopping (${command})\n`);
    void shutdown(true).finally(() => process.exit(2));
  },
  seconds * 1000 + OVERHEAD_MS,
);
watchdog.unref();
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void shutdown(true).finally(() => process.exit(2)));

async function run(): Promise<number> {
  const rng = createRng(SEED, 'soak');
  // Members the models leave alone for a while (a crash timed on Teamdeck's write to them).
  const quiet = new Set<string>();
  const models = soakModels({
    rng: createRng(SEED, 'models'),
    workChance: 0.5,
    workMs: [1_000, 6_000],
    leadWorkChance: 0.15,
    leadWorkMs: [500, 2_500],
    latencyMs: [20, 300],
    teammates: TEAMMATES,
    memberMessageChance: memberChance,
    quiet,
  });
  deck = await openDeck({ scripts: models.scripts, ...(values.break ? { breakEngine: values.break } : {}) });
  log(`seed ${SEED}, ${seconds} s of sends${values.break ? `, engine broken: ${values.break}` : ''}; run folder ${deck.run.run}`);
  const h: Happened = { seed: SEED, seconds, startedAt: Date.now(), streamEndedAt: 0, sends: [], lives: [], kills: [], spells: [], folds: { ok: 0, failed: 0, tornTails: 0, failures: [] }, notes: [] };
  const soak = new Soak(deck, rng, h, log, quiet);
  const progress = setInterval(() => log(`${h.sends.length} sent, ${h.kills.length} engine kills, ${h.lives.length} teams`), 15_000);
  try {
    await runScenario(soak, { seconds, teammates: TEAMMATES, ends, endLast: values['end-last'] ?? false, oneTeam: values['one-team'] ?? false, failFast: values['fail-fast'] ?? false, ...(lifeSeconds ? { lifeMs: lifeSeconds * 1000 } : {}) });
    log(`stream stopped: ${h.sends.length} sent, ${h.kills.length} engine kills; draining`);
    await drain(soak);
  } finally {
    clearInterval(progress);
  }
  const views = await collect(soak);
  const bundleAtEnd = bundleHash();
  if (bundleAtEnd !== bundleAtStart) h.notes.push(`the teamdeck bundle changed during the run (${bundleAtStart} -> ${bundleAtEnd}): engines started later ran other code`);
  const a = account({ h, views, log: deck.api.log, observer: deck.observer, projectsDir: deck.run.projectsDir, command, ...(values.break ? { breakEngine: values.break } : {}) });
  printAccount(a, (s) => process.stdout.write(s));
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, JSON.stringify(a, null, 2) + '\n');
  const failed = failures(a);
  const verdict = values.break ? `FAILED, as a run against an engine broken on purpose (TEAMDECK_BREAK=${values.break}) should` : 'FAILED';
  process.stdout.write(failed.length ? `${verdict}: ${failed.join('; ')}\n` : 'OK\n');
  log(`account written to ${OUT}`);
  const keep = values.keep === true || (failed.length > 0 && !values.break);
  if (keep) {
    // What every model saw and said, for a look at the kept run.
    const lines = deck.api.log.map((r) => JSON.stringify({ seq: r.seq, at: r.at, agent: r.agent, id: r.headers['x-claude-code-agent-id'], status: r.status, newText: r.newText, reply: r.reply }));
    writeFileSync(join(deck.run.run, 'api-log.jsonl'), lines.join('\n') + '\n');
    writeFileSync(join(deck.run.run, 'happened.json'), JSON.stringify(h, null, 1));
    writeFileSync(join(deck.run.run, 'engines.json'), JSON.stringify(deck.engines(), null, 1));
    log(`run folder kept: ${deck.run.run} (api-log.jsonl: every model request; happened.json: what the soak did; engines.json: each engine's events and stderr)`);
  }
  await shutdown(keep);
  deck = undefined;
  return failed.length ? 1 : 0;
}

let code: number;
try {
  code = await run();
} catch (e) {
  process.stderr.write(`soak-claude: failed to run (${command}): ${(e as Error).stack ?? String(e)}\n`);
  await shutdown(true);
  code = 2;
}
clearTimeout(watchdog);
process.exit(code);
