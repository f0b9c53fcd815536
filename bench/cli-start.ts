// cli-start: how long one `teamdeck` command takes, start to exit, against a bare Node start
// measured in the same run: `teamdeck roster --json` on a 200-message team, with no engine
// running (the command opens the engine itself, reads the team and closes it), interleaved
// with `node -e 0` so both see the same machine load. The command is the package's bin, as
// `npx teamdeck` runs it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture } from './fixtures.js';
import { summarize, type Row } from './stats.js';

const REPO = join(import.meta.dirname, '..');
const TEAMDECK = join(REPO, (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { bin: { teamdeck: string } }).bin.teamdeck);
const TARGET_RATIO = 2;

/** Wall time of one process, spawn to exit, in ms; throws when it fails. */
function timed(args: string[], env: NodeJS.ProcessEnv): { ms: number; stdout: string } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status ?? r.signal}: ${r.stderr.trim()}`);
  return { ms, stdout: r.stdout };
}

export async function benchCliStart(runs = 21): Promise<Row[]> {
  const fx = await fixture('cli-start', { teams: 1, members: 4, messages: 200, seed: 12 });
  const env = { ...process.env };
  delete env.TEAMDECK_TEAMS_DIR;
  delete env.TEAMDECK_STATE_DIR;
  delete env.CLAUDE_CONFIG_DIR;
  delete env.NODE_OPTIONS;
  try {
    const team = fx.gen.teams[0]!;
    const roster = [TEAMDECK, 'roster', '--json', '--team', team.id, '--teams-dir', fx.teamsDir, '--state-dir', fx.stateDir];
    // The first run makes the state dir, journals the history and writes the command's code cache.
    const first = timed(roster, env);
    const members = (JSON.parse(first.stdout) as unknown[]).length;
    if (members !== team.teammates.length + 1) throw new Error(`roster listed ${members} members, not ${team.teammates.length + 1}`);
    const node: number[] = [];
    const cli: number[] = [];
    for (let i = 0; i < runs; i++) {
      node.push(timed(['-e', '0'], env).ms);
      cli.push(timed(roster, env).ms);
    }
    const c = summarize(cli);
    const n = summarize(node);
    const ratio = c.median / n.median;
    return [
      {
        scenario: 'cli-start',
        figure: `teamdeck roster --json, ${team.messages}-message team, no engine running`,
        unit: 'ms',
        median: c.median,
        p99: c.p99,
        compare: 'node -e 0',
        compareValue: n.median,
        ratio,
        target: `<= ${TARGET_RATIO}x node -e 0`,
        met: ratio <= TARGET_RATIO,
        note: `${runs} runs each, interleaved; first run (new state dir) ${first.ms.toFixed(0)} ms`,
      },
    ];
  } finally {
    await fx.cleanup();
  }
}
