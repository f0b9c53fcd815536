import { homedir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PathEscapeError, inboxFileStem, insideRoot, isSafeSegment, resolveStateDir, resolveTeamsRoot, teamDirName, teamPaths } from './paths.js';

describe('teamDirName (Claude: every char outside [a-zA-Z0-9] -> "-", lower-cased)', () => {
  it.each([
    ['my-team', 'my-team'],
    ['analysis-team', 'analysis-team'],
    ['My Team', 'my-team'],
    ['Team_Name.v2', 'team-name-v2'],
    ['ÉQUIPE 1', '-quipe-1'],
    ['a/b\\c', 'a-b-c'],
    ['../etc', '---etc'],
    ['UPPER', 'upper'],
  ])('%j -> %j', (name, dir) => {
    expect(teamDirName(name)).toBe(dir);
  });

  it('never yields a path separator or a dot', () => {
    expect(teamDirName('../../x/./y')).not.toMatch(/[./\\]/);
  });
});

describe('inboxFileStem (Claude: every char outside [a-zA-Z0-9_-] -> "-", case kept)', () => {
  it.each([
    ['team-lead', 'team-lead'],
    ['doc_writer-1', 'doc_writer-1'],
    ['Doc Writer', 'Doc-Writer'],
    ['a/b', 'a-b'],
    ['../x', '---x'],
    ['é', '-'],
    ['user', 'user'],
  ])('%j -> %j', (name, stem) => {
    expect(inboxFileStem(name)).toBe(stem);
  });
});

describe('resolveTeamsRoot order: --teams-dir, TEAMDECK_TEAMS_DIR, $CLAUDE_CONFIG_DIR/teams, ~/.claude/teams', () => {
  const full = { TEAMDECK_TEAMS_DIR: '/env/teams', CLAUDE_CONFIG_DIR: '/cfg' };

  it('--teams-dir wins over everything', () => {
    expect(resolveTeamsRoot({ teamsDir: '/flag/teams', env: full })).toEqual({ root: resolve('/flag/teams'), source: '--teams-dir' });
  });
  it('then TEAMDECK_TEAMS_DIR', () => {
    expect(resolveTeamsRoot({ env: full })).toEqual({ root: resolve('/env/teams'), source: 'TEAMDECK_TEAMS_DIR' });
  });
  it('then $CLAUDE_CONFIG_DIR/teams', () => {
    expect(resolveTeamsRoot({ env: { CLAUDE_CONFIG_DIR: '/cfg' } })).toEqual({ root: resolve('/cfg', 'teams'), source: 'CLAUDE_CONFIG_DIR' });
  });
  it('then ~/.claude/teams', () => {
    expect(resolveTeamsRoot({ env: {} })).toEqual({ root: join(homedir(), '.claude', 'teams'), source: 'default' });
  });
  it('treats empty variables as unset', () => {
    expect(resolveTeamsRoot({ env: { TEAMDECK_TEAMS_DIR: '', CLAUDE_CONFIG_DIR: '/cfg' } }).source).toBe('CLAUDE_CONFIG_DIR');
    expect(resolveTeamsRoot({ teamsDir: '', env: { TEAMDECK_TEAMS_DIR: '/env/teams' } }).source).toBe('TEAMDECK_TEAMS_DIR');
  });
  it('makes a relative --teams-dir absolute', () => {
    const r = resolveTeamsRoot({ teamsDir: 'rel/teams', env: {} });
    expect(r.root).toBe(resolve('rel/teams'));
    expect(r.root.startsWith(sep) || /^[A-Za-z]:/.test(r.root)).toBe(true);
  });
});

describe('resolveStateDir', () => {
  it('prefers --state-dir, then TEAMDECK_STATE_DIR', () => {
    expect(resolveStateDir({ stateDir: '/flag/state', env: { TEAMDECK_STATE_DIR: '/env/state' } })).toBe(resolve('/flag/state'));
    expect(resolveStateDir({ env: { TEAMDECK_STATE_DIR: '/env/state' } })).toBe(resolve('/env/state'));
  });
});

describe('insideRoot', () => {
  const root = resolve('/srv/teams');

  it('joins parts that stay inside the root', () => {
    expect(insideRoot(root, 'a', 'inboxes', 'b.json')).toBe(join(root, 'a', 'inboxes', 'b.json'));
    expect(insideRoot(root, 'a/../b')).toBe(join(root, 'b'));
  });

  it.each([
    [['..']],
    [['../x']],
    [['a', '..', '..', 'x']],
    [['a/../../x']],
    [['/etc/passwd']],
    [['a', '/etc/passwd']],
    [['']],
    [['.']],
    [['a', '..']],
    [['a\0b']],
    [['a', 'b\0']],
  ])('refuses %j', (parts) => {
    expect(() => insideRoot(root, ...parts)).toThrow(PathEscapeError);
  });

  it('refuses a sibling folder whose name starts with the root name', () => {
    expect(() => insideRoot(root, '../teams-evil/x')).toThrow(PathEscapeError);
  });
});

describe('isSafeSegment', () => {
  it.each(['analysis-team', 'a', '.hidden', 'team lead', 'x'.repeat(255)])('accepts %j', (s) => {
    expect(isSafeSegment(s)).toBe(true);
  });
  it.each(['', '.', '..', 'a/b', 'a\\b', '/abs', 'nul\0', 'tab\t', 'nl\n', 'del\x7f', 'x'.repeat(256)])('refuses %j', (s) => {
    expect(isSafeSegment(s)).toBe(false);
  });
});

describe('teamPaths', () => {
  const root = resolve('/srv/teams');

  it('builds the config and inbox paths of the format', () => {
    const p = teamPaths(root, 'analysis-team');
    expect(p.dir).toBe(join(root, 'analysis-team'));
    expect(p.config).toBe(join(root, 'analysis-team', 'config.json'));
    expect(p.inboxes).toBe(join(root, 'analysis-team', 'inboxes'));
    expect(p.inbox('team-lead')).toBe(join(root, 'analysis-team', 'inboxes', 'team-lead.json'));
    expect(p.inbox('user')).toBe(join(root, 'analysis-team', 'inboxes', 'user.json'));
  });

  it.each(['..', '.', '', '../x', 'a/b', '/etc', 'a\\b', 'x\0', 'line\n'])('refuses team id %j', (id) => {
    expect(() => teamPaths(root, id)).toThrow(PathEscapeError);
  });

  it('sanitizes member names so they can never leave inboxes/', () => {
    const p = teamPaths(root, 't');
    const inboxes = join(root, 't', 'inboxes') + sep;
    for (const name of ['../../etc/passwd', '..', '.', '/abs', 'a/b', 'x\0y', 'Doc Writer']) {
      const path = p.inbox(name);
      expect(path.startsWith(inboxes)).toBe(true);
      expect(path.slice(inboxes.length)).toBe(`${inboxFileStem(name)}.json`);
      expect(path.slice(inboxes.length)).not.toContain(sep);
    }
    expect(p.inbox('../../etc/passwd')).toBe(join(root, 't', 'inboxes', '------etc-passwd.json'));
  });

  it('refuses an empty member name', () => {
    expect(() => teamPaths(root, 't').inbox('')).toThrow(PathEscapeError);
  });
});
