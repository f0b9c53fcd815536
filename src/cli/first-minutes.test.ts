// Issue 28 (the first five minutes), the command line: a second terminal finds the engine that
// serves the teams folder whatever state dir it was given (item 2), the same bad input gets the
// same exit code and words through a running engine and without one (items 5, 6), and the
// command says what it is and when the folder it was pointed at is not there (item 12).
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTeam, simTeamPaths } from '../sim/simulator.js';
import { BIN, cliEnv, runCli, useCliDirs, type Done } from '../../test/helpers/cli-kit.js';

const cli = useCliDirs('teamdeck-first-');

/** Every run of this file notes its engines in a folder of its own, never the user's. */
const env = () => ({ ...cliEnv(), TEAMDECK_ENGINES_DIR: join(cli.dir, 'engines') });

function run(args: string[], state = cli.state, input?: string): Promise<Done> {
  return runCli([...args, '--teams-dir', cli.teams, '--state-dir', state], { env: env(), ...(input !== undefined ? { input } : {}) });
}

/** `teamdeck serve` over the test's teams folder and `state`: the engine a window would run. */
async function serve(state: string): Promise<{ stop(): Promise<void>; out: () => string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--teams-dir', cli.teams, '--state-dir', state], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const closed = new Promise<void>((r) => child.once('close', () => r()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 45_000);
    const on = (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ctrl+C stops')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', on);
    child.stderr.on('data', on);
  });
  const h = {
    out: () => out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await closed;
    },
  };
  cli.stopAfter(h);
  return h;
}

describe('a second terminal goes through the engine that serves the teams folder (item 2)', () => {
  it('whatever state dir either was given; the send shows in that engine; no phantom member; a second watcher is refused', async () => {
    await createTeam({ teamsDir: cli.teams, team: 'alpha', members: ['researcher'] });
    const appState = join(cli.dir, 'app-state');
    const host = await serve(appState);
    // The hint a new user needs to reach this engine from another terminal.
    expect(host.out()).toContain(`npx teamdeck roster --team alpha --teams-dir ${cli.teams}`);

    const mine = join(cli.dir, 'my-state');
    const sent = await run(['send', '--team', 'alpha', '--to', 'researcher', '--json', 'from the second terminal'], mine);
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    const { id } = JSON.parse(sent.stdout) as { id: string };
    // The engine's own history has it: asked through its own state dir, and through any other.
    for (const state of [appState, mine]) {
      const thread = await run(['thread', '--team', 'alpha', '--with', 'researcher', '--json'], state);
      expect(thread.stderr, state).toBe('');
      expect(JSON.parse(thread.stdout), state).toEqual([expect.objectContaining({ id, text: 'from the second terminal' })]);
    }
    // No second engine ran: the other state dir was never even made.
    await expect(stat(mine)).rejects.toThrow();
    const roster = await run(['roster', '--team', 'alpha', '--json'], mine);
    expect((JSON.parse(roster.stdout) as { name: string }[]).map((m) => m.name)).toEqual(['team-lead', 'researcher']);

    // A first try on another (empty) folder says where the running window's teams are.
    const elsewhere = join(cli.dir, 'elsewhere');
    await mkdir(elsewhere);
    const empty = await runCli(['teams', '--teams-dir', elsewhere, '--state-dir', mine], { env: env() });
    expect(empty.stdout).toMatch(new RegExp(`^Teamdeck \\(pid \\d+\\) is serving ${cli.teams}: npx teamdeck teams --teams-dir ${cli.teams}$`, 'm'));

    const watch = await run(['watch'], mine);
    expect(watch.code).toBe(1);
    expect(watch.stderr).toMatch(/already watched by another Teamdeck \(pid \d+, state dir .*app-state\)/);
    await host.stop();
  });
});

/** The bad inputs of the table, each a `send` (text on stdin when it is too large for an argument). */
const BAD: { input: string; args: string[]; stdin?: string; code: number; words: string }[] = [
  { input: 'empty text', args: ['--team', 'alpha', '--to', 'researcher', '   '], code: 2, words: 'teamdeck send: refused: message is empty' },
  {
    input: 'text of 2 MB',
    args: ['--team', 'alpha', '--to', 'researcher', '-'],
    stdin: 'x'.repeat(2_000_000),
    code: 2,
    words: 'teamdeck send: refused: message is 2000000 bytes; the limit is 65536',
  },
  {
    input: 'summary of 1,001 characters',
    args: ['--team', 'alpha', '--to', 'researcher', '--summary', 's'.repeat(1_001), 'hi'],
    code: 2,
    words: 'teamdeck send: refused: summary must be text of at most 1000 characters',
  },
  { input: 'unknown member', args: ['--team', 'alpha', '--to', 'nobody', 'hi'], code: 2, words: 'teamdeck send: refused: team alpha has no member "nobody"' },
  { input: 'ended team', args: ['--team', 'gone', '--to', 'researcher', 'hi'], code: 2, words: 'teamdeck send: refused: team gone has ended (the lead exited and Claude removed the team folder); nothing can be sent to it' },
];

describe('the same bad input gets the same answer on every path (items 5, 6)', () => {
  it('exit code and words, with and without a running engine', async () => {
    await createTeam({ teamsDir: cli.teams, team: 'alpha', members: ['researcher'] });
    await createTeam({ teamsDir: cli.teams, team: 'gone', members: ['researcher'] });
    // Teamdeck saw "gone" run (it journaled a send), then Claude removed its folder: it ended.
    expect((await run(['send', '--team', 'gone', '--to', 'researcher', 'hello'])).code).toBe(0);
    await rm(join(cli.teams, 'gone'), { recursive: true });
    const before = await readFile(simTeamPaths(cli.teams, 'alpha').inbox('researcher'), 'utf8').catch(() => 'none');

    const answers = async () => {
      const out: string[] = [];
      for (const b of BAD) {
        const r = await run(['send', ...b.args], cli.state, b.stdin ?? '');
        out.push(`${r.code} ${r.stdout}${r.stderr.trim()}`);
      }
      return out;
    };
    const alone = await answers();
    const host = await serve(cli.state);
    const through = await answers();
    await host.stop();

    const rows = BAD.map((b, i) => `| ${b.input} | ${alone[i]!.slice(0, 1)} | ${through[i]!.slice(0, 1)} | ${alone[i]!.slice(2)} |`);
    const table = ['| input | exit, no engine | exit, through the engine | words (both paths) |', '|---|---|---|---|', ...rows].join('\n');
    await writeFile(join(process.env.TEAMDECK_TABLE_DIR ?? cli.dir, 'bad-input-table.md'), table + '\n');
    console.log(table);
    expect(through).toEqual(alone);
    expect(alone).toEqual(BAD.map((b) => `${b.code} ${b.words}`));
    // Nothing was written by any of them.
    expect(await readFile(simTeamPaths(cli.teams, 'alpha').inbox('researcher'), 'utf8').catch(() => 'none')).toBe(before);
  });
});

describe('the browser host keeps its address (item 11)', () => {
  it('a restart (even with a fresh state dir, as npm start gives the demo) listens on the same port; the bare address says how to get in', async () => {
    await createTeam({ teamsDir: cli.teams, team: 'alpha', members: ['researcher'] });
    const portOf = (out: string) => Number(/http:\/\/127\.0\.0\.1:(\d+)\/\?token=/.exec(out)?.[1]);
    const first = await serve(join(cli.dir, 'run-1'));
    const port = portOf(first.out());
    expect(port).toBeGreaterThan(0);
    const bare = await fetch(`http://127.0.0.1:${port}/`);
    expect(bare.status).toBe(401);
    expect(await bare.text()).toContain('Open the link that `teamdeck serve` (or `npm start`) printed in its terminal');
    await first.stop();
    const second = await serve(join(cli.dir, 'run-2'));
    expect(portOf(second.out())).toBe(port);
    await second.stop();
  });
});

describe('the command says what it is, and where it was pointed (item 12)', () => {
  it('--version prints the version; a teams folder that does not exist is said so, with no note about the state dir', async () => {
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const v = await runCli([flag], { env: env() });
      expect(v.code).toBe(0);
      expect(v.stdout).toBe(`teamdeck ${pkg.version}\n`);
    }
    const missing = join(cli.dir, 'does', 'not', 'exist');
    const r = await runCli(['teams', '--teams-dir', missing, '--state-dir', cli.state], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([`teamdeck teams: the teams folder ${missing} (--teams-dir) does not exist`]);
    await mkdir(missing, { recursive: true });
    expect((await runCli(['teams', '--teams-dir', missing, '--state-dir', cli.state], { env: env() })).code).toBe(0);
  });
});
