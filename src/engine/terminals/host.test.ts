// The terminal mechanics with a real tmux server and a real pty, a stand-in program in place of
// claude: launching (pid, environment, arguments), viewers, input, sizes, typed turns, exits,
// records and refusals. Each test has its own state folder, so its own tmux server.
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeRig, waitFor, type Rig } from './test-kit.js';
import { TerminalError } from './types.js';

let rig: Rig;
const cleanup: Array<() => Promise<void>> = [];

const started = async (pid: number) => waitFor(async () => (await rig.log()).find((l) => l.type === 'start' && l.pid === pid), `the stand-in (pid ${pid}) to start`);
const turns = async () => (await rig.log()).filter((l) => l.type === 'turn').map((l) => l.raw);

async function refusal(p: Promise<unknown> | (() => unknown)): Promise<TerminalError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    expect(e).toBeInstanceOf(TerminalError);
    return e as TerminalError;
  }
  throw new Error('expected a TerminalError');
}

afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe.each(['tmux', 'pty'] as const)('hosted terminal (%s)', (backend) => {
  beforeEach(async () => {
    rig = await makeRig(backend, cleanup);
  });

  it('launches the program itself (its pid is the terminal pid) with the lead environment and the mapped arguments', async () => {
    expect(rig.host.availability()).toEqual({ available: true, backend });
    const t = await rig.host.launch({ cwd: rig.project, model: 'opus', permissionMode: 'default', prompt: '-starts with a dash;' });
    expect(t).toMatchObject({ backend, state: 'running', cwd: rig.project, title: 'my project', permissionMode: 'default' });
    expect(t.id).toMatch(/^t-[0-9a-f]{12}$/);
    const start = await started(t.pid!);
    expect(start.pid).toBe(t.pid);
    expect(start.argv).toEqual(['--model', 'opus', '--permission-mode', 'default', '--', '-starts with a dash;']);
    expect(start.cwd).toBe(rig.project);
    const env = start.env!;
    expect(env.CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS).toBe('1');
    expect(env.TMUX).toBeUndefined();
    expect(env.TMUX_PANE).toBeUndefined();
    expect(env.TERM).toBe('xterm-256color');
    expect(env.PWD).toBe(rig.project);
    expect(env.TEAMDECK_TEST_VALUE).toBe('a;b "c" $HOME');
    expect(env.STANDIN_LOG).toBe(rig.logPath);
    expect(rig.host.list()).toEqual([t]);
    expect(rig.events).toContainEqual({ type: 'terminals' });
  });

  it('maps bypassPermissions to --dangerously-skip-permissions, other modes to --permission-mode, and no options to no arguments', async () => {
    const a = await rig.host.launch({ cwd: rig.project, permissionMode: 'bypassPermissions', prompt: 'two\nlines' });
    const b = await rig.host.launch({ cwd: rig.project, permissionMode: 'acceptEdits' });
    const c = await rig.host.launch({ cwd: rig.project });
    expect((await started(a.pid!)).argv).toEqual(['--dangerously-skip-permissions', '--', 'two\nlines']);
    expect((await started(b.pid!)).argv).toEqual(['--permission-mode', 'acceptEdits']);
    expect((await started(c.pid!)).argv).toEqual([]);
  });

  it('keeps an owner-only record of each terminal', async () => {
    const t = await rig.host.launch({ cwd: rig.project });
    const dir = join(rig.stateDir, 'terminals');
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const file = join(dir, `${t.id}.json`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const rec = JSON.parse(await readFile(file, 'utf8'));
    expect(rec).toMatchObject({ id: t.id, backend, cwd: rig.project, pid: t.pid, startedAt: t.startedAt });
    if (process.platform === 'linux') expect(rec.procStart).toEqual(expect.any(Number));
  });

  it('gives a viewer the screen at once, then the output as it comes, and takes its input', async () => {
    const t = await rig.host.launch({ cwd: rig.project });
    await started(t.pid!);
    await waitFor(async () => (await rig.host.screenText(t.id)).includes('stand-in ready'), 'the ready line on screen');
    const { screen } = await rig.host.attach(t.id, 90, 25);
    expect(screen).toContain('stand-in ready');
    // With its colours (bold green), as a late viewer must paint it.
    expect(screen).toMatch(/\x1b\[[0-9;]*32[0-9;]*mstand-in ready/);
    rig.host.input(t.id, 'hello\r');
    await waitFor(() => rig.output(t.id).includes('got "hello"'), 'the echo in the output events');
    expect(await turns()).toEqual(['hello\r']);
    expect(await rig.host.screenText(t.id)).toContain('got "hello"');
    rig.host.detach(t.id);
  });

  it('takes input without a viewer too (keys straight to the lead, in order)', async () => {
    const t = await rig.host.launch({ cwd: rig.project });
    await started(t.pid!);
    rig.host.input(t.id, 'one;');
    rig.host.input(t.id, '\r');
    rig.host.input(t.id, '-two é\r');
    await waitFor(async () => (await turns()).length === 2, 'both lines');
    expect(await turns()).toEqual(['one;\r', '-two é\r']);
  });

  it('passes a resize to the program (SIGWINCH, new size)', async () => {
    const t = await rig.host.launch({ cwd: rig.project });
    await started(t.pid!);
    await rig.host.attach(t.id, 90, 25);
    rig.host.resize(t.id, 100, 30);
    await waitFor(async () => (await rig.log()).find((l) => l.type === 'size' && l.cols === 100 && l.rows === 30), 'the program to see 100x30');
    rig.host.detach(t.id);
  });

  it('types a turn as one bracketed paste, then Enter, with or without a viewer', async () => {
    const t = await rig.host.launch({ cwd: rig.project });
    await started(t.pid!);
    await waitFor(async () => (await rig.host.screenText(t.id)).includes('stand-in ready'), 'the program to turn bracketed paste on');
    await rig.host.typeTurn(t.id, 'line one\nline two\r\nline three');
    await waitFor(async () => (await turns()).length === 1, 'the turn');
    expect(await turns()).toEqual(['\x1b[200~line one\nline two\nline three\x1b[201~\r']);
    // Control characters cannot end the paste early or press keys of their own.
    await rig.host.attach(t.id, 80, 24);
    await rig.host.typeTurn(t.id, 'safe \x1b[201~\x03 text');
    await waitFor(async () => (await turns()).length === 2, 'the second turn');
    expect((await turns())[1]).toBe('\x1b[200~safe [201~ text\x1b[201~\r');
    await waitFor(async () => (await rig.host.screenText(t.id)).includes('got "line one\\nline two\\nline three"'), 'the echo on screen');
    await expect(rig.host.typeTurn(t.id, ' \n ')).rejects.toThrow(/nothing to type/);
    // In pieces: one paste each, in order, then a single Enter.
    await rig.host.typeTurn(t.id, ['first piece\nstill first\r', '\nsecond', '', ' third']);
    await waitFor(async () => (await turns()).length === 3, 'the turn in pieces');
    expect((await turns())[2]).toBe('\x1b[200~first piece\nstill first\x1b[201~\x1b[200~\nsecond\x1b[201~\x1b[200~ third\x1b[201~\r');
  });

  it('marks a terminal exited with the exit code, refuses input to it, and closes it (record gone) only then', async () => {
    const t = await rig.host.launch({ cwd: rig.project });
    await started(t.pid!);
    expect((await refusal(rig.host.close(t.id))).message).toMatch(/end the lead in its terminal first \(type \/exit\)/);
    await rig.host.typeTurn(t.id, 'exit 3');
    const gone = await waitFor(() => rig.host.get(t.id)?.state === 'exited' && rig.host.get(t.id), 'the exit', 10_000);
    expect(gone).toMatchObject({ state: 'exited', exitCode: 3, exitedAt: expect.any(Number) });
    const file = join(rig.stateDir, 'terminals', `${t.id}.json`);
    await waitFor(async () => JSON.parse(await readFile(file, 'utf8')).exitCode === 3, 'the exit in the record');
    expect((await refusal(() => rig.host.input(t.id, 'x'))).failure).toBe('exited');
    expect((await refusal(() => rig.host.resize(t.id, 80, 24))).failure).toBe('exited');
    expect((await refusal(() => rig.host.typeTurn(t.id, 'x'))).failure).toBe('exited');
    await rig.host.close(t.id);
    expect(rig.host.get(t.id)).toBeUndefined();
    expect(rig.host.list()).toEqual([]);
    expect((await readdir(join(rig.stateDir, 'terminals'))).filter((n) => n.endsWith('.json'))).toEqual([]);
  });

  it('reports a lead ended by a signal as 128 + the signal', async () => {
    const t = await rig.host.launch({ cwd: rig.project });
    await started(t.pid!);
    process.kill(t.pid!, 'SIGTERM');
    const gone = await waitFor(() => rig.host.get(t.id)?.state === 'exited' && rig.host.get(t.id), 'the exit');
    expect(gone.exitCode).toBe(143);
  });

  it('refuses a missing project folder, a file as folder and a relative path, leaving no record', async () => {
    const missing = await refusal(rig.host.launch({ cwd: join(rig.project, 'nope') }));
    expect(missing.message).toBe(`The project folder ${join(rig.project, 'nope')} does not exist`);
    expect((await refusal(rig.host.launch({ cwd: rig.claude }))).message).toMatch(/is not a folder/);
    expect((await refusal(rig.host.launch({ cwd: 'relative/dir' }))).message).toMatch(/absolute path/);
    expect(rig.host.list()).toEqual([]);
    expect((await readdir(join(rig.stateDir, 'terminals'))).filter((n) => n.endsWith('.json'))).toEqual([]);
  });

  it('refuses unknown ids with not_found', async () => {
    for (const call of [() => rig.host.input('t-000000000000', 'x'), () => rig.host.resize('t-000000000000', 80, 24), () => rig.host.typeTurn('t-000000000000', 'x'), () => rig.host.close('t-000000000000')]) {
      expect((await refusal(call)).failure).toBe('not_found');
    }
  });

  it('records the team a lead made, in the title too, across a new host', async () => {
    const t = await rig.host.launch({ cwd: rig.project });
    rig.host.assignTeam(t.id, 'session-1234abcd');
    expect(rig.host.get(t.id)).toMatchObject({ team: 'session-1234abcd', title: `${basename(rig.project)} · session-1234abcd` });
    await rig.host.stop();
    const again = await rig.newHost();
    expect(again.get(t.id)?.team).toBe('session-1234abcd');
  });
});

describe('finding claude', () => {
  beforeEach(async () => {
    rig = await makeRig('pty', cleanup);
  });

  it('says so in words when claude is missing, not executable, or not on the PATH; and leaves no record', async () => {
    const host = (claudePath: string, env: NodeJS.ProcessEnv = rig.env) => rig.newHost({ claudePath: () => claudePath, env });
    const missing = await refusal((await host(join(rig.project, 'claude'))).launch({ cwd: rig.project }));
    expect(missing.message).toBe(`The claude path in Settings (${join(rig.project, 'claude')}) does not exist; fix it in Settings`);
    const notExec = join(rig.stateDir, 'terminals', 'tmux.conf');
    expect((await refusal((await host(notExec)).launch({ cwd: rig.project }))).message).toMatch(/is not executable; fix it in Settings/);
    const none = await refusal((await host('', { ...rig.env, PATH: rig.project })).launch({ cwd: rig.project }));
    expect(none.message).toBe('claude was not found on the PATH; set its path in Settings');
    // Said as soon as the launch form is asked for, not only after it was filled in (issue 28, item 10).
    expect(await (await host('', { ...rig.env, PATH: rig.project })).launchAvailability()).toEqual({
      available: false,
      backend: 'pty',
      reason: 'claude was not found on the PATH; set its path in Settings',
    });
    expect(await (await host(join(rig.project, 'claude'))).launchAvailability()).toMatchObject({ available: false, reason: expect.stringMatching(/does not exist; fix it in Settings$/) });
    expect(await (await host(rig.claude)).launchAvailability()).toEqual({ available: true, backend: 'pty' });
    expect((await readdir(join(rig.stateDir, 'terminals'))).filter((n) => n.endsWith('.json'))).toEqual([]);
  });

  it('finds claude on the PATH of the launch environment when Settings leaves it empty', async () => {
    const dir = join(rig.claude, '..');
    const h = await rig.newHost({ env: { ...rig.env, PATH: `${dir}:${process.env.PATH}` }, claudePath: () => '' });
    const t = await h.launch({ cwd: '~' });
    expect(t.cwd).toBe(process.env.HOME);
    expect((await started(t.pid!)).pid).toBe(t.pid);
  });
});
