import { describe, expect, it } from 'vitest';
import * as schema from '../../../shared/contract-schema';
import { MAX_TERMINAL_INPUT, TERMINAL_COLS_RANGE, TERMINAL_ROWS_RANGE } from './terminal-limits';

describe('terminal limits', () => {
  it('are the contract’s own', () => {
    expect(MAX_TERMINAL_INPUT).toBe(schema.MAX_TERMINAL_INPUT);
    expect(TERMINAL_COLS_RANGE).toEqual(schema.TERMINAL_COLS_RANGE);
    expect(TERMINAL_ROWS_RANGE).toEqual(schema.TERMINAL_ROWS_RANGE);
  });

  it('let through exactly what the host’s schema accepts at the edges', () => {
    const input = schema.callArgsSchemas.terminalInput;
    expect(input.safeParse(['t-0123456789ab', 'x'.repeat(MAX_TERMINAL_INPUT)]).success).toBe(true);
    expect(input.safeParse(['t-0123456789ab', 'x'.repeat(MAX_TERMINAL_INPUT + 1)]).success).toBe(false);
    const resize = schema.callArgsSchemas.resizeTerminal;
    expect(resize.safeParse(['t-0123456789ab', TERMINAL_COLS_RANGE.max, TERMINAL_ROWS_RANGE.max]).success).toBe(true);
    expect(resize.safeParse(['t-0123456789ab', TERMINAL_COLS_RANGE.min - 1, TERMINAL_ROWS_RANGE.min]).success).toBe(false);
  });
});
