import { describe, expect, it } from 'vitest';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { claudeAppend, claudeEntry } from '../../sim/claude-inbox.js';
import { writeTeam } from '../../../test/helpers/team-fixture.js';
import { teamsPerTest } from '../../../test/helpers/teams-per-test.js';
import { Journal } from '../journal/journal.js';
import { TeamService } from '../service/team-service.js';
import { INBOX_MARKS_FILE, markOf, RACY_MS, readInboxMarks, sameLooks, writeInboxMarks } from './inbox-marks.js';

const t = teamsPerTest();

const looks = { ino: 7, size: 120, mtimeMs: 1_000_000, ctimeMs: 1_000_000 };
const journalDir = () => join(t.stateDir, 'journal', 'alpha');

describe('markOf', () => {
  it('marks a read begun well after the file last changed, with what it found', () => {
    expect(markOf(looks, 120, 3, 1, 1_000_000 + RACY_MS)).toEqual({ ...looks, messages: 3, invalidEntries: 1 });
  });

  it('does not mark a file changed within RACY_MS of the read (a same-size write in the same clock tick would look the same)', () => {
    expect(markOf(looks, 120, 3, 0, 1_000_000 + RACY_MS - 1)).toBeUndefined();
    expect(markOf({ ...looks, ctimeMs: 1_000_500 }, 120, 3, 0, 1_000_000 + RACY_MS)).toBeUndefined();
  });

  it('does not mark a read whose bytes are not the size the lstat saw, or an empty file', () => {
    expect(markOf(looks, 121, 3, 0, 9_000_000)).toBeUndefined();
    expect(markOf({ ...looks, size: 0 }, 0, 0, 0, 9_000_000)).toBeUndefined();
  });

  it('sameLooks needs every one of inode, size, mtime and ctime', () => {
    expect(sameLooks(looks, { ...looks })).toBe(true);
    for (const k of ['ino', 'size', 'mtimeMs', 'ctimeMs'] as const) expect(sameLooks(looks, { ...looks, [k]: looks[k] + 1 })).toBe(false);
  });
});

describe('the marks file', () => {
  const mark = { ...looks, messages: 2, invalidEntries: 0 };

  it('is read back only for a journal that still ends where it did', async () => {
    await writeInboxMarks(t.base, { segment: 3, bytes: 900 }, new Map([['ann', mark]]));
    expect(await readInboxMarks(t.base, { segment: 3, bytes: 900 })).toEqual(new Map([['ann', mark]]));
    expect(await readInboxMarks(t.base, { segment: 3, bytes: 901 })).toBeUndefined();
    expect(await readInboxMarks(t.base, { segment: 4, bytes: 900 })).toBeUndefined();
  });

  it('reads as none when missing, not JSON, another shape, or a symbolic link; a bad entry is dropped alone', async () => {
    expect(await readInboxMarks(t.base, { segment: 0, bytes: 0 })).toBeUndefined();
    const file = join(t.base, INBOX_MARKS_FILE);
    await writeInboxMarks(t.base, { segment: 0, bytes: 0 }, new Map());
    await writeFile(file, '{"v":1,"journal":{"segment":0,"bytes":0},"inboxes":{"ann"');
    expect(await readInboxMarks(t.base, { segment: 0, bytes: 0 })).toBeUndefined();
    await writeFile(file, JSON.stringify({ v: 2, journal: { segment: 0, bytes: 0 }, inboxes: {} }));
    expect(await readInboxMarks(t.base, { segment: 0, bytes: 0 })).toBeUndefined();
    await writeFile(file, JSON.stringify({ v: 1, journal: { segment: 0, bytes: 0 }, inboxes: { ann: mark, bob: { ...mark, size: -1 }, cy: 'x' } }));
    expect([...(await readInboxMarks(t.base, { segment: 0, bytes: 0 }))!.keys()]).toEqual(['ann']);
    const real = join(t.base, 'elsewhere.json');
    await writeFile(real, await readFile(file));
    const linked = join(t.base, 'linked');
    await mkdir(linked);
    await symlink(real, join(linked, INBOX_MARKS_FILE));
    expect(await readInboxMarks(t.base, { segment: 0, bytes: 0 })).toBeDefined();
    expect(await readInboxMarks(linked, { segment: 0, bytes: 0 })).toBeUndefined();
  });
});

describe('a start with marks', () => {
  /** A team of three whose inboxes hold history, old enough to be marked (RACY_MS). */
  async function oldTeam(): Promise<void> {
    const inboxes = {
      ann: [claudeEntry({ from: 'team-lead', text: 'take the parser', timestamp: '2026-11-30T10:00:00.000Z' })],
      bob: [claudeEntry({ from: 'team-lead', text: 'take the tests', timestamp: '2026-11-30T10:00:01.000Z' })],
      'team-lead': [claudeEntry({ from: 'ann', text: 'parser done', timestamp: '2026-11-30T10:05:00.000Z' }), claudeEntry({ from: 'bob', text: 'tests done', timestamp: '2026-11-30T10:06:00.000Z' })],
    };
    await writeTeam(t.root, 'alpha', ['ann', 'bob'], { inboxes });
    // ctime cannot be set back: the files have to be older than RACY_MS for real.
    await new Promise((r) => setTimeout(r, RACY_MS + 100));
  }

  async function run(): Promise<TeamService> {
    const s = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false });
    await s.start();
    return s;
  }

  const texts = async (s: TeamService) => (await s.feed('alpha')).map((m) => m.text).sort();

  it('skips the inboxes the journal holds as they are, reads the one that changed, and shows the same history', async () => {
    await oldTeam();
    let s = await run();
    expect(s.inboxOpenings).toEqual({ read: 3, skipped: 0 });
    const before = await texts(s);
    const rosterBefore = await s.roster('alpha');
    await s.stop();
    expect(JSON.parse(await readFile(join(journalDir(), INBOX_MARKS_FILE), 'utf8')).inboxes).toHaveProperty('ann');

    s = await run();
    expect(s.inboxOpenings).toEqual({ read: 0, skipped: 3 });
    expect(await texts(s)).toEqual(before);
    expect(await s.roster('alpha')).toEqual(rosterBefore);
    await s.stop();

    // Claude appends while Teamdeck is away: that inbox is read, the others are not.
    await claudeAppend(join(t.root, 'alpha', 'inboxes', 'team-lead.json'), claudeEntry({ from: 'ann', text: 'one more thing' }));
    t.svc = await run();
    expect(t.svc.inboxOpenings).toEqual({ read: 1, skipped: 2 });
    expect(await texts(t.svc)).toEqual([...before, 'one more thing'].sort());
  });

  it('reads an inbox rewritten with the very same bytes (its times changed), and ignores marks of a journal that grew', async () => {
    await oldTeam();
    let s = await run();
    await s.stop();
    const bob = join(t.root, 'alpha', 'inboxes', 'bob.json');
    await writeFile(bob, await readFile(bob));
    s = await run();
    expect(s.inboxOpenings).toEqual({ read: 1, skipped: 2 });
    await s.stop();

    // A record added to the journal after the marks were written (as by a crash after a later
    // run appended): the journal no longer ends where the marks say, so every inbox is read.
    await new Promise((r) => setTimeout(r, RACY_MS + 100));
    s = await run();
    await s.stop();
    const { journal } = await Journal.open(journalDir());
    await journal.append({ t: 'observed', id: 'extra-1', from: 'ann', to: 'team-lead', text: 'appended later', timestamp: '2026-11-30T11:00:00.000Z', at: 1 });
    await journal.close();
    t.svc = await run();
    expect(t.svc.inboxOpenings).toEqual({ read: 3, skipped: 0 });
    expect(await texts(t.svc)).toContain('appended later');
  });

  it('reads an unchanged inbox that may still hold a receipt: a send recovered into it after it was read is taken at the next start', async () => {
    // A crash between the rename and the `delivered` record: the journal has the send queued,
    // the inbox has it, and Claude already flagged it read.
    const timestamp = '2026-11-30T10:00:00.000Z';
    await writeTeam(t.root, 'alpha', ['ann'], { inboxes: { ann: [{ from: 'user', text: 'hello', timestamp, read: true, type: 'message', msgV: 1, msg_id: 'sent-1', messageId: 'sent-1' }] } });
    const { journal } = await Journal.open(journalDir());
    await journal.append({ t: 'queued', id: 'sent-1', to: 'ann', from: 'user', text: 'hello', timestamp, at: 1 });
    await journal.close();
    await new Promise((r) => setTimeout(r, RACY_MS + 100));
    // The opening read comes before the recovery that journals the delivery: no receipt yet.
    let s = await run();
    expect((await s.thread('alpha', 'ann')).map((m) => [m.id, m.status])).toEqual([['sent-1', 'accepted']]);
    await s.stop();
    s = await run();
    expect((await s.thread('alpha', 'ann')).map((m) => [m.id, m.status])).toEqual([['sent-1', 'taken']]);
    expect(s.inboxOpenings).toEqual({ read: 1, skipped: 0 });
    t.svc = s;
  });

  it('a skipped inbox keeps its problem and its count', async () => {
    await writeTeam(t.root, 'alpha', ['ann'], { inboxes: { ann: [claudeEntry({ from: 'team-lead', text: 'ok', timestamp: '2026-11-30T10:00:00.000Z' }), 42] } });
    await new Promise((r) => setTimeout(r, RACY_MS + 100));
    const problems = async (x: TeamService) => (await x.listTeams()).flatMap((team) => team.problems.map((p) => p.message));
    const s = await run();
    const before = await problems(s);
    expect(before).toEqual(['1 entries are not messages and were skipped (left in the file)']);
    await s.stop();
    t.svc = await run();
    expect(t.svc.inboxOpenings).toEqual({ read: 0, skipped: 1 });
    expect(await problems(t.svc)).toEqual(before);
    expect(await texts(t.svc)).toEqual(['ok']);
  });

  it('does not mark an inbox read too soon after it changed: the next start reads it', async () => {
    await writeTeam(t.root, 'alpha', ['ann'], { inboxes: { ann: [claudeEntry({ from: 'team-lead', text: 'fresh' })] } });
    const s = await run();
    await s.stop();
    t.svc = await run();
    expect(t.svc.inboxOpenings).toEqual({ read: 1, skipped: 0 });
    expect(await texts(t.svc)).toEqual(['fresh']);
  });
});
