// Argument parsing shared by every command: node:util parseArgs plus the options every command
// accepts (--teams-dir, --state-dir, --json, --help).
import { parseArgs } from 'node:util';

export type OptionSpec = { type: 'string' | 'boolean'; short?: string; multiple?: false };

export const COMMON_OPTIONS = {
  'teams-dir': { type: 'string' },
  'state-dir': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Record<string, OptionSpec>;

export const COMMON_HELP = [
  '  --teams-dir D   teams root (default: $TEAMDECK_TEAMS_DIR, $CLAUDE_CONFIG_DIR/teams, ~/.claude/teams)',
  '  --state-dir D   where Teamdeck keeps its journal (default: $TEAMDECK_STATE_DIR or the app-data folder)',
  '  --json          machine-readable output',
  '  -h, --help      this help',
];

/** Bad flags or arguments: usage on stderr, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface Common {
  teamsDir?: string;
  stateDir?: string;
  json: boolean;
  help: boolean;
}

export interface Parsed {
  common: Common;
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

export function parseCommandArgs(argv: string[], options: Record<string, OptionSpec>, allowPositionals: boolean): Parsed {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...COMMON_OPTIONS, ...options }, allowPositionals, strict: true });
  } catch (e) {
    // parseArgs messages already name the option; drop Node's hint about "--" noise.
    throw new UsageError((e as Error).message.split('\n')[0] ?? 'bad arguments');
  }
  const v = parsed.values as Record<string, string | boolean | undefined>;
  return {
    common: {
      teamsDir: typeof v['teams-dir'] === 'string' ? v['teams-dir'] : undefined,
      stateDir: typeof v['state-dir'] === 'string' ? v['state-dir'] : undefined,
      json: v.json === true,
      help: v.help === true,
    },
    values: v,
    positionals: parsed.positionals,
  };
}

export function stringOpt(p: Parsed, name: string): string | undefined {
  const v = p.values[name];
  return typeof v === 'string' ? v : undefined;
}

export function requireOpt(p: Parsed, name: string): string {
  const v = stringOpt(p, name);
  if (v === undefined || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

export function intOpt(p: Parsed, name: string, min = 0): number | undefined {
  const v = stringOpt(p, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer >= ${min}, not ${JSON.stringify(v)}`);
  return n;
}

export function numberOpt(p: Parsed, name: string, min: number, max: number): number | undefined {
  const v = stringOpt(p, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || n > max) throw new UsageError(`--${name} must be a number from ${min} to ${max}, not ${JSON.stringify(v)}`);
  return n;
}

/** "A,B" -> [A, B] with 0 <= A <= B. */
export function rangeOpt(p: Parsed, name: string): [number, number] | undefined {
  const v = stringOpt(p, name);
  if (v === undefined) return undefined;
  const parts = v.split(',').map((s) => Number(s.trim()));
  const [a, b] = parts.length === 1 ? [parts[0], parts[0]] : parts;
  if (parts.length > 2 || a === undefined || b === undefined || !Number.isInteger(a) || !Number.isInteger(b) || a < 0 || b < a) {
    throw new UsageError(`--${name} must be MIN,MAX milliseconds (integers, MIN <= MAX), not ${JSON.stringify(v)}`);
  }
  return [a, b];
}

export function listOpt(p: Parsed, name: string): string[] | undefined {
  const v = stringOpt(p, name);
  if (v === undefined) return undefined;
  const items = v.split(',').map((s) => s.trim()).filter(Boolean);
  if (items.length === 0) throw new UsageError(`--${name} needs at least one name`);
  return items;
}

export function noPositionals(p: Parsed): void {
  if (p.positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(p.positionals[0])}`);
}
