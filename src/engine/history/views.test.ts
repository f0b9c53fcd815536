// A sent message's status in its thread, from a real journal folded as the engine folds it: a
// reply tied to the message makes it `replied` even when it came before the message was seen to
// be taken (the lead's reply on its messaging socket can beat its transcript row).
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../test/helpers/tmp.js';
import type { JournalRecord } from '../journal/journal.js';
import { TeamHistory } from '../journal/team-history.js';
import { Team } from '../team/team.js';
import { threadOf, type SentNotes } from './views.js';

const LEAD = 'team-lead';
/** Nothing waits and Claude said nothing on its socket: the statuses come from the journal alone. */
const NO_NOTES: SentNotes = { waitReason: () => undefined, peerNote: () => undefined };
const T0 = Date.parse('2026-12-03T10:00:00.000Z');
let base: string;
let history: TeamHistory | undefined;

beforeEach(async () => {
  base = await makeTempDir();
});
afterEach(async () => {
  await history?.close();
  history = undefined;
  await rm(base, { recursive: true, force: true });
});

/** A current-era team whose journal holds these records, folded and noted as the engine does. */
async function teamWith(records: JournalRecord[]): Promise<Team> {
  const dir = join(base, 'journal', 'session-1');
  ({ history } = await TeamHistory.open(dir));
  await history.commit(...records);
  const rt = new Team('session-1', history, { era: 'current', members: [{ name: LEAD, inboxName: LEAD, isLead: true, inConfig: true }] });
  for (const o of history.observed.values()) rt.facts.noteObserved(o, rt.era);
  return rt;
}

const sent: JournalRecord[] = [
  { t: 'queued', id: 'm1', to: LEAD, from: 'teamdeck', text: 'SOCK-1 how is it going?', timestamp: new Date(T0).toISOString(), at: T0, channel: 'socket' },
  { t: 'delivered', id: 'm1', to: LEAD, at: T0 + 10 },
];

describe("a sent message's status", () => {
  it('is accepted once delivered, while nothing says it was taken or answered', async () => {
    const rt = await teamWith(sent);
    expect(threadOf(rt, LEAD, NO_NOTES).map((m) => [m.id, m.status])).toEqual([['m1', 'accepted']]);
  });

  it("is replied when the lead's socket reply names it, though its transcript row was not read yet", async () => {
    const reply: JournalRecord = {
      t: 'observed',
      id: 'peer-r1',
      from: LEAD,
      to: 'teamdeck',
      text: 'Socket reply to SOCK-1.',
      timestamp: new Date(T0 + 500).toISOString(),
      at: T0 + 500,
      source: 'socket',
      replyTo: ['m1'],
    };
    const rt = await teamWith([...sent, reply]);
    expect(threadOf(rt, LEAD, NO_NOTES).map((m) => [m.from, m.text, m.status ?? m.source])).toEqual([
      ['user', 'SOCK-1 how is it going?', 'replied'],
      [LEAD, 'Socket reply to SOCK-1.', 'socket'],
    ]);
  });

  it('is seen, not replied, when its transcript row was read and no answer names it', async () => {
    const rt = await teamWith([...sent, { t: 'seen', id: 'm1', to: LEAD, at: T0 + 300 }]);
    rt.facts.noteTranscribed(LEAD);
    expect(threadOf(rt, LEAD, NO_NOTES).map((m) => m.status)).toEqual(['seen']);
  });
});
