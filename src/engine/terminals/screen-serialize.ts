// The screen of a headless xterm (the pty backend's model of a lead's terminal) as text: plain,
// one line per row, for "is a dialog open"; or as terminal output that paints the same screen,
// colours, cursor and input modes included, in a viewer that joins late.
import type { IBufferCell, Terminal } from '@xterm/headless';

/** The visible rows as plain text, trailing blanks trimmed, joined by `\n`. */
export function plainScreen(term: Terminal): string {
  const buf = term.buffer.active;
  const rows: string[] = [];
  for (let y = 0; y < term.rows; y++) rows.push(buf.getLine(buf.baseY + y)?.translateToString(true) ?? '');
  return rows.join('\n');
}

function colour(mode: 'fg' | 'bg', cell: IBufferCell): string | undefined {
  const fg = mode === 'fg';
  const value = fg ? cell.getFgColor() : cell.getBgColor();
  if (fg ? cell.isFgRGB() : cell.isBgRGB()) return `${fg ? 38 : 48};2;${(value >> 16) & 0xff};${(value >> 8) & 0xff};${value & 0xff}`;
  if (!(fg ? cell.isFgPalette() : cell.isBgPalette())) return undefined;
  if (value < 8) return String((fg ? 30 : 40) + value);
  if (value < 16) return String((fg ? 90 : 100) + value - 8);
  return `${fg ? 38 : 48};5;${value}`;
}

/** The SGR parameters that give a cell its look, from a reset. */
function sgr(cell: IBufferCell): string {
  const p = ['0'];
  if (cell.isBold()) p.push('1');
  if (cell.isDim()) p.push('2');
  if (cell.isItalic()) p.push('3');
  if (cell.isUnderline()) p.push('4');
  if (cell.isBlink()) p.push('5');
  if (cell.isInverse()) p.push('7');
  if (cell.isInvisible()) p.push('8');
  if (cell.isStrikethrough()) p.push('9');
  if (cell.isOverline()) p.push('53');
  const fg = colour('fg', cell);
  const bg = colour('bg', cell);
  if (fg) p.push(fg);
  if (bg) p.push(bg);
  return p.join(';');
}

export interface PaintState {
  cursorHidden: boolean;
}

/**
 * Output that paints `term`'s visible screen in a fresh terminal of the same size: clear, each
 * row with its attributes, the input modes the program turned on, the cursor where it is.
 */
export function paintScreen(term: Terminal, state: PaintState): string {
  const buf = term.buffer.active;
  const cell = buf.getNullCell();
  const out: string[] = ['\x1b[0m\x1b[H\x1b[2J'];
  for (let y = 0; y < term.rows; y++) {
    const line = buf.getLine(buf.baseY + y);
    if (y > 0) out.push('\r\n');
    if (!line) continue;
    // Up to the last cell that shows something (a character, or a background).
    let end = line.length;
    while (end > 0) {
      const c = line.getCell(end - 1, cell);
      if (c && ((c.getChars() !== '' && c.getChars() !== ' ') || !c.isBgDefault() || c.isInverse())) break;
      end--;
    }
    let last = '0';
    out.push('\x1b[0m');
    for (let x = 0; x < end; x++) {
      const c = line.getCell(x, cell);
      if (!c || c.getWidth() === 0) continue;
      const look = sgr(c);
      if (look !== last) {
        out.push(`\x1b[${look}m`);
        last = look;
      }
      out.push(c.getChars() || ' ');
    }
  }
  const m = term.modes;
  const modes = [
    m.bracketedPasteMode ? '\x1b[?2004h' : '',
    m.applicationCursorKeysMode ? '\x1b[?1h' : '',
    m.applicationKeypadMode ? '\x1b=' : '',
    m.sendFocusMode ? '\x1b[?1004h' : '',
    { none: '', x10: '\x1b[?9h', vt200: '\x1b[?1000h', drag: '\x1b[?1002h', any: '\x1b[?1003h' }[m.mouseTrackingMode],
  ].join('');
  out.push(`\x1b[0m${modes}\x1b[${buf.cursorY + 1};${buf.cursorX + 1}H\x1b[?25${state.cursorHidden ? 'l' : 'h'}`);
  return out.join('');
}
