import { describe, expect, it } from 'vitest';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { claudeEntry } from '../../sim/claude-inbox.js';
import { writeTeam } from '../../../test/helpers/team-fixture.js';
import { teamsPerTest } from '../../../test/helpers/teams-per-test.js';
import { TeamService } from '../service/team-service.js';
import { Journal, JournalError, segName, TEXT_LEFT_ON_DISK_FROM, type ObservedRecord } from './journal.js';
import { readTexts } from './journal-texts.js';

const t = teamsPerTest();

const long = (words: string) => `${words} `.repeat(Math.ceil(TEXT_LEFT_ON_DISK_FROM / (words.length + 1)) + 1).trim();

function observed(id: string, fields: Partial<ObservedRecord> & { text: string }): ObservedRecord {
  return { t: 'observed', id, from: 'ann', to: 'bob', timestamp: '2026-11-30T10:00:00.000Z', at: 1_796_000_000_000, ...fields };
}

/** A journal folder holding these records in one segment, as the engine writes them. */
async function journalOf(records: ObservedRecord[]): Promise<string> {
  const dir = join(t.base, 'journal');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, segName(0)), records.map((r) => JSON.stringify(r) + '\n').join(''));
  return dir;
}

describe('observed texts left in the journal', () => {
  // Multi-byte text before the others: the references are byte offsets, not characters.
  const records = [
    observed('cyrillic', { text: long('проверь парсер, пожалуйста 🙂') }),
    observed('plain', { text: long('the orders migration is done') }),
    observed('short', { text: 'ok' }),
    observed('frame', { text: JSON.stringify({ type: 'idle_notification', from: 'ann', result: long('a long final answer') }) }),
    observed('to-user', { to: 'user', text: long('an answer for the user') }),
    observed('from-user', { from: 'user', text: long('a question from the user') }),
    observed('transcript', { source: 'transcript', text: long('an answer found in a transcript') }),
    // The user's words read from a transcript, written under Teamdeck's name: a member's thread
    // shows them (a second copy Claude delivered, one Teamdeck did not journal sending).
    observed('sent-as', { from: 'teamdeck', sentAs: 'teamdeck', via: 'teamdeck', byText: true, text: long('a question the user sent as teamdeck') }),
    // A frame behind a BOM and spaces is still a frame (parseFrame reads it): it keeps its text.
    observed('bom-frame', { text: '\uFEFF  ' + JSON.stringify({ type: 'shutdown_request', reason: long('the work is done') }) }),
  ];

  it('keeps only a reference for long plain messages between members, and the text of everything else', async () => {
    const { journal, state } = await Journal.open(await journalOf(records));
    try {
      for (const id of ['cyrillic', 'plain']) {
        expect(state.observed.get(id)!.text).toBeUndefined();
        expect(state.observed.get(id)!.ref).toMatchObject({ seg: 0 });
      }
      for (const id of ['short', 'frame', 'to-user', 'from-user', 'transcript', 'sent-as', 'bom-frame']) {
        expect(state.observed.get(id)!.text).toBe(records.find((r) => r.id === id)!.text);
        expect(state.observed.get(id)!.ref).toBeUndefined();
      }
      const texts = await readTexts(journal.dir, state.observed.values());
      expect(texts.size).toBe(2);
      expect(texts.get(state.observed.get('cyrillic')!)).toBe(records[0]!.text);
      expect(texts.get(state.observed.get('plain')!)).toBe(records[1]!.text);
    } finally {
      await journal.close();
    }
  });

  it('fails loudly, naming the message, when the segment changed under the engine', async () => {
    const dir = await journalOf(records);
    const { journal, state } = await Journal.open(dir);
    await journal.close();
    // The same lines one byte further on: every reference now points at the wrong bytes.
    const file = join(dir, segName(0));
    await writeFile(file, ' ' + (await readFile(file, 'utf8')));
    await expect(readTexts(dir, [state.observed.get('plain')!])).rejects.toThrow(JournalError);
    await expect(readTexts(dir, [state.observed.get('plain')!])).rejects.toThrow(/message plain/);
  });

  it('read back in bytes from a segment that is not valid UTF-8, as the fold decoded it', async () => {
    const dir = await journalOf(records);
    const file = join(dir, segName(0));
    // A stray byte inside the first text: the line still parses, with a replacement character,
    // and every later line's offset counts it as the one byte it is.
    const bytes = await readFile(file);
    const at = bytes.indexOf(Buffer.from('проверь'));
    await writeFile(file, Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff]), bytes.subarray(at)]));
    const { journal, state } = await Journal.open(dir);
    try {
      const texts = await readTexts(dir, state.observed.values());
      expect(texts.get(state.observed.get('cyrillic')!)).toBe('\uFFFD' + records[0]!.text);
      expect(texts.get(state.observed.get('plain')!)).toBe(records[1]!.text);
    } finally {
      await journal.close();
    }
  });

  it('read back from a last line the engine repaired (its newline was missing), and from a later segment', async () => {
    const dir = await journalOf(records);
    const file = join(dir, segName(0));
    const whole = await readFile(file, 'utf8');
    await writeFile(file, whole.slice(0, -1));
    const first = await Journal.open(dir);
    const texts = await readTexts(dir, first.state.observed.values());
    expect(texts.get(first.state.observed.get('plain')!)).toBe(records[1]!.text);
    await first.journal.compact(first.state);
    const later = observed('later', { text: long('written after the compaction') });
    await first.journal.append(later);
    await first.journal.close();
    const again = await Journal.open(dir);
    try {
      const o = again.state.observed.get('later')!;
      expect(o.ref).toMatchObject({ seg: 1 });
      expect((await readTexts(dir, [o])).get(o)).toBe(later.text);
    } finally {
      await again.journal.close();
    }
  });

  it('a compaction that cannot read them back changes nothing, says why, and is not tried again', async () => {
    const dir = await journalOf(records);
    const { journal, state } = await Journal.open(dir);
    const file = join(dir, segName(0));
    await writeFile(file, ' ' + (await readFile(file, 'utf8')));
    try {
      await expect(journal.compact(state)).rejects.toThrow(/not compacted: .*message cyrillic|not compacted: .*message plain/);
      expect(await readdir(dir)).toEqual([segName(0)]);
      await expect(journal.compact(state)).resolves.toBeUndefined();
      expect(await readdir(dir)).toEqual([segName(0)]);
      expect(state.observed.get('plain')!.ref).toBeDefined();
    } finally {
      await journal.close();
    }
  });

  it('are taken into memory when the journal is compacted, and the snapshot holds them', async () => {
    const dir = await journalOf(records);
    const first = await Journal.open(dir);
    await first.journal.compact(first.state);
    expect(first.state.observed.get('plain')!.text).toBe(records[1]!.text);
    expect(first.state.observed.get('plain')!.ref).toBeUndefined();
    await first.journal.close();
    expect((await readdir(dir)).filter((n) => n.startsWith('seg-'))).toEqual([segName(1)]);
    const again = await Journal.open(dir);
    try {
      for (const r of records) expect(again.state.observed.get(r.id)!.text).toBe(r.text);
    } finally {
      await again.journal.close();
    }
  });
});

describe('the feed and export of a team whose history was folded from its journal', () => {
  it('show every text, the ones left on disk read back', async () => {
    const words = long('the nightly export job is done, the numbers match');
    await writeTeam(t.root, 'alpha', ['ann', 'bob'], {
      inboxes: { bob: [claudeEntry({ from: 'ann', text: words, timestamp: '2026-11-30T10:00:00.000Z' })], ann: [claudeEntry({ from: 'bob', text: 'thanks', timestamp: '2026-11-30T10:01:00.000Z' })] },
    });
    const run = async () => {
      const s = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false });
      await s.start();
      return s;
    };
    let s = await run();
    await s.stop();
    // The second start folds the journal: the long text is left there.
    t.svc = s = await run();
    const feed = await s.feed('alpha');
    expect(feed.map((m) => m.text)).toEqual([words, 'thanks']);
    const md = await s.export({ team: 'alpha', format: 'md' });
    expect(md.text).toContain(words.slice(0, 40));
    // The feed did read the text back from the journal: with its lines moved, it fails (and says why).
    const seg = join(t.stateDir, 'journal', 'alpha', segName(0));
    await writeFile(seg, ' ' + (await readFile(seg, 'utf8')));
    await expect(s.feed('alpha')).rejects.toThrow(/journal changed since it was folded/);
  });
});
