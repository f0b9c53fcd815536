// The two contracts of Claude Code Agent Teams, and how to tell which one a team follows.
// Everything that differs between them (the sender name, the entry shape, where answers come
// from) is decided here, so the rest of the engine asks the era instead of guessing.
//   legacy : named teams that outlive the lead; `from:"user"` is the human; answers land in
//            inboxes/user.json (the research notes and the captured fixtures).
//   current: Claude Code 2.1.2xx to 2.1.332; one `session-<8>` team per interactive lead,
//            deleted at its exit; reserved senders from outside are rated forged; no user mailbox.
import { MAX_SENDER_NAME, senderNameIssue } from '../../shared/sender-name.js';
import type { TeamEra } from '../../shared/types.js';
import type { TeamConfig } from './config.js';
import { userInboxEntry, type InboxEntry } from './inbox-writer.js';
import { LEGACY_SENDER } from './paths.js';

export { DEFAULT_SENDER_NAME, isReservedSender, MAX_SENDER_NAME, RESERVED_SENDERS } from '../../shared/sender-name.js';

// The legacy era's name for the human (also the stem of the user's mailbox there): defined with
// the inbox names, so modules that only need the name need not load this one.
export { LEGACY_SENDER };

/** Why a sender name cannot be used on current-era teams, or undefined when it can. */
export function senderNameProblem(name: string): string | undefined {
  switch (senderNameIssue(name)) {
    case 'empty':
      return 'the sender name must not be empty';
    case 'reserved':
      return `"${name}" is reserved by Claude Code: messages from it are rated forged`;
    case 'too-long':
      return `the sender name must be at most ${MAX_SENDER_NAME} characters`;
    case 'characters':
      return 'the sender name may only use letters, digits, "_" and "-"';
    case undefined:
      return undefined;
  }
}

/** A current-era team folder: `session-` and the first 8 hex digits of the lead's session id. */
const SESSION_TEAM = /^session-([0-9a-f]{8})$/;

/** The first 8 hex digits of the lead's session id a `session-<8 hex>` team is named after, or undefined for another name. */
export function sessionTeamPrefix(teamName: string): string | undefined {
  return SESSION_TEAM.exec(teamName)?.[1];
}

export interface EraEvidence {
  /** The team's folder name under the teams root. */
  teamId: string;
  config?: TeamConfig;
  /** An `inboxes/user.json` exists: only legacy Claude ever wrote one. */
  hasUserInbox?: boolean;
}

/**
 * Which contract a team follows (docs/claude-contract.md#eras): the `session-<8 hex>` folder or a
 * `leadProcess` in its config say current; legacy markers (a description, member prompts, a user
 * mailbox) or any other name say legacy.
 */
export function classifyEra(e: EraEvidence): TeamEra {
  const raw = e.config?.raw;
  if (e.config?.leadProcess) return 'current';
  if (e.hasUserInbox) return 'legacy';
  if (raw && (typeof raw.description === 'string' || memberHasPrompt(raw.members))) return 'legacy';
  if (SESSION_TEAM.test(e.teamId)) return 'current';
  return 'legacy';
}

function memberHasPrompt(members: unknown): boolean {
  return Array.isArray(members) && members.some((m) => m && typeof m === 'object' && typeof (m as { prompt?: unknown }).prompt === 'string');
}

/** The sender name Teamdeck writes into a team of this era. */
export function senderFor(era: TeamEra, senderName: string): string {
  return era === 'legacy' ? LEGACY_SENDER : senderName;
}

export interface OutgoingMessage {
  id: string;
  from: string;
  text: string;
  summary?: string;
  timestamp: string;
}

/**
 * The inbox entry for a message from Teamdeck, in Claude's key order with absent optionals
 * omitted (never `null`: Claude deletes entries with ill-typed fields).
 * - current: exactly Claude's own shape, `msg_id` carrying Teamdeck's id;
 * - legacy: `from:"user"` and the shape Teamdeck always wrote there (with `messageId` too).
 */
export function inboxEntryFor(era: TeamEra, m: OutgoingMessage): InboxEntry {
  if (era === 'legacy') return userInboxEntry(m.id, m.text, m.timestamp, m.summary);
  return {
    from: m.from,
    text: m.text,
    ...(m.summary ? { summary: m.summary } : {}),
    timestamp: m.timestamp,
    msgV: 1,
    msg_id: m.id,
    type: 'message',
    read: false,
  };
}

/** Names that can never be a send target: the legacy user mailbox and Claude's reserved names. */
export function isUnaddressable(name: string): boolean {
  return name.trim().toLowerCase() === LEGACY_SENDER || name.trim().toLowerCase() === 'system';
}

/**
 * Current era: the interactive lead polls `team-lead.json` only while it has teammates it
 * spawned itself (docs/claude-contract.md#inbox-reads). Spawned teammates carry the team's agent id
 * (`name@team`).
 */
export function leadReadsInbox(era: TeamEra, config: TeamConfig | undefined, leadName: string | undefined): boolean {
  if (era === 'legacy') return true;
  if (!config) return false;
  const team = config.name;
  return config.members.some((m) => m.name !== leadName && (!team || !m.agentId || m.agentId === `${m.name}@${team}`));
}
