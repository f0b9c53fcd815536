// The engine's errors that reach a person: each carries a stable code (ErrorCode, in the shared
// contract: refused | not_found | invalid | state_busy | unavailable | internal), which every
// boundary (the contract's Result, the engine socket, the CLI's exit status) switches on. Never
// recover meaning from an error's name or message text.
import type { ErrorCode } from '../shared/contract.js';

export type { ErrorCode };

export class TeamdeckError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A send (or another call) the engine refused: nothing was written anywhere. */
export class SendRefusedError extends TeamdeckError {
  constructor(message: string) {
    super('refused', message);
  }
}

/** No team, or no member, of that name. */
export class TeamNotFoundError extends TeamdeckError {
  constructor(message: string) {
    super('not_found', message);
  }
}

/** Another process owns the state dir. */
export class StateDirBusyError extends TeamdeckError {
  constructor(message: string) {
    super('state_busy', message);
  }
}

/** The error's code, when it is one of ours; `internal` for anything else. */
export function errorCode(e: unknown): ErrorCode {
  return e instanceof TeamdeckError ? e.code : 'internal';
}
