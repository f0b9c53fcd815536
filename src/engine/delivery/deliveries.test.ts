// The inbox write of a send is prepared while its `queued` record is synced, and nothing of it
// is shown before that record is durable: these tests hold the record back (a slow journal).
import { describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TeamService } from '../service/team-service.js';
import type { Team, TeamCore } from '../team/team.js';
import type { Journal, JournalRecord } from '../journal/journal.js';
import { writeTeam } from '../../../test/helpers/team-fixture.js';
import { teamsPerTest } from '../../../test/helpers/teams-per-test.js';

const t = teamsPerTest();

const inboxes = () => join(t.root, 'alpha', 'inboxes');
const inboxText = async () => readFile(join(inboxes(), 'researcher.json'), 'utf8').catch(() => '');
const temps = async () => (await readdir(inboxes())).filter((n) => n.includes('.tmp.'));
const journalKinds = async () =>
  (await readFile(join(t.stateDir, 'journal', 'alpha', 'seg-00000000.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as JournalRecord).t);

async function until(cond: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Starts the engine on team alpha and holds every `queued` record back until `release`. */
async function slowJournal(fail?: Error) {
  await writeTeam(t.root, 'alpha', ['researcher']);
  t.svc = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false });
  await t.svc.start();
  const rt = (t.svc as unknown as { teams: Map<string, Team> }).teams.get('alpha')!;
  // The journal behind the team's history: its appends are where the disk is slow (or fails).
  const journal = (rt.history as unknown as { journal: Journal }).journal;
  const append = journal.append.bind(journal);
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let held = true;
  journal.append = (...records: JournalRecord[]) => {
    if (!held || records[0]?.t !== 'queued') return append(...records);
    return gate.then(() => {
      if (fail) throw fail;
      return append(...records);
    });
  };
  return {
    rt,
    release: () => {
      held = false;
      release();
    },
  };
}

describe('a send into an inbox while its queued record is being synced', () => {
  it('has the new inbox written to its temp file meanwhile, and shows it only once the record is durable', async () => {
    const j = await slowJournal();
    let answered = false;
    const sent = t.svc!.send({ team: 'alpha', to: 'researcher', text: 'held back' }).finally(() => (answered = true));
    // The temp file is there while the record is still held: the write did not wait for it.
    await until(async () => (await temps()).length > 0);
    await new Promise((r) => setTimeout(r, 50));
    expect(await inboxText()).not.toContain('held back');
    expect(answered).toBe(false);
    j.release();
    const r = await sent;
    expect(r.status).toBe('accepted');
    expect(await inboxText()).toContain('held back');
    expect(await temps()).toEqual([]);
    expect(await journalKinds()).toEqual(['queued', 'delivered']);
    expect((await t.svc!.thread('alpha', 'researcher')).map((m) => [m.text, m.status])).toEqual([['held back', 'accepted']]);
  });

  it('fails the send when the record cannot be written: nothing reaches the inbox, and the next send is delivered', async () => {
    const j = await slowJournal(new Error('disk gone'));
    const sent = t.svc!.send({ team: 'alpha', to: 'researcher', text: 'never stored' });
    await until(async () => (await temps()).length > 0);
    j.release();
    await expect(sent).rejects.toThrow('disk gone');
    expect(await inboxText()).not.toContain('never stored');
    expect(await temps()).toEqual([]);
    const next = await t.svc!.send({ team: 'alpha', to: 'researcher', text: 'stored' });
    expect(next.status).toBe('accepted');
    const text = await inboxText();
    expect(text).toContain('stored');
    expect(text).not.toContain('never stored');
    expect(await journalKinds()).toEqual(['queued', 'delivered']);
    expect((await t.svc!.thread('alpha', 'researcher')).map((m) => m.text)).toEqual(['stored']);
  });

  it('writes nothing to a team Teamdeck learnt had ended while it waited for the record', async () => {
    const j = await slowJournal();
    const sent = t.svc!.send({ team: 'alpha', to: 'researcher', text: 'too late' });
    await until(async () => (await temps()).length > 0);
    // As the lifecycle ends a team (it holds the team's core; the test reaches it the same way).
    (j.rt as unknown as { core: TeamCore }).core.ended = { at: Date.now(), reason: 'its lead exited' };
    j.release();
    const r = await sent;
    expect(r.status).toBe('undeliverable');
    expect(r.reason).toContain('ended');
    expect(await inboxText()).not.toContain('too late');
    expect(await temps()).toEqual([]);
    expect(await journalKinds()).toEqual(['queued', 'undeliverable']);
  });

  it('keeps call order for sends made while earlier records are still held', async () => {
    const j = await slowJournal();
    const sends = ['one', 'two', 'three'].map((text) => t.svc!.send({ team: 'alpha', to: 'researcher', text }));
    await until(async () => (await temps()).length > 0);
    j.release();
    expect((await Promise.all(sends)).map((r) => r.status)).toEqual(['accepted', 'accepted', 'accepted']);
    const texts = (JSON.parse(await inboxText()) as Array<{ text: string }>).map((m) => m.text);
    expect(texts).toEqual(['one', 'two', 'three']);
  });
});
