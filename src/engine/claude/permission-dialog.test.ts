import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dialogTool, moveKeys, optionFor, parseDialog, reasonLine, squashed } from './permission-dialog.js';

const screen = (name: string) => readFileSync(join(__dirname, '../../../test/fixtures/claude-2.1.332/screens', name), 'utf8');

describe('parseDialog (screens of Claude Code 2.1.332)', () => {
  it("reads a teammate's Bash ask: tool, member, command, four options, focus on Yes", () => {
    const d = parseDialog(screen('teammate-bash-dialog.txt'))!;
    expect(d).toMatchObject({ header: 'Bash command', from: 'worker', body: 'touch one.txt', canAmend: true });
    expect(d.options.map((o) => o.label)).toEqual(['Yes', 'Yes, and always allow access to /home/me/proj from this project', 'Yes, and switch to auto mode · auto mode handles these prompts for you', 'No']);
    expect(d.options.find((o) => o.focused)?.n).toBe(1);
    expect(dialogTool(d.header)).toBe('Bash');
  });

  it("reads the lead's own ask (no member in the header)", () => {
    const d = parseDialog(screen('lead-bash-dialog.txt'))!;
    expect(d.from).toBeUndefined();
    expect(d.body).toBe('tail -f /dev/null');
    expect(optionFor(d, 'allow-always')).toMatchObject({ n: 2, label: 'Yes, allow reading from /dev from this project' });
  });

  it('reads the command between dashed rules the terminal wrapped onto two rows (drawn wider, then resized)', () => {
    const lines = screen('teammate-bash-dialog.txt').split('\n');
    const rule = lines.findIndex((l) => /^\s*╌{20,}\s*$/.test(l));
    expect(rule).toBeGreaterThan(0);
    // Each rule now takes two rows, as a wider one reflows into a narrower terminal.
    const wrapped = lines.flatMap((l) => (/^\s*╌{20,}\s*$/.test(l) ? [l, l.slice(0, 25)] : [l])).join('\n');
    const d = parseDialog(wrapped)!;
    expect(d).toMatchObject({ header: 'Bash command', from: 'worker', body: 'touch one.txt' });
  });

  it('sees the focus move and the amend input on "No"', () => {
    expect(parseDialog(screen('teammate-bash-dialog-no.txt'))!.options.find((o) => o.focused)?.label).toBe('No');
    const amend = parseDialog(screen('teammate-bash-dialog-amend.txt'))!;
    expect(amend.options.find((o) => o.focused)?.label).toBe('No, and tell Claude what to do differently');
  });

  it('finds no dialog on an idle or a working screen, nor on a half-drawn one', () => {
    expect(parseDialog(screen('lead-idle.txt'))).toBeUndefined();
    expect(parseDialog(screen('lead-running.txt'))).toBeUndefined();
    const whole = screen('teammate-bash-dialog.txt');
    expect(parseDialog(whole.slice(0, whole.indexOf('2. Yes')))).toBeUndefined();
    expect(parseDialog(whole.replace('❯ 1. Yes', '  1. Yes'))).toBeUndefined();
    expect(parseDialog('Do you want to proceed?\n❯ 1. Yes\n  2. No')).toBeUndefined();
  });

  it('picks options by meaning and moves to them', () => {
    const d = parseDialog(screen('teammate-bash-dialog.txt'))!;
    const no = optionFor(d, 'deny');
    expect(no).toMatchObject({ n: 4 });
    expect(moveKeys(d, no as never)).toEqual(['Down', 'Down', 'Down']);
    expect(optionFor(d, 'allow')).toMatchObject({ n: 1 });
    expect(optionFor(d, 'allow-always')).toMatchObject({ n: 2 });
    expect(optionFor({ ...d, options: d.options.filter((o) => o.n !== 2) }, 'allow-always')).toMatch(/no "always allow"/);
  });

  it('keeps a reason on one line and compares commands without their wrapping', () => {
    expect(reasonLine('  use\nprintf\t\x1b[31m instead ')).toBe('use printf [31m instead');
    expect(squashed('touch a\n  b')).toBe(squashed('touch a b'));
  });
});
