// What Teamdeck did in a team's lead terminal for the user (answers to permission prompts,
// interrupts, plan answers), one JSON line each in `actions.jsonl` beside the team's journal,
// written and synced before the call returns: every key Teamdeck presses is on record, with
// what it answered, when, and from where. Apart from the message journal: these are not
// messages, and an old Teamdeck reading the journal must not meet a record it does not know.
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LeadAction } from '../../shared/types.js';

export const ACTIONS_FILE = 'actions.jsonl';
/** The newest actions read back for the feed and the activity. */
const READ_BACK = 500;

export function isLeadAction(v: unknown): v is LeadAction {
  if (!v || typeof v !== 'object') return false;
  const a = v as Record<string, unknown>;
  return (
    typeof a.id === 'string' &&
    typeof a.team === 'string' &&
    typeof a.member === 'string' &&
    (a.kind === 'answer' || a.kind === 'interrupt' || a.kind === 'plan') &&
    typeof a.what === 'string' &&
    typeof a.at === 'number' &&
    typeof a.where === 'string' &&
    Array.isArray(a.keys) &&
    typeof a.confirmed === 'boolean'
  );
}

/** Appends one action and syncs it. */
export async function appendAction(dir: string, action: LeadAction): Promise<void> {
  const fh = await open(join(dir, ACTIONS_FILE), 'a', 0o600);
  try {
    await fh.appendFile(`${JSON.stringify(action)}\n`, 'utf8');
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** The newest actions, oldest first; lines that do not parse (a torn last line) are left out. */
export async function readActions(dir: string): Promise<LeadAction[]> {
  let text: string;
  try {
    text = await readFile(join(dir, ACTIONS_FILE), 'utf8');
  } catch {
    return [];
  }
  const out: LeadAction[] = [];
  for (const line of text.split('\n').slice(-READ_BACK - 1)) {
    if (!line.trim()) continue;
    try {
      const v: unknown = JSON.parse(line);
      if (isLeadAction(v)) out.push(v);
    } catch {
      // torn
    }
  }
  return out;
}
