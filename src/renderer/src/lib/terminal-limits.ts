// The contract's bounds on terminal calls, for the renderer. They are defined in
// shared/contract-schema.ts, whose zod schemas would otherwise come into the renderer's bundle
// for three numbers (about 85 kB); terminal-limits.test.ts keeps these equal to those.
/** terminalInput: the most characters one call may carry. */
export const MAX_TERMINAL_INPUT = 65_536;
export const TERMINAL_COLS_RANGE = { min: 2, max: 1_000 } as const;
export const TERMINAL_ROWS_RANGE = { min: 1, max: 500 } as const;
