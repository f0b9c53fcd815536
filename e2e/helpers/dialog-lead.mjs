#!/usr/bin/env node
// A stand-in for `claude` in e2e/answer.spec.ts: it draws the screens the real Claude Code
// 2.1.332 lead draws, in their shapes (test/fixtures/claude-2.1.332/screens/), so the window's
// answers go through the real engine, the real screen checks and the real tmux keys:
//  - `dialog`: a teammate's Bash permission prompt ("Bash command · from the researcher agent",
//    the command between dashed rules, four options); Up/Down move the focus, Enter chooses;
//  - `busy`: the lead's own turn running ("esc to interrupt" under the input box); Esc stops it;
//  - `idle`: an empty input box; typed text shows in it, Enter takes it as a turn.
// What it took is printed above the box ("answered: …", "interrupted", "typed: …").
// It tests Teamdeck's side of the keys, not Claude: the real binary has test/claude/answer.test.ts.

const out = (s) => process.stdout.write(s);
if (process.stdin.isTTY) process.stdin.setRawMode(true);
process.stdin.setEncoding('utf8');

const COMMAND = process.env.DIALOG_COMMAND || 'rm -rf build/';
const OPTIONS = ['Yes', 'Yes, and always allow access to build/ from this project', 'Yes, and switch to auto mode · auto mode handles these prompts for you', 'No'];
let mode = 'dialog';
let focus = 0;
let box = '';
const log = [];

function draw() {
  const w = Math.max(40, (process.stdout.columns || 100) - 2);
  const rule = '─'.repeat(w);
  const dash = '╌'.repeat(w);
  const lines = ['', ' Claude Code (stand-in)', '', ...log.slice(-6).map((l) => `● ${l}`), ''];
  if (mode === 'dialog') {
    lines.push(rule, ' Bash command · from the researcher agent', ' Tip: auto mode handles these prompts for you', ` run ${COMMAND}`, dash, ` ${COMMAND}`, dash, ' Do you want to proceed?');
    OPTIONS.forEach((o, i) => lines.push(` ${i === focus ? '❯' : ' '} ${i + 1}. ${o}`));
    lines.push('', ` Esc to cancel${focus === 3 ? ' · Tab to amend' : ''}`);
  } else {
    lines.push(rule, `❯ ${box}`, rule, mode === 'busy' ? '  ⏸ manual mode on · esc to interrupt · ↓ to manage' : '  ⏸ manual mode on · ? for shortcuts · ↓ to manage');
  }
  out(`\u001b[2J\u001b[H${lines.join('\r\n')}`);
}

process.stdin.on('data', (keys) => {
  if (keys === '\u0004') process.exit(3);
  if (mode === 'dialog') {
    if (keys === '\u001b[B') focus = Math.min(OPTIONS.length - 1, focus + 1);
    else if (keys === '\u001b[A') focus = Math.max(0, focus - 1);
    else if (keys === '\r') {
      log.push(`answered: ${OPTIONS[focus]}`);
      // Allowed: the lead's turn runs on; denied: it is idle.
      mode = focus === 3 ? 'idle' : 'busy';
    }
  } else if (mode === 'busy') {
    if (keys === '\u001b') {
      log.push('interrupted');
      mode = 'idle';
    }
  } else if (keys === '\r') {
    log.push(`typed: ${box}`);
    box = '';
  } else if (keys === '\u007f') box = box.slice(0, -1);
  else if (!keys.startsWith('\u001b')) box += keys.replace(/[\u0000-\u001f]/g, '');
  draw();
});
process.on('SIGWINCH', draw);
draw();
