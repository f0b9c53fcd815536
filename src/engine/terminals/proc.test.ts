// Reading a process's state from /proc: running, gone, a reused pid, and a zombie's exit status
// (what tmux 3.3a sometimes leaves behind when it misses a pane's SIGCHLD).
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { procStart, procState, shellStatus } from './proc.js';
import { waitFor } from './test-kit.js';

const linux = process.platform === 'linux';

describe('process state', () => {
  it('turns wait statuses into shell statuses', () => {
    expect(shellStatus(3 << 8)).toBe(3);
    expect(shellStatus(15)).toBe(143);
    expect(shellStatus(0)).toBe(0);
  });

  it('tells running from gone, and a pid whose start time differs (reused) from the one recorded', async () => {
    const child = spawn('sleep', ['5']);
    const pid = child.pid!;
    const start = await procStart(pid);
    if (linux) expect(start).toEqual(expect.any(Number));
    expect((await procState(pid, start)).state).toBe('running');
    if (linux) expect((await procState(pid, start! + 1)).state).toBe('gone');
    child.kill('SIGKILL');
    await waitFor(async () => (await procState(pid)).state === 'gone', 'the child to be reaped');
  });

  it.runIf(linux)("reads a zombie's exit status from /proc", async () => {
    // The subshell ends with 7 once its parent has become `sleep` (exec), which never reaps it.
    const sh = spawn('sh', ['-c', '(sleep 0.3; exit 7) & echo $!; exec sleep 5']);
    const pid = Number(await new Promise<string>((r) => sh.stdout.once('data', (b: Buffer) => r(b.toString()))));
    const z = await waitFor(async () => {
      const s = await procState(pid);
      return s.state === 'zombie' && s;
    }, 'the subshell to be a zombie');
    expect(z).toEqual({ state: 'zombie', exitCode: 7 });
    sh.kill('SIGKILL');
  });
});
