// The lead's sessions file, from the versions captured from Claude Code 2.1.332, in real temp dirs.
import { mkdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CAPTURE, CAPTURED_SESSION, writeSessionVersion } from '../../../test/helpers/captured-team.js';
import { useTempDirs } from '../../../test/helpers/tmp.js';
import { LeadSessionReader, MAX_SESSION_FILE_BYTES, parseSession, readSessionFile } from './sessions.js';

const tempDir = useTempDirs();

describe('sessions file', () => {
  it('reads every captured version: the first without a status, then busy and idle with their times', async () => {
    const statuses: Array<string | undefined> = [];
    for (let v = 1; v <= 11; v++) {
      const s = parseSession(await readFile(join(CAPTURE, 'sessions', `12022.${String(v).padStart(3, '0')}.json`), 'utf8'));
      if ('invalid' in s) throw new Error(s.invalid);
      expect(s).toMatchObject({ pid: 12022, sessionId: CAPTURED_SESSION, version: '2.1.332', kind: 'interactive' });
      statuses.push(s.status);
      if (s.status) expect(s.statusUpdatedAt).toBeGreaterThan(1_796_124_114_000);
    }
    expect(statuses).toEqual([undefined, 'idle', 'busy', 'idle', 'busy', 'idle', 'busy', 'idle', 'busy', 'busy', 'idle']);
    // A status this Teamdeck does not know is no status, not a crash.
    expect(parseSession(JSON.stringify({ pid: 1, sessionId: 'x', status: 'dreaming', waitingFor: 7 }))).toEqual({ pid: 1, sessionId: 'x' });
  });

  it("finds the lead's file by pid, or by sessionId when the pid is not known, and ignores other sessions and keys", async () => {
    const config = await tempDir();
    await writeSessionVersion(config, 3, 4242);
    await writeFile(join(config, 'sessions', '777.json'), JSON.stringify({ pid: 777, sessionId: 'someone-else', status: 'waiting' }));
    await writeFile(join(config, 'sessions', '4242.abc.key'), '{"peerToken":"x"}');
    const byPid = new LeadSessionReader(config, CAPTURED_SESSION);
    expect(await byPid.read(4242)).toMatchObject({ pid: 4242, status: 'busy' });
    expect(byPid.fileName).toBe('4242.json');
    const byScan = new LeadSessionReader(config, CAPTURED_SESSION);
    expect(await byScan.read()).toMatchObject({ pid: 4242, status: 'busy' });
    // A pid whose file is someone else's session is not the lead's.
    expect(await new LeadSessionReader(config, CAPTURED_SESSION).read(777)).toBeUndefined();
  });

  it("follows a restarted lead's new pid, though the old pid's file is still there (left by a SIGKILL)", async () => {
    const config = await tempDir();
    const dir = join(config, 'sessions');
    await mkdir(dir, { recursive: true });
    const session = (pid: number, status: string) => JSON.stringify({ pid, sessionId: 'lead-session', status, version: '2.1.337' });
    await writeFile(join(dir, '100.json'), session(100, 'waiting'));
    const reader = new LeadSessionReader(config, 'lead-session');
    expect(await reader.read(100)).toMatchObject({ pid: 100, status: 'waiting' });
    // config.leadProcess now names pid 200, whose file is not written yet: not the old lead's.
    expect(await reader.read(200)).toBeUndefined();
    expect(reader.fileName).toBeUndefined();
    await writeFile(join(dir, '200.json'), session(200, 'idle'));
    expect(await reader.read(200)).toMatchObject({ pid: 200, status: 'idle' });
    expect(reader.fileName).toBe('200.json');
    // The old file changes again (whatever wrote it): still the new pid's that is read.
    await writeFile(join(dir, '100.json'), session(100, 'busy'));
    expect(await reader.read(200)).toMatchObject({ pid: 200, status: 'idle' });
    // Straight from one found file to the other, without a read in between.
    const direct = new LeadSessionReader(config, 'lead-session');
    expect(await direct.read(100)).toMatchObject({ pid: 100, status: 'busy' });
    expect(await direct.read(200)).toMatchObject({ pid: 200, status: 'idle' });
    // Without a pid, the file already found is kept.
    expect(await direct.read()).toMatchObject({ pid: 200 });
  });

  it('follows the file rewritten in place (same inode); a torn read keeps the last good copy; removal forgets it', async () => {
    const config = await tempDir();
    const path = await writeSessionVersion(config, 4, 4242);
    const ino = (await stat(path)).ino;
    const r = new LeadSessionReader(config, CAPTURED_SESSION);
    expect(await r.read(4242)).toMatchObject({ status: 'idle' });
    await writeSessionVersion(config, 5, 4242, { status: 'waiting', waitingFor: 'permission prompt' });
    expect((await stat(path)).ino).toBe(ino);
    expect(await r.read(4242)).toMatchObject({ status: 'waiting', waitingFor: 'permission prompt' });
    // Torn: the first half of a rewrite.
    const whole = await readFile(path, 'utf8');
    await writeFile(path, whole.slice(0, Math.floor(whole.length / 2)));
    expect(await readSessionFile(path)).toEqual({ kind: 'invalid', reason: 'not valid JSON' });
    expect(await r.read(4242)).toMatchObject({ status: 'waiting', waitingFor: 'permission prompt' });
    // The torn read is retried: a write that completes within the retries is read whole.
    await writeFile(path, whole.slice(0, 10));
    const reading = r.read(4242);
    setTimeout(() => void writeSessionVersion(config, 6, 4242), 5);
    expect(await reading).toMatchObject({ status: 'idle' });
    // A clean exit removes the file: nothing to say any more.
    await rm(path);
    expect(await r.read(4242)).toBeUndefined();
  });

  it('never follows a link, and refuses a file past the bound', async () => {
    const config = await tempDir();
    const outside = join(config, 'outside.json');
    await writeFile(outside, JSON.stringify({ pid: 5, sessionId: CAPTURED_SESSION, status: 'waiting' }));
    await mkdir(join(config, 'sessions'));
    await symlink(outside, join(config, 'sessions', '5.json'));
    expect(await readSessionFile(join(config, 'sessions', '5.json'))).toEqual({ kind: 'invalid', reason: 'is a symbolic link; not followed' });
    expect(await new LeadSessionReader(config, CAPTURED_SESSION).read(5)).toBeUndefined();
    expect(await new LeadSessionReader(config, CAPTURED_SESSION).read()).toBeUndefined();
    await writeFile(join(config, 'sessions', '6.json'), JSON.stringify({ pid: 6, sessionId: CAPTURED_SESSION, pad: 'x'.repeat(MAX_SESSION_FILE_BYTES) }));
    expect(await readSessionFile(join(config, 'sessions', '6.json'))).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/bytes; at most 65536 are read/) });
  });
});
