// Which Claude Code versions Teamdeck was proven against, and what a team's version means. The
// one place the range is named: the CLI, the window and `doctor` all judge a version here, and
// the contract suite's pin (test/claude/harness/binary.ts) is the newest end of it
// (docs/claude-contract.md#versions).

/** The versions the contract suite passed on (docs/compatibility.md). */
export const PROVEN_CLAUDE = { oldest: '2.1.332', newest: '2.1.337' } as const;

/**
 * Older than this, Teamdeck says clearly what will not work. The oldest proven one: every rule in
 * the contract was checked on it, and none on anything older.
 */
export const OLDEST_SUPPORTED_CLAUDE = PROVEN_CLAUDE.oldest;

/** What leans on rules first checked on the oldest supported version, so may fail before it. */
export const NEEDS_SUPPORTED_CLAUDE = [
  "messages through the lead's messaging socket",
  "'seen' receipts from the members' transcripts",
  "the lead's status and permission asks from its sessions file",
  'launching and hosting a lead',
] as const;

/** A version string longer than this is not Claude's. */
const MAX_VERSION_CHARS = 40;

/** `v` when it can be a version Claude wrote (a row's `version`, a sessions file's, one remembered), else undefined. */
export function claudeVersionIn(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' && v.length <= MAX_VERSION_CHARS ? v : undefined;
}

export type ClaudeVersionKind = 'proven' | 'newer' | 'older' | 'unknown';

export interface ClaudeVersionVerdict {
  kind: ClaudeVersionKind;
  version: string;
  /** One line for a person; empty for a proven version. */
  words: string;
  /** With `older`: what will not work. */
  wontWork?: string[];
}

/** `2.1.337` (also `2.1.337 (Claude Code)`, `v2.1.337`) as numbers; undefined when it is not a version. */
export function parseClaudeVersion(v: string): [number, number, number] | undefined {
  const m = /^v?(\d{1,6})\.(\d{1,6})\.(\d{1,6})(?:$|[\s(+-])/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** Negative, zero or positive as a is older, the same or newer than b; undefined when either is not a version. */
export function compareClaudeVersions(a: string, b: string): number | undefined {
  const x = parseClaudeVersion(a);
  const y = parseClaudeVersion(b);
  if (!x || !y) return undefined;
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

export function provenRangeWords(): string {
  return `${PROVEN_CLAUDE.oldest}–${PROVEN_CLAUDE.newest}`;
}

/** What a team's (or the PATH's) Claude Code version means for Teamdeck. */
export function judgeClaudeVersion(raw: string): ClaudeVersionVerdict {
  const version = raw.trim();
  const parsed = parseClaudeVersion(version);
  if (!parsed) return { kind: 'unknown', version, words: `Claude Code "${version.slice(0, 60)}": not a version Teamdeck can compare with the ones it was tested with (${provenRangeWords()})` };
  const v = parsed.join('.');
  if (compareClaudeVersions(v, PROVEN_CLAUDE.newest)! > 0) {
    return { kind: 'newer', version: v, words: `Claude Code ${v}: newer than Teamdeck was tested with (${provenRangeWords()})` };
  }
  if (compareClaudeVersions(v, OLDEST_SUPPORTED_CLAUDE)! < 0) {
    return {
      kind: 'older',
      version: v,
      words: `Claude Code ${v} is older than the oldest version Teamdeck supports (${OLDEST_SUPPORTED_CLAUDE}); update it (claude update). What may not work: ${NEEDS_SUPPORTED_CLAUDE.join('; ')}`,
      wontWork: [...NEEDS_SUPPORTED_CLAUDE],
    };
  }
  return { kind: 'proven', version: v, words: '' };
}
