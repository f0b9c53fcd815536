// What the soak did and saw happen, as the account reads it: every send, each engine process's
// life with the journal as folded right after its kill, the journal folds, and the problems
// noticed on the way.
import type { Proc } from '../../test/helpers/engine-proc.js';

export interface SendCmd {
  seq: number;
  to: string;
  text: string;
}

/** One engine process's life. */
export interface Life {
  n: number;
  proc: Proc;
  /** When the parent told it to open the state dir (no engine writes before this). */
  openedAt: number;
  killedAt?: number;
  /** The journal as folded right after the kill. */
  fold?: { journaled: Set<string>; delivered: Set<string> };
}

export interface Happened {
  seed: number;
  seconds: number;
  sends: SendCmd[];
  lives: Life[];
  folds: { ok: number; failed: number; tornTails: number };
  problems: string[];
}

export function newHappened(seed: number, seconds: number): Happened {
  return { seed, seconds, sends: [], lives: [], folds: { ok: 0, failed: 0, tornTails: 0 }, problems: [] };
}
