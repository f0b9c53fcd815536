#!/usr/bin/env node
// A stand-in for `claude` in e2e/terminal.spec.ts: a small full-screen-less terminal program that
// shows what reaches it, for testing the hosted terminal's mechanics (not Claude itself). It
// turns bracketed paste on as Claude Code does, prints `size COLSxROWS` at start and on every
// SIGWINCH, echoes typed keys and, on Enter, the whole line (`typed: …`), and shows a bracketed
// paste as one unit with its line count (`paste [N lines, bracketed]: a | b`). Ctrl+D exits
// with code 3, so the spec can see an exit. Arguments (what the host passes claude) are shown once.

const out = (s) => process.stdout.write(s);
const size = () => `size ${process.stdout.columns}x${process.stdout.rows}`;

if (process.stdin.isTTY) process.stdin.setRawMode(true);
process.stdin.setEncoding('utf8');

// Bracketed paste on: the terminal wraps pastes in ESC[200~ … ESC[201~.
out('\u001b[?2004h');
out(`echo-lead ready; args: ${process.argv.slice(2).join(' ') || '(none)'}\r\n`);
out(`${size()}\r\n> `);

process.on('SIGWINCH', () => out(`\r\n${size()}\r\n> `));

const START = '\u001b[200~';
const END = '\u001b[201~';
let pending = '';
let line = '';

function handleKeys(keys) {
  for (const ch of keys) {
    if (ch === '\r' || ch === '\n') {
      out(`\r\ntyped: ${line}\r\n> `);
      line = '';
    } else if (ch === '\u007f' || ch === '\b') {
      if (line) {
        line = line.slice(0, -1);
        out('\b \b');
      }
    } else if (ch === '\u0004') {
      out('\u001b[?2004l\r\nbye\r\n');
      process.exit(3);
    } else if (ch >= ' ') {
      line += ch;
      out(ch);
    }
  }
}

process.stdin.on('data', (chunk) => {
  pending += chunk;
  for (;;) {
    const start = pending.indexOf(START);
    if (start < 0) {
      // Keep a possible partial start marker for the next chunk.
      const keep = pending.lastIndexOf('\u001b');
      const cut = keep >= 0 && START.startsWith(pending.slice(keep)) ? keep : pending.length;
      handleKeys(pending.slice(0, cut));
      pending = pending.slice(cut);
      return;
    }
    handleKeys(pending.slice(0, start));
    const end = pending.indexOf(END, start + START.length);
    if (end < 0) {
      pending = pending.slice(start);
      return;
    }
    const text = pending.slice(start + START.length, end);
    const lines = text.split(/\r\n|\r|\n/);
    out(`\r\npaste [${lines.length} lines, bracketed]: ${lines.join(' | ')}\r\n> `);
    pending = pending.slice(end + END.length);
  }
});

process.stdin.on('end', () => process.exit(0));
