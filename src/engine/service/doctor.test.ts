// doctor's checks over real temp dirs, with a stand-in `claude` (a shell script that prints a
// version, the process edge) on a PATH of its own.
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROVEN_CLAUDE } from '../../shared/claude-versions.js';
import type { DoctorFinding, TeamSummary } from '../../shared/types.js';
import { useTempDirs } from '../../../test/helpers/tmp.js';
import { runDoctor, type DoctorContext } from './doctor.js';

const tempDir = useTempDirs();

async function fakeClaude(dir: string, printed: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, 'claude');
  await writeFile(path, `#!/bin/sh\nprintf '%s\\n' '${printed}'\n`);
  await chmod(path, 0o755);
  return path;
}

async function context(over: Partial<DoctorContext> = {}): Promise<DoctorContext> {
  const base = await tempDir();
  const teamsRoot = join(base, 'teams');
  const stateDir = join(base, 'state');
  await mkdir(teamsRoot, { mode: 0o755 });
  await mkdir(stateDir, { mode: 0o700 });
  return { teamsRoot, stateDir, claudePath: '', env: { PATH: join(base, 'bin') }, engine: { pid: 4242, longRunning: true }, teams: [], now: 1, ...over };
}

const finding = (list: DoctorFinding[], check: DoctorFinding['check']) => list.find((f) => f.check === check);

describe('doctor', () => {
  it('names the claude on the PATH, its version and the proven range', async () => {
    const ctx = await context();
    const path = await fakeClaude(ctx.env.PATH!, '2.1.337 (Claude Code)');
    const r = await runDoctor(ctx);
    expect(r.claude).toEqual({ from: 'PATH', path, version: '2.1.337', verdict: 'proven' });
    expect(r.provenRange).toEqual({ oldest: PROVEN_CLAUDE.oldest, newest: PROVEN_CLAUDE.newest });
    expect(finding(r.findings, 'claude-version')).toMatchObject({ level: 'ok' });
    expect(finding(r.findings, 'engine')).toMatchObject({ level: 'ok', summary: expect.stringContaining('pid 4242') });
  });

  it('a newer claude is a quiet note, an older one a warning that says what will not work and how to update', async () => {
    const ctx = await context();
    await fakeClaude(ctx.env.PATH!, '2.1.340 (Claude Code)');
    const newer = finding((await runDoctor(ctx)).findings, 'claude-version');
    expect(newer).toMatchObject({ level: 'note', summary: 'Claude Code 2.1.340: newer than Teamdeck was tested with (2.1.332–2.1.337)' });
    await fakeClaude(ctx.env.PATH!, '2.1.199 (Claude Code)');
    const older = finding((await runDoctor(ctx)).findings, 'claude-version');
    expect(older).toMatchObject({ level: 'warning', fix: 'Update Claude Code: claude update' });
    expect(older!.summary).toContain("messages through the lead's messaging socket");
  });

  it('uses the claudePath setting over the PATH, and says what to do when there is no claude at all', async () => {
    const ctx = await context();
    const set = await fakeClaude(join(ctx.stateDir, 'mine'), '2.1.335 (Claude Code)');
    expect((await runDoctor({ ...ctx, claudePath: set })).claude).toMatchObject({ from: 'setting', path: set, version: '2.1.335' });
    const none = await runDoctor(ctx);
    expect(none.claude).toMatchObject({ from: 'PATH', error: expect.stringContaining('not found on the PATH') });
    expect(finding(none.findings, 'claude')).toMatchObject({ level: 'warning', fix: expect.stringContaining('Settings') });
  });

  it("reports the agent-teams switch in the engine's environment, the folders' modes, and an engine that is not running", async () => {
    const ctx = await context({ engine: { pid: 1, longRunning: false } });
    await chmod(ctx.stateDir, 0o755);
    const r = await runDoctor(ctx);
    expect(r.agentTeamsEnv).toBeNull();
    expect(finding(r.findings, 'agent-teams')).toMatchObject({ level: 'note', fix: expect.stringContaining('CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS=1') });
    expect(r.teamsFolder).toMatchObject({ exists: true, mode: 'drwxr-xr-x', readable: true, writable: true });
    expect(finding(r.findings, 'state-folder')).toMatchObject({ level: 'note', fix: `chmod 700 ${ctx.stateDir}` });
    expect(finding(r.findings, 'engine')).toMatchObject({ level: 'note', fix: expect.stringContaining('teamdeck watch') });
    const on = await runDoctor({ ...ctx, env: { ...ctx.env, CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS: '1' }, teamsRoot: join(ctx.teamsRoot, 'nope') });
    expect(on.agentTeamsEnv).toBe('1');
    expect(finding(on.findings, 'agent-teams')?.level).toBe('ok');
    expect(finding(on.findings, 'teams-folder')).toMatchObject({ level: 'note', summary: expect.stringContaining('does not exist yet') });
  });

  it("names running teams on versions outside the proven range", async () => {
    const team = (id: string, claudeVersion?: string): TeamSummary => ({ id, name: id, memberCount: 1, problems: [], era: 'current', state: 'running', sendAs: 'teamdeck', leadReadsInbox: true, ...(claudeVersion ? { claudeVersion } : {}) });
    const r = await runDoctor(await context({ teams: [team('session-aaaaaaaa', '2.1.337'), team('session-bbbbbbbb', '2.1.340'), team('session-cccccccc')] }));
    expect(finding(r.findings, 'team-versions')).toMatchObject({ level: 'note', summary: 'session-bbbbbbbb: Claude Code 2.1.340: newer than Teamdeck was tested with (2.1.332–2.1.337)' });
  });
});
