// `teamdeck doctor --json` and the version in `teams --json`: the real command in a child
// process, over a live copy of the team captured from Claude Code 2.1.332 and a stand-in
// `claude` (a script printing a version) on the PATH.
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CAPTURED_TEAM, liveCapturedTeam } from '../../test/helpers/captured-team.js';
import { cliEnv, runCli } from '../../test/helpers/cli-kit.js';
import { useTempDirs } from '../../test/helpers/tmp.js';
import type { DoctorReport, TeamSummary } from '../shared/types.js';
import { doctorExitCode } from './commands/doctor.js';

const tempDir = useTempDirs();

describe('teamdeck doctor and the Claude Code version of each team', () => {
  it('doctor --json names the claude found, its version and the proven range; teams --json has claudeVersion per team', async () => {
    const base = await tempDir();
    const config = join(base, '.claude');
    await liveCapturedTeam(config, { config: 3, session: 11 });
    const bin = join(base, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'claude'), "#!/bin/sh\necho '2.1.336 (Claude Code)'\n");
    await chmod(join(bin, 'claude'), 0o755);
    const env = { ...cliEnv(), PATH: `${bin}:${process.env.PATH ?? ''}` };
    const dirs = ['--teams-dir', join(config, 'teams'), '--state-dir', join(base, 'state')];

    const doctor = await runCli(['doctor', '--json', ...dirs], { env });
    expect(doctor.code).toBe(0);
    const r = JSON.parse(doctor.stdout) as DoctorReport;
    expect(r.claude).toEqual({ from: 'PATH', path: join(bin, 'claude'), version: '2.1.336', verdict: 'proven' });
    expect(r.provenRange).toEqual({ oldest: '2.1.332', newest: '2.1.337' });
    expect(r.engine.longRunning).toBe(false);
    expect(r.findings.find((f) => f.check === 'team-versions')).toMatchObject({ level: 'ok' });

    const teams = await runCli(['teams', '--json', ...dirs], { env });
    expect(teams.code).toBe(0);
    expect((JSON.parse(teams.stdout) as TeamSummary[]).find((t) => t.id === CAPTURED_TEAM)?.claudeVersion).toBe('2.1.332');

    const words = await runCli(['doctor', ...dirs], { env });
    expect(words.stdout).toContain(`Claude Code: ${join(bin, 'claude')}, version 2.1.336`);
    expect(words.stdout).toContain('Teamdeck was tested with Claude Code 2.1.332–2.1.337');
  });

  it('exits 1 only when a finding is a problem: notes and warnings leave 0', () => {
    const f = (level: DoctorReport['findings'][number]['level']) => ({ check: 'tmux' as const, level, summary: level });
    expect(doctorExitCode({ findings: [f('ok'), f('note'), f('warning')] })).toBe(0);
    expect(doctorExitCode({ findings: [f('ok'), f('problem')] })).toBe(1);
    expect(doctorExitCode({ findings: [] })).toBe(0);
  });
});
