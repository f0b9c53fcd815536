// Whether a lead's process still runs, on real processes: a killed lead its parent has not
// reaped yet (a zombie) answers the signal probe, yet it is gone.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { judgeLiveness, leadProcessAlive, procStartOf } from './lifecycle.js';
import type { TeamConfig } from './config.js';

const linux = process.platform === 'linux';
let parent: ChildProcess | undefined;
afterEach(() => {
  parent?.kill('SIGKILL');
  parent = undefined;
});

/** A process whose parent never waits for it: `sleep` exec'd over the shell that started it. */
async function orphanableChild(): Promise<number> {
  parent = spawn('sh', ['-c', 'sleep 100 & echo $!; exec sleep 1000'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const pid = await new Promise<number>((resolve) => parent!.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
  return pid;
}

const state = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0];

describe.runIf(linux)('leadProcessAlive', () => {
  it('is true for a running lead, false once it is killed even while it is a zombie its parent has not reaped', async () => {
    const pid = await orphanableChild();
    const lp = { pid, procStart: procStartOf(pid) };
    expect(leadProcessAlive(lp)).toBe(true);
    expect(leadProcessAlive(lp, false)).toBe(true);
    process.kill(pid, 'SIGKILL');
    for (let i = 0; i < 500 && state(pid) !== 'Z'; i++) await new Promise((r) => setTimeout(r, 10));
    expect(state(pid)).toBe('Z');
    // The signal probe alone still finds it.
    expect(() => process.kill(pid, 0)).not.toThrow();
    expect(leadProcessAlive(lp)).toBe(false);
    expect(leadProcessAlive(lp, false)).toBe(false);
    const config = { name: 't', members: [], skippedMembers: [], leadProcess: lp } as unknown as TeamConfig;
    expect(judgeLiveness('current', config, false)).toMatchObject({ state: 'ended' });
  });

  it('tells a reused pid apart by its start time', () => {
    expect(leadProcessAlive({ pid: process.pid, procStart: procStartOf(process.pid) })).toBe(true);
    expect(leadProcessAlive({ pid: process.pid, procStart: '1' })).toBe(false);
    expect(leadProcessAlive({ pid: process.pid, procStart: '1' }, false)).toBe(true);
  });
});
