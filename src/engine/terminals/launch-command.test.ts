// The launch command worked out from a request: arguments, environment, paths, words; and the
// small rules of typing a turn and passing arguments to tmux.
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sanitizeTurn } from './host.js';
import { claudeArgs, expandHome, launchEnv, resolveClaude, resolveCwd, terminalTitle } from './launch-command.js';
import { tempDir, writeStandIn } from './test-kit.js';
import { tmuxArg, tmuxSocketName } from './tmux-client.js';

let tmp: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  tmp = await tempDir('teamdeck-launch-');
});
afterAll(() => tmp.remove());

describe('launch command', () => {
  it('maps model, permission mode and prompt to claude arguments', () => {
    expect(claudeArgs({})).toEqual([]);
    expect(claudeArgs({ model: ' sonnet ', prompt: '  ' })).toEqual(['--model', 'sonnet']);
    expect(claudeArgs({ permissionMode: 'bypassPermissions' })).toEqual(['--dangerously-skip-permissions']);
    for (const mode of ['default', 'acceptEdits', 'plan', 'auto'] as const) expect(claudeArgs({ permissionMode: mode })).toEqual(['--permission-mode', mode]);
    expect(claudeArgs({ prompt: '--help me' })).toEqual(['--', '--help me']);
  });

  it('gives the lead the environment without TMUX, with the teams switch, TERM and PWD', () => {
    const env = launchEnv({ TMUX: 'x', TMUX_PANE: '%1', HOME: '/h', TERM: 'dumb', KEEP: 'v', GONE: undefined }, '/p');
    expect(env).toEqual({ HOME: '/h', KEEP: 'v', TERM: 'xterm-256color', PWD: '/p', CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS: '1' });
  });

  it('expands ~ and checks the project folder', async () => {
    expect(expandHome('~', { HOME: '/h' })).toBe('/h');
    expect(expandHome('~/a/b', { HOME: '/h' })).toBe('/h/a/b');
    expect(expandHome('/x/~', { HOME: '/h' })).toBe('/x/~');
    await mkdir(join(tmp.dir, 'proj'));
    expect(await resolveCwd('~/proj/', { HOME: tmp.dir })).toBe(join(tmp.dir, 'proj'));
    await expect(resolveCwd('', {})).rejects.toThrow(/Choose the project folder/);
  });

  it('finds claude by a bare name on the PATH, by ~/ path, and refuses a relative path', async () => {
    const bin = join(tmp.dir, 'bin');
    await mkdir(bin);
    const claude = await writeStandIn(bin, 'claude-next');
    expect(await resolveClaude('claude-next', { PATH: `/nonexistent:${bin}` })).toBe(claude);
    expect(await resolveClaude('~/bin/claude-next', { HOME: tmp.dir })).toBe(claude);
    await expect(resolveClaude('claude-other', { PATH: bin })).rejects.toThrow('claude-other was not found on the PATH; set the full path of claude in Settings');
    await expect(resolveClaude('bin/claude-next', { PATH: bin })).rejects.toThrow(/must be absolute/);
  });

  it('titles a terminal by its folder and team', () => {
    expect(terminalTitle('/home/me/app')).toBe('app');
    expect(terminalTitle('/home/me/app', 'session-1')).toBe('app · session-1');
  });
});

describe('typing and tmux arguments', () => {
  it('keeps a turn to text: line breaks as LF, tabs, no other control characters', () => {
    expect(sanitizeTurn('a\r\nb\rc\nd\te')).toBe('a\nb\nc\nd\te');
    expect(sanitizeTurn('x\x1b[201~\x03\x7f\x9by')).toBe('x[201~y');
    expect(sanitizeTurn('émoji 🎉 ok')).toBe('émoji 🎉 ok');
  });

  it('escapes a trailing ; that tmux would read as the end of a command', () => {
    expect(tmuxArg('a;')).toBe('a\\;');
    expect(tmuxArg('a\\;')).toBe('a\\\\;');
    expect(tmuxArg(';')).toBe('\\;');
    expect(tmuxArg('a;b')).toBe('a;b');
  });

  it('names the server after the state folder', () => {
    expect(tmuxSocketName('/s')).toBe(`teamdeck-${createHash('sha256').update('/s').digest('hex').slice(0, 10)}`);
    expect(tmuxSocketName('/s')).not.toBe(tmuxSocketName('/t'));
  });
});
