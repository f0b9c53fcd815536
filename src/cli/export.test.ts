// `teamdeck export`: the real command in child processes over real temp dirs: a thread and a
// whole team, Markdown and JSON, to stdout and to a file (whole or not at all, never over an
// existing file without --force), a team captured from Claude Code 2.1.332, and through the
// socket of an engine that owns the state dir.
import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeAppend } from '../sim/claude-inbox.js';
import { createTeam, simTeamPaths } from '../sim/simulator.js';
import { CAPTURE, CAPTURED_TEAM, liveCapturedTeam } from '../../test/helpers/captured-team.js';
import { useCliDirs } from '../../test/helpers/cli-kit.js';

const cli = useCliDirs('teamdeck-cli-export-');
const run = (args: string[], teams = cli.teams) => cli.run(args, { teams });

/** A legacy team with one message sent through Teamdeck and the researcher's answer in user.json. */
async function teamWithThread(): Promise<string> {
  await createTeam({ teamsDir: cli.teams, team: 'alpha', members: ['researcher', 'tester'] });
  const sent = await run(['send', '--team', 'alpha', '--to', 'researcher', '--json', 'Look into the flaky upload test']);
  expect(sent.code, sent.stderr).toBe(0);
  const p = simTeamPaths(cli.teams, 'alpha');
  const later = new Date(Date.now() + 1000).toISOString();
  await claudeAppend(p.inbox('user'), { from: 'researcher', text: 'Found it:\n```\n# a race\n```', timestamp: later, read: false });
  const last = new Date(Date.now() + 2000).toISOString();
  await claudeAppend(p.inbox('team-lead'), { from: 'tester', text: JSON.stringify({ type: 'shutdown_approved', requestId: 'r1', from: 'tester', timestamp: last }), timestamp: last, read: false });
  return (JSON.parse(sent.stdout) as { id: string }).id;
}

describe('teamdeck export', () => {
  it('prints a thread as Markdown and the team as JSON', async () => {
    const id = await teamWithThread();
    const md = await run(['export', '--team', 'alpha', '--with', 'researcher', '--format', 'md', '--time-zone', 'UTC']);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stderr).toBe('');
    expect(md.stdout).toMatch(/^# Thread with researcher\n/);
    expect(md.stdout).toContain('- Team: alpha (folder `alpha`) · legacy era · running');
    expect(md.stdout).toMatch(/### \d{4}-\d\d-\d\d \d\d:\d\d:\d\d — you → researcher\n\nAs user · delivered · `/);
    expect(md.stdout).toMatch(/### [\d: -]+ — researcher → you\n\nAnswer in the user inbox · `[^`]+`\n\n````text\nFound it:\n```\n# a race\n```\n````\n/);
    expect(md.stdout).not.toContain('shutdown approved');

    const json = await run(['export', '--team', 'alpha', '--format', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout) as { format: string; version: number; scope: string; team: { id: string }; messages: { id: string; from: string; kind: string; protocol?: { words: string }; delivery?: { status: string } }[] };
    expect(doc).toMatchObject({ format: 'teamdeck-export', version: 1, scope: 'team', team: { id: 'alpha', era: 'legacy', state: 'running' } });
    expect(doc.messages.map((m) => [m.from, m.kind])).toEqual([
      ['user', 'message'],
      ['researcher', 'message'],
      ['tester', 'protocol'],
    ]);
    expect(doc.messages[0]).toMatchObject({ id, delivery: { status: 'accepted' } });
    expect(doc.messages[2]!.protocol!.words).toBe('shutdown approved');
  });

  it('writes --out whole, refuses to replace a file without --force, a folder, or a missing folder', async () => {
    await teamWithThread();
    const out = join(cli.dir, 'thread.md');
    const first = await run(['export', '--team', 'alpha', '--with', 'researcher', '--format', 'md', '--out', out, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const wrote = JSON.parse(first.stdout) as { path: string; bytes: number; messages: number };
    expect(wrote).toMatchObject({ path: out, messages: 2 });
    const text = await readFile(out, 'utf8');
    expect(Buffer.byteLength(text)).toBe(wrote.bytes);
    expect(text).toMatch(/^# Thread with researcher\n/);

    await writeFile(out, 'mine');
    const again = await run(['export', '--team', 'alpha', '--with', 'researcher', '--format', 'md', '--out', out]);
    expect(again.code).toBe(2);
    expect(again.stderr.trim().split('\n')).toEqual([`teamdeck export: refused: ${out} already exists; pass --force to replace it`]);
    expect(await readFile(out, 'utf8')).toBe('mine');

    const forced = await run(['export', '--team', 'alpha', '--format', 'json', '--out', out, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/^Exported 3 messages to .*thread\.md \(\d+ bytes\)\.\n$/);
    expect(JSON.parse(await readFile(out, 'utf8'))).toMatchObject({ format: 'teamdeck-export', scope: 'team' });

    const folder = await run(['export', '--team', 'alpha', '--format', 'md', '--out', cli.dir, '--force']);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain(`${cli.dir} is a folder`);
    const missing = await run(['export', '--team', 'alpha', '--format', 'md', '--out', join(cli.dir, 'nope', 'x.md')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`the folder ${join(cli.dir, 'nope')} does not exist`);
    // No temporary file is left beside the output.
    expect((await readdir(cli.dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('answers bad arguments with exit 2 and one line', async () => {
    await teamWithThread();
    const cases: [string[], RegExp][] = [
      [['export', '--team', 'alpha', '--format', 'html'], /--format must be md or json, not "html"/],
      [['export', '--team', 'alpha'], /--format is required/],
      [['export', '--format', 'md'], /--team is required/],
      [['export', '--team', 'alpha', '--with', 'nobody', '--format', 'md'], /no member "nobody"/],
      [['export', '--team', 'nope', '--format', 'md'], /no team "nope"/],
      [['export', '--team', 'alpha', '--format', 'md', '--time-zone', 'Mars/Olympus'], /--time-zone must be a time zone name/],
      [['export', '--team', 'alpha', '--format', 'md', '--force'], /--force only goes with --out/],
    ];
    for (const [args, message] of cases) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stdout).toBe('');
    }
  });

  it('exports a team captured from Claude Code 2.1.332 with its protocol events in words', async () => {
    const config = join(cli.dir, '.claude');
    const team = await liveCapturedTeam(config, { config: 3, session: 11 });
    const inboxes = join(CAPTURE, 'teams', CAPTURED_TEAM, 'inboxes');
    await copyFile(join(inboxes, 'team-lead.011.json'), join(team, 'inboxes', 'team-lead.json'));
    await copyFile(join(inboxes, 'writer.003.json'), join(team, 'inboxes', 'writer.json'));
    const md = await run(['export', '--team', CAPTURED_TEAM, '--format', 'md', '--time-zone', 'UTC'], join(config, 'teams'));
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain(`- Team: ${CAPTURED_TEAM} (folder \`${CAPTURED_TEAM}\`) · current era · running`);
    expect(md.stdout).toContain('### 2026-12-01 11:21:59 — writer → team-lead\n\nProtocol event: went idle · `2026-12-01T11:21:59.296Z`\n\nIts last text:\n\n```text\nWriter read the note after its Bash.\n```');
    expect(md.stdout).toContain('### 2026-12-01 11:21:59 — team-lead → writer\n\nProtocol event: shutdown requested: the test is done with you · `2026-12-01T11:21:59.658Z`');
    expect(md.stdout).toContain('Protocol event: shutdown approved · `2026-12-01T11:21:59.881Z`');
  });

  it('goes through the engine that owns the state dir (the app, serve or watch)', async () => {
    await teamWithThread();
    await cli.watch();
    const r = await run(['export', '--team', 'alpha', '--with', 'researcher', '--format', 'json', '--time-zone', 'Asia/Kolkata']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout) as { member: { name: string }; messages: { text: string }[] };
    expect(doc.member).toEqual({ name: 'researcher', isLead: false, agentType: 'general-purpose', model: 'sonnet' });
    expect(doc.messages.map((m) => m.text)).toEqual(['Look into the flaky upload test', 'Found it:\n```\n# a race\n```']);
    const md = await run(['export', '--team', 'alpha', '--with', 'researcher', '--format', 'md', '--time-zone', 'Asia/Kolkata']);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain('- Times: local to Asia/Kolkata (UTC+05:30 when exported)');
    const unknown = await run(['export', '--team', 'alpha', '--with', 'nobody', '--format', 'md']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toEqual([expect.stringContaining('no member "nobody"')]);
  });
});
