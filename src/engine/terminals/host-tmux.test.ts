// What only the tmux backend does: leads that outlive the host that started them, found again
// (running, exited with their status, or gone) by the next host; Teamdeck's own server and its
// configuration; a pane environment that is the launch's even when the server started earlier.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { procState } from './proc.js';
import { makeRig, tmuxOn, waitFor, type Rig } from './test-kit.js';
import { TerminalError } from './types.js';

let rig: Rig;
const cleanup: Array<() => Promise<void>> = [];

beforeEach(async () => {
  rig = await makeRig('tmux', cleanup);
});
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const started = async (pid: number) => waitFor(async () => (await rig.log()).find((l) => l.type === 'start' && l.pid === pid), `the stand-in (pid ${pid}) to start`);
const ended = (pid: number) => waitFor(async () => (await procState(pid)).state !== 'running', `pid ${pid} to end`);

describe('tmux terminals', () => {
  it("run in Teamdeck's own server, one session per terminal, the pane's pid being the lead's", async () => {
    const t = await rig.host.launch({ cwd: rig.project });
    expect(await tmuxOn(rig, ['list-panes', '-a', '-F', '#{session_name} #{pane_pid}'])).toBe(`${t.id} ${t.pid}\n`);
    expect((await tmuxOn(rig, ['show-options', '-gv', 'status'])).trim()).toBe('off');
    expect((await tmuxOn(rig, ['show-options', '-gv', 'prefix'])).trim()).toBe('None');
    expect((await tmuxOn(rig, ['show-options', '-gv', 'remain-on-exit'])).trim()).toBe('on');
    expect(await tmuxOn(rig, ['list-keys', '-T', 'prefix']).catch(() => '')).toBe('');
  });

  it('outlive their host: a new host finds the lead running, attaches and types into it', async () => {
    const t = await rig.host.launch({ cwd: rig.project });
    await started(t.pid!);
    await rig.host.attach(t.id, 80, 24);
    await rig.host.stop();
    expect((await procState(t.pid!)).state).toBe('running');
    const events: string[] = [];
    const again = await rig.newHost({ emit: (e) => events.push(e.type === 'output' ? e.data : e.type) });
    expect(again.get(t.id)).toMatchObject({ state: 'running', pid: t.pid, backend: 'tmux' });
    const { screen } = await again.attach(t.id, 80, 24);
    expect(screen).toContain('stand-in ready');
    await again.typeTurn(t.id, 'after the restart');
    await waitFor(async () => (await rig.log()).some((l) => l.type === 'turn' && l.raw === '\x1b[200~after the restart\x1b[201~\r'), 'the turn typed by the new host');
    await waitFor(() => events.join('').includes('got "after the restart"'), 'its echo as output');
  });

  it('take input with no viewer attached byte for byte: a NUL, and more than one tmux command holds', async () => {
    const t = await rig.host.launch({ cwd: rig.project });
    await started(t.pid!);
    const long = 'y'.repeat(20_000);
    rig.host.input(t.id, 'a\u0000b');
    rig.host.input(t.id, long);
    const got = () => rig.log().then((ls) => ls.filter((l) => l.type === 'data').map((l) => l.raw).join(''));
    await waitFor(async () => (await got()).length >= 3 + long.length, 'every byte at the lead');
    expect(await got()).toBe(`a\u0000b${long}`);
  });

  it('that ended while no host ran are found exited, with their exit status', async () => {
    const t = await rig.host.launch({ cwd: rig.project });
    await started(t.pid!);
    await rig.host.stop();
    await tmuxOn(rig, ['send-keys', '-t', `=${t.id}:`, 'exit 5', 'Enter']);
    await ended(t.pid!);
    const again = await rig.newHost();
    expect(again.get(t.id)).toMatchObject({ state: 'exited', exitCode: 5, exitedAt: expect.any(Number) });
    const rec = JSON.parse(await readFile(join(rig.stateDir, 'terminals', `${t.id}.json`), 'utf8'));
    expect(rec).toMatchObject({ exitCode: 5 });
    // The dead pane stays until the terminal is closed: tmux 3.3 scrolls its screen away to say
    // "Pane is dead", except when it missed the lead's SIGCHLD (the zombie's status is read from /proc).
    expect(await again.screenText(t.id)).toMatch(/stand-in ready|Pane is dead \(status 5/);
    await again.close(t.id);
    expect(await tmuxOn(rig, ['has-session', '-t', `=${t.id}`]).then(() => 'still there', () => 'gone')).toBe('gone');
  });

  it('whose session is gone count as exited, found by a new host or by the running one', async () => {
    const a = await rig.host.launch({ cwd: rig.project });
    await started(a.pid!);
    await rig.host.stop();
    await tmuxOn(rig, ['kill-session', '-t', `=${a.id}`]);
    await ended(a.pid!);
    const events: string[] = [];
    const again = await rig.newHost({ emit: (e) => events.push(e.type) });
    expect(again.get(a.id)).toMatchObject({ state: 'exited' });
    expect(again.get(a.id)?.exitCode).toBeUndefined();
    const b = await again.launch({ cwd: rig.project });
    await started(b.pid!);
    await tmuxOn(rig, ['kill-session', '-t', `=${b.id}`]);
    await waitFor(() => again.get(b.id)?.state === 'exited', 'the running host to see the session gone');
    expect(events).toContain('terminals');
    expect(await again.attach(b.id, 80, 24).catch((e: TerminalError) => e.failure)).toBe('exited');
  });

  it("give the lead the launch's environment even when the server was started with another", async () => {
    const first = await rig.newHost({ env: { ...rig.env, ONLY_FIRST: '1', SHARED: 'first' } });
    const a = await first.launch({ cwd: rig.project });
    const second = await rig.newHost({ env: { ...rig.env, ONLY_SECOND: '2', SHARED: 'second' } });
    const b = await second.launch({ cwd: rig.project });
    const envA = (await started(a.pid!)).env!;
    const envB = (await started(b.pid!)).env!;
    expect(envA).toMatchObject({ ONLY_FIRST: '1', SHARED: 'first' });
    expect(envB).toMatchObject({ ONLY_SECOND: '2', SHARED: 'second' });
    expect(envB.ONLY_FIRST).toBeUndefined();
    for (const env of [envA, envB]) {
      expect(env.TMUX).toBeUndefined();
      expect(env.TMUX_PANE).toBeUndefined();
      expect(env.TERM_PROGRAM).toBe(process.env.TERM_PROGRAM);
    }
  });

  it('refuse a launch command too long for tmux, in words, leaving nothing behind', async () => {
    const e = await rig.host.launch({ cwd: rig.project, prompt: 'x'.repeat(20_000) }).catch((err: TerminalError) => err);
    expect(e).toBeInstanceOf(TerminalError);
    expect((e as TerminalError).message).toMatch(/too long for tmux.*shorten the first prompt/);
    expect(rig.host.list()).toEqual([]);
  });

  it('take a folder whose name tmux would read as a format (#) or a command end (;)', async () => {
    const { mkdir } = await import('node:fs/promises');
    const odd = join(rig.project, 'a #{pane_id} b;');
    await mkdir(odd);
    const t = await rig.host.launch({ cwd: odd, prompt: 'ends with ;' });
    const start = await started(t.pid!);
    expect(start.cwd).toBe(odd);
    expect(start.argv).toEqual(['--', 'ends with ;']);
  });
});
