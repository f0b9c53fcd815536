// The real command, in real child processes, over real temp dirs.
import { describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { claudeAppend, type ClaudeMessage } from '../sim/claude-inbox.js';
import { createTeam, simTeamPaths } from '../sim/simulator.js';
import { spawnMember } from '../sim/member-process.js';
import { spawnHelper, type Proc } from '../../test/helpers/engine-proc.js';
import { BIN, cliEnv, useCliDirs, type Done } from '../../test/helpers/cli-kit.js';

const cli = useCliDirs('teamdeck-cli-');

/** stdin is a pipe, closed after `input` (or at once). */
function run(args: string[], opts: { input?: string; dirs?: boolean } = {}): Promise<Done> {
  return cli.run(args, { dirs: opts.dirs, input: opts.input ?? '' });
}

interface Running {
  child: ChildProcess;
  stdoutLines: string[];
  stderr(): string;
  waitStdout(pred: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  waitStderr(pred: (text: string) => boolean, timeoutMs?: number): Promise<void>;
  /** SIGINT, then the exit code. */
  stop(): Promise<number | null>;
  /** The exit code once the process ends by itself (no signal sent). */
  exited(): Promise<number | null>;
}

function start(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Running {
  const child = spawn(process.execPath, [BIN, ...args, '--teams-dir', cli.teams, '--state-dir', cli.state], { env: { ...cliEnv(), ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  const stdoutLines: string[] = [];
  let buf = '';
  let err = '';
  const poke = new Set<() => void>();
  child.stdout!.setEncoding('utf8').on('data', (c: string) => {
    buf += c;
    const parts = buf.split('\n');
    buf = parts.pop() ?? '';
    stdoutLines.push(...parts);
    for (const f of poke) f();
  });
  child.stderr!.setEncoding('utf8').on('data', (c: string) => {
    err += c;
    for (const f of poke) f();
  });
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const until = <T>(check: () => T | undefined, what: string, timeoutMs: number) =>
    new Promise<T>((resolve, reject) => {
      const tick = () => {
        const v = check();
        if (v !== undefined) {
          poke.delete(tick);
          clearTimeout(timer);
          resolve(v);
        }
      };
      const timer = setTimeout(() => {
        poke.delete(tick);
        reject(new Error(`timed out waiting for ${what}; stdout: ${stdoutLines.join('\n')} stderr: ${err}`));
      }, timeoutMs);
      poke.add(tick);
      void closed.then(() => {
        if (poke.has(tick)) {
          poke.delete(tick);
          clearTimeout(timer);
          reject(new Error(`process exited while waiting for ${what}; stderr: ${err}`));
        }
      });
      tick();
    });
  const r: Running = {
    child,
    stdoutLines,
    stderr: () => err,
    waitStdout: (pred, timeoutMs = 20_000) => until(() => stdoutLines.find(pred), 'stdout line', timeoutMs),
    waitStderr: (pred, timeoutMs = 20_000) => until(() => (pred(err) ? true : undefined), 'stderr', timeoutMs).then(() => undefined),
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      return closed;
    },
    exited: () => closed,
  };
  cli.stopAfter(r);
  return r;
}

/** Every file under the teams root with its bytes, to prove a refusal wrote nothing. */
async function snapshot(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else out.set(p, await readFile(p, 'utf8'));
    }
  };
  await walk(root);
  return out;
}

async function inbox(team: string, member: string): Promise<ClaudeMessage[]> {
  return JSON.parse(await readFile(simTeamPaths(cli.teams, team).inbox(member), 'utf8')) as ClaudeMessage[];
}

async function makeTeam(name = 'alpha', members: string[] = ['researcher', 'tester']) {
  return createTeam({ teamsDir: cli.teams, team: name, members });
}

describe('usage', () => {
  it('prints usage and exits 2 for no command or an unknown one; --help exits 0', async () => {
    const none = await run([], { dirs: false });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('usage: teamdeck <command>');
    const bad = await run(['frobnicate'], { dirs: false });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown command "frobnicate"');
    expect(bad.stderr).toContain('usage: teamdeck <command>');
    const help = await run(['send', '--help'], { dirs: false });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: teamdeck send --team T --to M');
    expect(help.stdout).toContain('--state-dir');
    const badFlag = await run(['roster', '--tem', 'x']);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain("Unknown option '--tem'");
  });
});

describe('teams, roster, thread', () => {
  it('lists teams with member counts and problems', async () => {
    await makeTeam('alpha');
    await makeTeam('Beta Team', ['x']);
    await mkdir(join(cli.teams, 'broken', 'inboxes'), { recursive: true });
    await writeFile(join(cli.teams, 'broken', 'inboxes', 'bob.json'), '[{"from": "bob", "te');
    const r = await run(['teams', '--json']);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as { id: string; name: string; memberCount: number; state: string; era: string; problems: { file: string }[] }[];
    expect(list.map((t) => [t.id, t.name, t.memberCount, t.state, t.era])).toEqual([
      ['alpha', 'alpha', 3, 'running', 'legacy'],
      ['beta-team', 'Beta Team', 2, 'running', 'legacy'],
      ['broken', 'broken', 1, 'running', 'legacy'],
    ]);
    expect(list[2]!.problems.map((p) => p.file)).toEqual(['broken/inboxes/bob.json']);

    const human = await run(['teams']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/TEAM\s+NAME\s+ERA\s+STATE\s+MEMBERS\s+PROBLEMS/);
    expect(human.stdout).toMatch(/beta-team\s+Beta Team\s+legacy\s+running\s+2\s+-/);
    expect(human.stdout).toContain('broken/inboxes/bob.json: unreadable');
  });

  it('shows the roster by folder or team name, with state, model, type, colour and the lead', async () => {
    await makeTeam('Beta Team', ['researcher', 'tester']);
    const p = simTeamPaths(cli.teams, 'Beta Team');
    const now = new Date().toISOString();
    await claudeAppend(p.inbox('team-lead'), { from: 'tester', text: JSON.stringify({ type: 'shutdown_approved', requestId: 'r1', from: 'tester', timestamp: now }), timestamp: now, read: false });
    for (const team of ['beta-team', 'Beta Team']) {
      const r = await run(['roster', '--team', team, '--json']);
      expect(r.code).toBe(0);
      const roster = JSON.parse(r.stdout) as Record<string, unknown>[];
      expect(roster.map((m) => [m.name, m.isLead, m.state, m.model, m.agentType, m.color])).toEqual([
        ['team-lead', true, 'active', undefined, 'team-lead', undefined],
        ['researcher', false, 'active', 'sonnet', 'general-purpose', 'blue'],
        ['tester', false, 'terminated', 'opus', 'general-purpose', 'green'],
      ]);
      expect(typeof roster[1]!.lastEventAt).toBe('number');
    }
    const human = await run(['roster', '--team', 'beta-team']);
    expect(human.stdout).toMatch(/MEMBER\s+ROLE\s+STATE\s+LAST EVENT\s+MODEL\s+TYPE\s+COLOR/);
    expect(human.stdout).toMatch(/tester\s+member\s+terminated\s+\d+s ago\s+opus\s+general-purpose\s+green/);

    const unknown = await run(['roster', '--team', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    expect(unknown.stderr).toContain('no team "nope"');
  });

  it('shows a thread oldest first with delivery status on sent messages', async () => {
    await makeTeam();
    const sent = await run(['send', '--team', 'alpha', '--to', 'researcher', '--json', 'Look into the flaky upload test']);
    expect(sent.code).toBe(0);
    const { id } = JSON.parse(sent.stdout) as { id: string };
    const p = simTeamPaths(cli.teams, 'alpha');
    const later = new Date(Date.now() + 1000).toISOString();
    await claudeAppend(p.inbox('user'), { from: 'researcher', text: 'Found it: a race in the retry timer.', summary: 'Found it', timestamp: later, color: 'blue', read: false });
    await claudeAppend(p.inbox('user'), { from: 'tester', text: 'not in this thread', timestamp: later, read: false });

    const r = await run(['thread', '--team', 'alpha', '--with', 'researcher', '--json']);
    expect(r.code).toBe(0);
    const thread = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(thread.map((m) => [m.from, m.to, m.text])).toEqual([
      ['user', 'researcher', 'Look into the flaky upload test'],
      ['researcher', 'user', 'Found it: a race in the retry timer.'],
    ]);
    expect(thread[0]).toMatchObject({ id, status: 'accepted' });
    expect(thread[1]).not.toHaveProperty('status');
    for (const m of thread) expect(Object.keys(m)).toEqual(expect.arrayContaining(['id', 'from', 'to', 'text', 'timestamp']));

    const human = await run(['thread', '--team', 'alpha', '--with', 'researcher']);
    // The user is "you" at either end, as in the window (issue 28, item 8).
    expect(human.stdout).toMatch(/you -> researcher {2}\[accepted\] {2}Look into the flaky upload test/);
    expect(human.stdout).toMatch(/researcher -> you {2}Found it/);
  });
});

describe('send', () => {
  it('prints exactly {"id","status"} and puts the message in the inbox', async () => {
    await makeTeam();
    const r = await run(['send', '--team', 'alpha', '--to', 'researcher', '--summary', 'Flaky test', '--json', 'Please look at the flaky test']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\{"id":"[^"]+","status":"accepted"\}\n$/);
    const { id } = JSON.parse(r.stdout) as { id: string };
    const box = await inbox('alpha', 'researcher');
    expect(box).toHaveLength(1);
    expect(box[0]).toMatchObject({ from: 'user', text: 'Please look at the flaky test', summary: 'Flaky test', read: false, msg_id: id });

    const human = await run(['send', '--team', 'alpha', '--to', 'tester', 'hello', 'there']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^accepted {2}\S+ {2}\(in tester's inbox\)\n$/);
    expect((await inbox('alpha', 'tester'))[0]!.text).toBe('hello there');

    const stdin = await run(['send', '--team', 'alpha', '--to', 'tester', '--json', '-'], { input: 'line one\nline two\n' });
    expect(stdin.code).toBe(0);
    expect((await inbox('alpha', 'tester'))[1]!.text).toBe('line one\nline two\n');
  });

  it('refuses bad sends with exit 2, one line on stderr, and writes nothing', async () => {
    await makeTeam();
    const p = simTeamPaths(cli.teams, 'alpha');
    const now = new Date().toISOString();
    await claudeAppend(p.inbox('team-lead'), { from: 'tester', text: JSON.stringify({ type: 'shutdown_approved', requestId: 'r', from: 'tester', timestamp: now }), timestamp: now, read: false });
    const before = await snapshot(cli.teams);
    const cases: [string[], string][] = [
      [['--team', 'nope', '--to', 'researcher', 'hi'], 'no team'],
      [['--team', 'alpha', '--to', 'nobody', 'hi'], 'no member'],
      [['--team', 'alpha', '--to', 'researcher', '   '], 'empty'],
      [['--team', 'alpha', '--to', 'researcher', '{"type":"shutdown_request","requestId":"x"}'], 'protocol frame'],
      [['--team', 'alpha', '--to', 'researcher', 'x'.repeat(65_537)], 'limit'],
      [['--team', 'alpha', '--to', 'tester', 'hi'], 'shut down'],
      [['--team', 'alpha', '--to', 'user', 'hi'], "user's own inbox"],
    ];
    for (const [args, reason] of cases) {
      const r = await run(['send', '--json', ...args]);
      expect(r.code, reason).toBe(2);
      expect(r.stdout, reason).toBe('');
      const lines = r.stderr.trim().split('\n');
      expect(lines, reason).toHaveLength(1);
      expect(lines[0], reason).toContain('refused');
      expect(lines[0], reason).toContain(reason);
    }
    const missing = await run(['send', '--team', 'alpha', '--to', 'researcher']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('TEXT is missing');
    expect(await snapshot(cli.teams)).toEqual(before);
  });

  it('exits 1 with a clear line when an owner without an engine socket holds the state dir; read-only commands still answer', async () => {
    await makeTeam();
    // An owner that serves no socket: an older Teamdeck, or a one-shot command.
    const owner = ownerWithoutSocket();
    await owner.ask('go', (l) => typeof l === 'object' && l !== null && 'owned' in l);
    const r = await run(['send', '--team', 'alpha', '--to', 'researcher', 'hi']);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/in use by another Teamdeck process.*no engine answered on its socket/);
    await expect(stat(simTeamPaths(cli.teams, 'alpha').inbox('researcher'))).rejects.toThrow();

    const roster = await run(['roster', '--team', 'alpha', '--json']);
    expect(roster.code).toBe(0);
    expect((JSON.parse(roster.stdout) as unknown[]).length).toBe(3);
    expect(roster.stderr).toContain('note:');
  });
});

describe('long-running commands', () => {
  it('tail prints a message another process appends, then exits 0 on SIGINT', async () => {
    await makeTeam();
    const t = start(['tail', '--team', 'alpha', '--json']);
    await t.waitStderr((s) => s.includes('tailing team alpha'));
    const p = simTeamPaths(cli.teams, 'alpha');
    const ts = new Date().toISOString();
    await claudeAppend(p.inbox('user'), { from: 'researcher', text: 'Report ready', timestamp: ts, color: 'blue', read: false });
    const line = await t.waitStdout((l) => l.includes('Report ready'));
    expect(JSON.parse(line)).toMatchObject({ team: 'alpha', from: 'researcher', to: 'user', text: 'Report ready', timestamp: ts });

    // A simulated member in its own process: the user's message and its answer both show.
    const m = spawnMember({ teamsDir: cli.teams, team: 'alpha', name: 'tester', pollMs: 30, workMs: [1, 5], seed: 2 });
    cli.stopAfter(m);
    await m.waitFor((e) => e.kind === 'started');
    await claudeAppend(p.inbox('tester'), { from: 'user', text: 'Run the suite', timestamp: new Date().toISOString(), read: false });
    await t.waitStdout((l) => l.includes('"from":"tester"') && l.includes('Done: Run the suite'));
    expect(await t.stop()).toBe(0);
  });

  it('watch delivers a queued message once the inbox frees up', async () => {
    await makeTeam();
    const p = simTeamPaths(cli.teams, 'alpha');
    // Someone else holds the inbox lock (proper-lockfile's lock directory, fresh): the send queues.
    await writeFile(p.inbox('researcher'), '[]');
    await mkdir(`${p.inbox('researcher')}.lock`);
    const r = await run(['send', '--team', 'alpha', '--to', 'researcher', '--json', 'queued hello']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: expect.any(String), status: 'queued' });
    const { id } = JSON.parse(r.stdout) as { id: string };
    expect(await inbox('alpha', 'researcher')).toEqual([]);

    const w = start(['watch', '--team', 'alpha', '--json']);
    await w.waitStderr((t) => t.includes('1 message queued'));
    await rm(`${p.inbox('researcher')}.lock`, { recursive: true });
    const line = await w.waitStdout((l) => l.includes('"delivery"') && l.includes('"accepted"'), 30_000);
    expect(JSON.parse(line)).toMatchObject({ type: 'delivery', team: 'alpha', id, to: 'researcher', status: 'accepted' });
    expect((await inbox('alpha', 'researcher')).map((m) => m.text)).toEqual(['queued hello']);
    expect(await w.stop()).toBe(0);
  });

  it('sim runs a team that answers a send; thread shows it replied', async () => {
    const s = start(['sim', '--json', '--era', 'legacy', '--team', 'gamma', '--members', 'a,b', '--poll-ms', '30', '--work-ms', '1,5', '--seed', '4']);
    const header = JSON.parse(await s.waitStdout((l) => l.includes('"simulating"'))) as Record<string, unknown>;
    expect(header).toMatchObject({ team: 'gamma', created: true, members: ['a', 'b'], mode: 'prune', seed: 4 });
    const sent = await run(['send', '--team', 'gamma', '--to', 'b', '--json', 'Write the changelog']);
    expect(sent.code).toBe(0);
    await s.waitStdout((l) => l.includes('"replied"') && l.includes('Write the changelog'));
    // The member has pruned its inbox: the message is gone from the file, and the thread says replied.
    expect(await inbox('gamma', 'b')).toEqual([]);
    const thread = JSON.parse((await run(['thread', '--team', 'gamma', '--with', 'b', '--json'])).stdout) as Record<string, unknown>[];
    expect(thread.map((m) => [m.from, m.status])).toEqual([
      ['user', 'replied'],
      ['b', undefined],
    ]);
    expect(await s.stop()).toBe(0);
  });

  it('sim refuses to run without an explicit teams root', async () => {
    const r = await run(['sim', '--team', 'x'], { dirs: false });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pass --teams-dir');
  });

  it('demo (today\'s Claude) seeds a session team whose member states come from config and transcripts', async () => {
    const d = start(['demo', '--json', '--poll-ms', '50']);
    const header = JSON.parse(await d.waitStdout((l) => l.includes('"session-'))) as Record<string, unknown>;
    const team = header.team as string;
    expect(team).toMatch(/^session-[0-9a-f]{8}$/);
    const teamsJson = JSON.parse((await run(['teams', '--json'])).stdout) as Record<string, unknown>[];
    expect(teamsJson.find((t) => t.id === team)).toMatchObject({ era: 'current', state: 'running', sendAs: 'teamdeck' });
    const roster = JSON.parse((await run(['roster', '--team', team, '--json'])).stdout) as Record<string, unknown>[];
    // The tester is gone from config (Claude removes a teammate that shut down); the others' times are in their transcripts.
    expect(Object.fromEntries(roster.map((m) => [m.name, m.state]))).toMatchObject({ researcher: 'active', implementer: 'idle', tester: 'terminated' });
    const refused = await run(['send', '--team', team, '--to', 'tester', 'are you there?']);
    expect(refused.code).toBe(2);
    // The shutdown it approved is in the lead's transcript (the team's record), or config.json no longer lists it.
    expect(refused.stderr).toMatch(/tester (has shut down|is no longer on the team)/);
    expect(await d.stop()).toBe(0);
  });

  it('demo --era legacy seeds a team in which all three member states show', async () => {
    const d = start(['demo', '--json', '--era', 'legacy', '--poll-ms', '50']);
    const header = JSON.parse(await d.waitStdout((l) => l.includes('"demo"'))) as Record<string, unknown>;
    expect(header).toMatchObject({ teamsDir: cli.teams, team: 'demo', created: true, members: ['researcher', 'implementer'], mode: 'flag' });
    const roster = JSON.parse((await run(['roster', '--team', 'demo', '--json'])).stdout) as Record<string, unknown>[];
    expect(Object.fromEntries(roster.map((m) => [m.name, m.state]))).toMatchObject({ researcher: 'active', implementer: 'idle', tester: 'terminated' });
    expect(new Set(roster.map((m) => m.color))).toEqual(new Set([undefined, 'blue', 'green', 'yellow']));
    expect(await d.stop()).toBe(0);
  });
});

/** A process holding the state lock the way the engine does, serving no socket. */
function ownerWithoutSocket(): Proc {
  const p = spawnHelper('engine-state-owner.ts', [cli.state]);
  cli.stopAfter({ stop: async () => (p.send('exit'), await p.exited) });
  return p;
}

const modeOf = async (p: string) => (await stat(p)).mode & 0o777;

describe('beside a running engine (the app, serve or watch owns the state dir)', () => {
  async function engine(extraEnv: NodeJS.ProcessEnv = {}): Promise<Running> {
    const w = start(['watch', '--json'], extraEnv);
    await w.waitStderr((t) => t.includes('Ctrl-C to stop'), 45_000);
    return w;
  }

  it('send, thread, roster and teams go through its socket; the socket is 0600 in an owner-only folder', async () => {
    await makeTeam();
    const w = await engine();
    expect(await modeOf(cli.state)).toBe(0o700);
    expect(await modeOf(join(cli.state, 'engine.sock'))).toBe(0o600);
    expect(await modeOf(join(cli.state, 'engine-socket.json'))).toBe(0o600);

    const r = await run(['send', '--team', 'alpha', '--to', 'researcher', '--json', 'Sent beside the app']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\{"id":"[^"]+","status":"accepted"\}\n$/);
    const { id } = JSON.parse(r.stdout) as { id: string };
    // The owner delivered it (its watch prints the delivery), and it is in the inbox once.
    await w.waitStdout((l) => l.includes(id) && l.includes('"accepted"'));
    expect((await inbox('alpha', 'researcher')).filter((m) => m.text === 'Sent beside the app')).toHaveLength(1);

    const thread = await run(['thread', '--team', 'alpha', '--with', 'researcher', '--json']);
    expect(thread.code).toBe(0);
    expect(thread.stderr).toBe('');
    expect(JSON.parse(thread.stdout)).toEqual([expect.objectContaining({ id, text: 'Sent beside the app', status: 'accepted' })]);

    const human = await run(['send', '--team', 'alpha', '--to', 'researcher', 'and', 'another']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^accepted {2}\S+ {2}\(in researcher's inbox\)\n$/);

    const roster = await run(['roster', '--team', 'alpha', '--json']);
    expect(roster.code).toBe(0);
    expect(roster.stderr).toBe('');
    expect((JSON.parse(roster.stdout) as { name: string }[]).map((m) => m.name)).toEqual(['team-lead', 'researcher', 'tester']);
    const list = await run(['teams', '--json']);
    expect(list.code).toBe(0);
    expect((JSON.parse(list.stdout) as { id: string }[]).map((t) => t.id)).toEqual(['alpha']);
    const unknown = await run(['roster', '--team', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toEqual([expect.stringContaining('no team "nope"')]);
    expect(await w.stop()).toBe(0);
    // The owner took its socket and info file with it.
    expect((await readdir(cli.state)).filter((n) => n.startsWith('engine'))).toEqual([]);
  });

  it('refusals come back as exit 2 with the reason on one line, and nothing is written', async () => {
    await makeTeam();
    const p = simTeamPaths(cli.teams, 'alpha');
    const now = new Date().toISOString();
    await claudeAppend(p.inbox('team-lead'), { from: 'tester', text: JSON.stringify({ type: 'shutdown_approved', requestId: 'r', from: 'tester', timestamp: now }), timestamp: now, read: false });
    const w = await engine();
    const before = await snapshot(cli.teams);
    const cases: [string[], RegExp][] = [
      [['--team', 'nope', '--to', 'researcher', 'hi'], /no team/],
      [['--team', 'alpha', '--to', 'nobody', 'hi'], /no member/],
      [['--team', 'alpha', '--to', 'researcher', '   '], /empty/],
      [['--team', 'alpha', '--to', 'researcher', '{"type":"shutdown_request","requestId":"x"}'], /protocol frame/],
      [['--team', 'alpha', '--to', 'researcher', 'x'.repeat(65_537)], /at most 65536 bytes|limit/],
      [['--team', 'alpha', '--to', 'tester', 'hi'], /shut down/],
      [['--team', 'alpha', '--to', 'user', 'hi'], /user's own/],
    ];
    await Promise.all(
      cases.map(async ([args, reason]) => {
        const r = await run(['send', '--json', ...args]);
        expect(r.code, String(reason)).toBe(2);
        expect(r.stdout, String(reason)).toBe('');
        const lines = r.stderr.trim().split('\n');
        expect(lines, String(reason)).toHaveLength(1);
        expect(lines[0], String(reason)).toMatch(/^teamdeck send: refused: /);
        expect(lines[0], String(reason)).toMatch(reason);
      }),
    );
    expect(await snapshot(cli.teams)).toEqual(before);
    expect(await w.stop()).toBe(0);
  });

  it('sends from several processes at once are each accepted and in the inbox once', async () => {
    await makeTeam();
    const w = await engine();
    const texts = Array.from({ length: 6 }, (_, i) => `parallel ${i}`);
    const results = await Promise.all(texts.map((t) => run(['send', '--team', 'alpha', '--to', 'researcher', '--json', t])));
    for (const r of results) {
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ status: 'accepted' });
    }
    const box = (await inbox('alpha', 'researcher')).map((m) => m.text);
    for (const t of texts) expect(box.filter((x) => x === t)).toHaveLength(1);
    expect(await w.stop()).toBe(0);
  });

  it('tail through the engine prints what it sees, and ends with exit 1 when the engine stops', async () => {
    await makeTeam();
    const w = await engine();
    const t = start(['tail', '--team', 'alpha', '--json']);
    await t.waitStderr((s) => s.includes('tailing team alpha'));
    expect(t.stderr()).not.toContain('note:');
    const ts = new Date().toISOString();
    await claudeAppend(simTeamPaths(cli.teams, 'alpha').inbox('user'), { from: 'researcher', text: 'Seen by the owner', timestamp: ts, read: false });
    const line = await t.waitStdout((l) => l.includes('Seen by the owner'));
    expect(JSON.parse(line)).toMatchObject({ team: 'alpha', from: 'researcher', text: 'Seen by the owner' });
    expect(await w.stop()).toBe(0);
    await t.waitStderr((s) => /the engine \(pid \d+\) that owns the state dir stopped/.test(s));
    // It ends by itself; a SIGINT sent between that line and its exit would race it.
    expect(await t.exited()).toBe(1);
  });

  it('after the owner is killed with SIGKILL, send owns the state dir itself; the next engine replaces the stale socket', async () => {
    await makeTeam();
    const w = await engine();
    w.child.kill('SIGKILL');
    await w.stop();
    expect((await stat(join(cli.state, 'engine.sock'))).isSocket()).toBe(true);

    const alone = await run(['send', '--team', 'alpha', '--to', 'researcher', '--json', 'after the crash']);
    expect(alone.stderr).toBe('');
    expect(alone.code).toBe(0);
    expect(JSON.parse(alone.stdout)).toMatchObject({ status: 'accepted' });

    const w2 = await engine();
    const via = await run(['send', '--team', 'alpha', '--to', 'researcher', '--json', 'through the new owner']);
    expect(via.code).toBe(0);
    const { id } = JSON.parse(via.stdout) as { id: string };
    await w2.waitStdout((l) => l.includes(id));
    expect((await inbox('alpha', 'researcher')).map((m) => m.text)).toEqual(['after the crash', 'through the new owner']);
    expect(await w2.stop()).toBe(0);
  });

  it('a state path too long for a socket address puts the socket in an owner-only runtime folder', async () => {
    await makeTeam();
    cli.state = join(cli.dir, 'a-state-folder-whose-path-is-too-long-for-a-unix-socket-'.padEnd(110, 'x'));
    const runtime = join(cli.dir, 'run');
    await mkdir(runtime, { mode: 0o700 });
    const w = await engine({ XDG_RUNTIME_DIR: runtime });
    const info = JSON.parse(await readFile(join(cli.state, 'engine-socket.json'), 'utf8')) as { path: string };
    const [folder] = await readdir(runtime);
    expect(folder).toMatch(/^teamdeck-engine-/);
    expect(info.path).toBe(join(runtime, folder!, 'engine.sock'));
    expect(await modeOf(join(runtime, folder!))).toBe(0o700);
    expect(await modeOf(info.path)).toBe(0o600);
    await expect(stat(join(cli.state, 'engine.sock'))).rejects.toThrow();

    const r = await run(['send', '--team', 'alpha', '--to', 'researcher', '--json', 'long path']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    await w.waitStdout((l) => l.includes((JSON.parse(r.stdout) as { id: string }).id));
    expect(await w.stop()).toBe(0);
    expect(await readdir(runtime)).toEqual([]);
  });

  it('`teamdeck serve` serves the socket too, and takes it away when it stops', async () => {
    await makeTeam();
    const host = start(['serve', '--json', '--port', '0']);
    await host.waitStdout((l) => l.includes('"ready"'), 45_000);
    expect(await modeOf(join(cli.state, 'engine.sock'))).toBe(0o600);
    const r = await run(['send', '--team', 'alpha', '--to', 'researcher', '--json', 'beside the browser host']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'accepted' });
    expect((await inbox('alpha', 'researcher')).map((m) => m.text)).toEqual(['beside the browser host']);
    expect(await host.stop()).toBe(0);
    await expect(stat(join(cli.state, 'engine.sock'))).rejects.toThrow();
  });

  it('a --teams-dir the engine does not watch is not sent through it', async () => {
    await makeTeam();
    const w = await engine();
    const other = join(cli.dir, 'other-teams');
    await mkdir(other);
    const r = await run(['send', '--team', 'alpha', '--to', 'researcher', '--teams-dir', other, '--state-dir', cli.state, 'hi'], { dirs: false });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/in use by another Teamdeck process.*watches .*teams, not .*other-teams/)]);
    await expect(stat(simTeamPaths(cli.teams, 'alpha').inbox('researcher'))).rejects.toThrow();
    expect(await w.stop()).toBe(0);
  });
});
