import type { OptionSpec, Parsed } from './args.js';
import type { Io } from './io.js';

/** Exit codes: 0 done, 1 internal error, 2 usage error or a refusal (nothing was written). */
export const EXIT = { ok: 0, internal: 1, refused: 2 } as const;

/** A command whose arguments main() parses (common options included) before run(). */
export interface ParsedCommand {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The synopsis, without the common options. */
  usage: string;
  /** Help lines for the command's own options. */
  help: string[];
  options: Record<string, OptionSpec>;
  positionals?: boolean;
  run(p: Parsed, io: Io): Promise<number>;
}

/** A command that takes its raw arguments and handles its own parsing, --help and errors. */
export interface ArgvCommand {
  name: string;
  summary: string;
  runArgv(argv: string[], io: Io): Promise<number>;
}

export type Command = ParsedCommand | ArgvCommand;
