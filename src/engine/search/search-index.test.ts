// Search through the real engine over real temp folders: what Claude appends to an inbox and
// what the user sends become findable while the engine runs; the index survives a restart, is
// rebuilt the same when it is deleted or damaged, reads only what is new after a restart, and
// finds an ended team's messages.
import { readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SearchResult } from '../../shared/contract.js';
import { claudeAppend } from '../../sim/claude-inbox.js';
import { tempTeams, writeTeam, type TempTeams } from '../../../test/helpers/team-fixture.js';
import { TeamService } from '../service/team-service.js';
import { indexFileOf, snippetRanges } from './search-index.js';

let t: TempTeams;
let svc: TeamService | undefined;
beforeEach(async () => {
  t = await tempTeams('td-search-');
});
afterEach(async () => {
  await svc?.stop();
  svc = undefined;
  await t.cleanup();
});

const inbox = (team: string, owner: string) => join(t.root, team, 'inboxes', `${owner}.json`);
const T0 = Date.parse('2026-03-02T09:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const legacy = (from: string, text: string, minutes: number) => ({ from, text, timestamp: at(minutes), read: false });

async function until<T>(f: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Two legacy teams with history in their inboxes: answers to the user, teammates' traffic. */
async function seed(): Promise<void> {
  await writeTeam(t.root, 'alpha', ['researcher', 'tester'], {
    inboxes: {
      user: [legacy('researcher', 'Found the flaky upload test: a race in the retry timer.', 1), legacy('tester', 'All green after the retry fix', 5)],
      'team-lead': [legacy('researcher', 'Plan: rewrite the upload retry loop', 2)],
    },
  });
  await writeTeam(t.root, 'beta', ['writer'], { inboxes: { user: [legacy('writer', 'The retry chapter is drafted', 3)] } });
}

const summary = (r: SearchResult) => r.hits.map((h) => [h.team, h.member ?? '(feed)', h.direction, h.snippet.text]);

describe('search through the engine', () => {
  it('finds words and phrases in every team, newest first, each hit with its thread and the match marked', async () => {
    await seed();
    svc = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false });
    await svc.start();
    const r = await svc.search({ query: 'retry' });
    expect(r.building).toBe(false);
    expect(summary(r)).toEqual([
      ['alpha', 'tester', 'member', 'All green after the retry fix'],
      ['beta', 'writer', 'member', 'The retry chapter is drafted'],
      ['alpha', '(feed)', 'team', 'Plan: rewrite the upload retry loop'],
      ['alpha', 'researcher', 'member', 'Found the flaky upload test: a race in the retry timer.'],
    ]);
    const first = r.hits[0]!;
    expect(first.snippet.ranges.map(([a, b]) => first.snippet.text.slice(a, b))).toEqual(['retry']);
    expect(first).toMatchObject({ teamName: 'alpha', from: 'tester', to: 'user', time: T0 + 5 * 60_000 });
    expect(summary(await svc.search({ query: '"upload test"' }))).toHaveLength(1);
    expect(summary(await svc.search({ query: 'upload test' })).map((h) => h[3])).toEqual([
      'Found the flaky upload test: a race in the retry timer.',
    ]);
    expect((await svc.search({ query: 'retry', team: 'beta' })).hits.map((h) => h.team)).toEqual(['beta']);
    expect((await svc.search({ query: 'nothinglikethis' })).hits).toEqual([]);
    await expect(svc.search({ query: '"*"' })).rejects.toThrow(/nothing to search for/);
  });

  it('pages with the cursor: each page older than the last, none twice', async () => {
    await seed();
    svc = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false });
    await svc.start();
    const ids: string[] = [];
    let before: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await svc.search({ query: 'retry', limit: 1, ...(before ? { before } : {}) });
      ids.push(...page.hits.map((h) => h.messageId));
      if (!page.more) break;
      before = page.next;
    }
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
  });

  it('a message appended to an inbox, and one the user sends, are findable while the engine runs', async () => {
    await seed();
    svc = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, rescanMs: 200 });
    await svc.start();
    await until(async () => ((await svc!.search({ query: 'drafted' })).hits.length ? true : undefined));
    await claudeAppend(inbox('alpha', 'user'), legacy('researcher', 'The zeppelin report is ready', 9));
    const hit = await until(async () => (await svc!.search({ query: 'zeppelin' })).hits[0]);
    expect(hit).toMatchObject({ team: 'alpha', member: 'researcher', direction: 'member', from: 'researcher' });
    const sent = await svc.send({ team: 'beta', to: 'writer', text: 'Please add a quokka to chapter two' });
    const mine = await until(async () => (await svc!.search({ query: 'quokka' })).hits[0]);
    expect(mine).toMatchObject({ team: 'beta', member: 'writer', direction: 'you', messageId: sent.id, to: 'writer' });
  });

  it('survives a restart, and is rebuilt the same when deleted or damaged', async () => {
    await seed();
    const once = async () => {
      svc = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false });
      await svc.start();
      const r = summary(await svc.search({ query: 'retry' }));
      const problems = svc.problems().filter((p) => p.file === 'search/index.sqlite');
      await svc.stop();
      svc = undefined;
      return { r, problems };
    };
    const first = await once();
    expect(first.r).toHaveLength(4);
    const file = indexFileOf(t.stateDir);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(t.stateDir, 'search'))).mode & 0o777).toBe(0o700);
    expect(await once()).toEqual({ r: first.r, problems: [] });

    await rm(file);
    expect((await once()).r).toEqual(first.r);

    // Garbage over the whole file: not a database any more.
    await writeFile(file, Buffer.alloc(8192, 0x5a));
    const damaged = await once();
    expect(damaged.r).toEqual(first.r);
    expect(damaged.problems.map((p) => p.message).join()).toMatch(/rebuilt from the journals/);
    expect((await readFile(`${file}.damaged`)).subarray(0, 4).toString()).toBe('ZZZZ');

    // A page in the middle torn, after an unclean stop (no clean mark): quick_check finds it.
    const bytes = await readFile(file);
    bytes.fill(0x5a, 4096, 8192);
    await writeFile(file, bytes);
    expect((await once()).r).toEqual(first.r);
  });

  it('after a restart reads only what was journaled meanwhile, and a second lead-less engine does not index twice', async () => {
    await seed();
    svc = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false });
    await svc.start();
    expect((await svc.search({ query: 'retry' })).hits).toHaveLength(4);
    await svc.stop();
    // An engine that never searches journals a send: the next one's index catches up on it.
    svc = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false });
    await svc.start();
    await svc.send({ team: 'alpha', to: 'tester', text: 'retry the narwhal suite' });
    await svc.stop();
    svc = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false });
    await svc.start();
    const r = await svc.search({ query: 'retry' });
    expect(summary(r)[0]).toEqual(['alpha', 'tester', 'you', 'retry the narwhal suite']);
    expect(r.hits).toHaveLength(5);
  });

  it("finds an ended team's messages: its folder gone, only its journal left", async () => {
    await seed();
    svc = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false });
    await svc.start();
    expect((await svc.search({ query: 'chapter' })).hits).toHaveLength(1);
    await svc.stop();
    svc = undefined;
    await rm(join(t.root, 'beta'), { recursive: true, force: true });
    // Rebuilt with the team ended: from its journal alone.
    await rm(indexFileOf(t.stateDir));
    svc = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false });
    await svc.start();
    expect((await svc.listTeams()).find((x) => x.id === 'beta')?.state).toBe('ended');
    const r = await svc.search({ query: 'chapter', team: 'beta' });
    expect(summary(r)).toEqual([['beta', 'writer', 'member', 'The retry chapter is drafted']]);
    expect(r.hits[0]!.teamName).toBe('beta');
  });

  it('a journal segment that cannot be opened is a problem, not skipped for good (its messages would never be found)', async () => {
    await seed();
    svc = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false });
    await svc.start();
    await svc.stop();
    // A segment after alpha's own that no open can follow: a link to itself (ELOOP).
    const seg = join(t.stateDir, 'journal', 'alpha', 'seg-00000009.jsonl');
    await symlink(seg, seg);
    svc = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false });
    await svc.start();
    await svc.search({ query: 'retry' });
    expect(svc.problems()).toContainEqual({ kind: 'journal', file: 'search/index.sqlite', message: expect.stringMatching(/^search index: journal\/alpha not indexed: ELOOP/) });
  });
});

describe('snippetRanges', () => {
  it('turns the marks into ranges of the plain text, surrogate pairs counted as the page counts them', () => {
    const r = snippetRanges('a \u0002b😀c\u0003 d \u0002e\u0003');
    expect(r.text).toBe('a b😀c d e');
    expect(r.ranges.map(([x, y]) => r.text.slice(x, y))).toEqual(['b😀c', 'e']);
  });
});
