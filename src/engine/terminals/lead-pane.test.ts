import { describe, expect, it } from 'vitest';
import { tmuxTargetOf, userTmuxPane } from './lead-pane.js';

describe("a lead's tmux pane, from its environment", () => {
  it('reads the socket and the pane from TMUX and TMUX_PANE', () => {
    const env = ['HOME=/home/me', 'TMUX=/tmp/tmux-1000/default,4242,0', 'TMUX_PANE=%3', ''].join('\0');
    expect(tmuxTargetOf(env)).toEqual({ socket: '/tmp/tmux-1000/default', pane: '%3' });
    // A socket path with a comma in it keeps it (the last two fields are the pid and session).
    expect(tmuxTargetOf('TMUX=/tmp/a,b/sock,1,0\0TMUX_PANE=%12')).toEqual({ socket: '/tmp/a,b/sock', pane: '%12' });
  });

  it('finds none without both, or with a pane or socket that is not one', () => {
    expect(tmuxTargetOf('TMUX=/tmp/tmux-1000/default,1,0')).toBeUndefined();
    expect(tmuxTargetOf('TMUX_PANE=%3')).toBeUndefined();
    expect(tmuxTargetOf('TMUX=/tmp/s,1,0\0TMUX_PANE=%3; kill-server')).toBeUndefined();
    expect(tmuxTargetOf('TMUX=relative/s,1,0\0TMUX_PANE=%3')).toBeUndefined();
  });

  it('refuses a process that is not Claude Code, or that is not there', async () => {
    // This test's own process is node, not Claude: no keys could ever go to its terminal.
    expect(await userTmuxPane(process.pid, 'tmux')).toMatch(/is not Claude Code|not running as this user|only on Linux/);
    expect(await userTmuxPane(2 ** 22 + 11, 'tmux')).toMatch(/not running as this user|only on Linux/);
  });
});
