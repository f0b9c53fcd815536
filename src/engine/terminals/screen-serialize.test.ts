// The pty backend's screen model: the painted screen, written into a fresh terminal, gives the
// same text, colours, attributes, cursor and modes; the plain screen is one trimmed line per row.
import xtermHeadless from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { paintScreen, plainScreen } from './screen-serialize.js';

const { Terminal } = xtermHeadless;

const write = (t: InstanceType<typeof Terminal>, data: string) => new Promise<void>((r) => t.write(data, r));

function cellsOf(t: InstanceType<typeof Terminal>, y: number) {
  const line = t.buffer.active.getLine(t.buffer.active.baseY + y)!;
  const out: string[] = [];
  for (let x = 0; x < t.cols; x++) {
    const c = line.getCell(x)!;
    out.push([c.getChars(), c.getFgColorMode(), c.getFgColor(), c.getBgColorMode(), c.getBgColor(), c.isBold(), c.isItalic(), c.isUnderline(), c.isInverse()].join(','));
  }
  return out;
}

describe('screen serialization', () => {
  it('paints the same screen in a fresh terminal', async () => {
    const a = new Terminal({ cols: 30, rows: 6, allowProposedApi: true });
    await write(a, 'plain line\r\n\x1b[1;31mbold red\x1b[0m and \x1b[38;2;10;20;30;48;5;200mrgb on 200\x1b[0m\r\n');
    await write(a, '\x1b[3;4;7mitalic under inverse\x1b[0m\r\n宽字 wide\r\n\x1b[44m   \x1b[0m\x1b[?2004h\x1b[?1h\x1b[5;3H');
    const b = new Terminal({ cols: 30, rows: 6, allowProposedApi: true });
    await write(b, paintScreen(a, { cursorHidden: false }));
    expect(plainScreen(b)).toBe(plainScreen(a));
    for (let y = 0; y < 6; y++) expect(cellsOf(b, y)).toEqual(cellsOf(a, y));
    expect([b.buffer.active.cursorX, b.buffer.active.cursorY]).toEqual([2, 4]);
    expect(b.modes.bracketedPasteMode).toBe(true);
    expect(b.modes.applicationCursorKeysMode).toBe(true);
    expect(plainScreen(a).split('\n')).toEqual(['plain line', 'bold red and rgb on 200', 'italic under inverse', '宽字 wide', '   ', '']);
    a.dispose();
    b.dispose();
  });
});
