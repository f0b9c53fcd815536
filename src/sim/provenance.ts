// How a Claude Code 2.1.332 reader rates each inbox entry (docs/claude-contract.md#provenance):
// what its own process wrote is verified; a reserved sender (user, team-lead, system, any case) or
// the name of the lead or an in-process teammate, not written by this process, is forged; any other
// sender (`teamdeck`) is unverifiable and delivered as it is.
import { createHash } from 'node:crypto';
import type { ClaudeMessage } from './claude-inbox.js';

export type Provenance = 'verified' | 'forged' | 'unverifiable';

export const RESERVED_NAMES = ['user', 'team-lead', 'system'] as const;

export function isReservedName(name: string): boolean {
  return (RESERVED_NAMES as readonly string[]).includes(name.trim().toLowerCase());
}

const identity = (m: ClaudeMessage) => createHash('sha256').update(`${m.from}|${m.timestamp}|${m.text}`).digest('hex');

/**
 * The messages one simulated Claude process wrote, by `msg_id` and content hash. The lead and
 * its in-process teammates share one (they share a process); a copy with the same id but other
 * content is not verified.
 */
export class Ledger {
  private readonly written = new Map<string, string>();

  record(m: ClaudeMessage): void {
    if (typeof m.msg_id === 'string') this.written.set(m.msg_id, identity(m));
  }

  wrote(m: ClaudeMessage): boolean {
    return typeof m.msg_id === 'string' && this.written.get(m.msg_id) === identity(m);
  }
}

/** `insiders`: the lead's and the in-process teammates' names, as the reading process knows them. */
export function classifyEntry(m: ClaudeMessage, ledger: Ledger, insiders: ReadonlySet<string>): Provenance {
  if (ledger.wrote(m)) return 'verified';
  if (isReservedName(m.from) || insiders.has(m.from)) return 'forged';
  return 'unverifiable';
}
