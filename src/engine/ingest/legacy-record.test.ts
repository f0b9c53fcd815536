// A legacy team (early-2026 Claude: a named team, `from:"user"` is the human, answers land in
// inboxes/user.json, entries carry no msg_id) whose lead's transcripts are on disk too: the
// record is merged with its inboxes and user.json as a current team's is, each message once,
// live and after a restart. The team folder is a captured one (test/fixtures/claude-captured);
// the transcripts are written in Claude's row shapes by the simulator (src/sim/team-record.ts),
// with the SendMessage results legacy Claude gave (no msg_id).
import { appendFile, cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CAPTURED_DIR, makeTempDir } from '../../../test/helpers/tmp.js';
import { claudeAppend } from '../../sim/claude-inbox.js';
import { MemorySink, TeamRecord } from '../../sim/team-record.js';
import { TeamService } from '../service/team-service.js';

const TEAM = 'moonlit-chasing-meerkat';
const FIXTURE = join(CAPTURED_DIR, 'teams-live', TEAM);
const SESSION = 'bff9d83d-b855-4345-a44c-cbcc6837d3be';
const CWD = '/Users/fr162241/.hive/worktrees/hive/test-slow';
/** What the fixture's inboxes hold already (doc-writer-1 to the lead, the lead to doc-writer-1). */
const FIXTURE_TEXT = 'Thanks for checking! Those files were already completed in a previous commit. Stand by while the other teammates finish their work.';

let base: string;
let config: string;
let teams: string;
let svc: TeamService | undefined;

beforeEach(async () => {
  base = await makeTempDir('teamdeck-legacy-record-');
  config = join(base, '.claude');
  teams = join(config, 'teams');
  await mkdir(teams, { recursive: true });
});
afterEach(async () => {
  await svc?.stop();
  svc = undefined;
  await rm(base, { recursive: true, force: true });
});

async function start(): Promise<TeamService> {
  await svc?.stop();
  svc = new TeamService({ teamsRoot: teams, stateDir: join(base, 'state'), configDir: config, rescanMs: 100 });
  await svc.start();
  return svc;
}

async function until<T>(what: string, f: () => Promise<T | undefined | false>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The captured team, its config as Claude wrote it, or without its lead's session. */
async function legacyTeam(withSession = true): Promise<void> {
  await cp(FIXTURE, join(teams, TEAM), { recursive: true });
  if (withSession) return;
  const cfg = JSON.parse(await readFile(join(FIXTURE, 'config.json'), 'utf8'));
  delete cfg.leadSessionId;
  await writeFile(join(teams, TEAM, 'config.json'), JSON.stringify(cfg, null, 2));
}

const inbox = (owner: string) => join(teams, TEAM, 'inboxes', `${owner}.json`);

/** The team's transcripts; `flush` appends to the files what was made since the last flush (as Claude appends). */
function record(): { r: TeamRecord; flush: () => Promise<void> } {
  const sink = new MemorySink();
  const r = new TeamRecord({ teamsDir: teams, sessionId: SESSION, cwd: CWD, sink, team: TEAM, legacy: true });
  const written = new Map<string, number>();
  const flush = async () => {
    for (const [path, lines] of sink.lines) {
      const from = written.get(path) ?? 0;
      if (from === lines.length) continue;
      await mkdir(dirname(path), { recursive: true });
      await appendFile(path, lines.slice(from).join('\n') + '\n');
      written.set(path, lines.length);
    }
    for (const [path, text] of sink.files) await writeFile(path, text);
  };
  return { r, flush };
}

const iso = (ms: number) => new Date(ms).toISOString();
type Shown = { from: string; to: string; text: string };
const count = (list: Shown[], text: string) => list.filter((m) => m.text === text).length;
const pairs = (list: Shown[], text: string) => list.filter((m) => m.text === text).map((m) => `${m.from}->${m.to}`);

const ASK = 'Which files are you taking?';
const MINE = 'types.rs and events.rs; you take config.rs and notification.rs.';
const QUESTION = 'Is the events.rs comment done yet?';
const ANSWER = 'Yes: events.rs has its module comment, five lines, describing HiveEvent and EventReader.';
const AFTER = 'Told the user events.rs is done.';

describe('a legacy team with transcripts', () => {
  it("shows each message once: teammates' traffic, the user's send, the answer in user.json and in the transcript; the same after a restart", async () => {
    await legacyTeam();
    const { r, flush } = record();
    const t0 = Date.now() - 60_000;
    r.typed('Add module-level documentation to all Hive modules.', t0);
    r.spawn(
      [
        { name: 'doc-writer-1', description: 'Docs for types and events', prompt: 'Add module-level doc comments to src/types.rs and src/events.rs.', color: 'blue', model: 'haiku' },
        { name: 'doc-writer-2', description: 'Docs for config', prompt: 'Add module-level doc comments to src/config.rs.', color: 'green', model: 'haiku' },
      ],
      t0 + 1_000,
    );
    // Teammate to teammate: one only in the transcripts (its entry was pruned), one whose entry
    // legacy Claude kept in the recipient's inbox as read (its id derived from from|timestamp|text).
    const ask = r.send('doc-writer-2', 'doc-writer-1', ASK, 'Files?', t0 + 5_000);
    r.toMate('doc-writer-1', [ask], t0 + 6_000);
    const mine = r.send('doc-writer-1', 'doc-writer-2', MINE, 'My files', t0 + 7_000);
    r.toMate('doc-writer-2', [mine], t0 + 8_000);
    await writeFile(inbox('doc-writer-2'), '[]');
    await claudeAppend(inbox('doc-writer-2'), { from: 'doc-writer-1', text: MINE, summary: 'My files', timestamp: iso(mine.at), color: 'blue', read: true });
    await flush();

    let s = await start();
    expect((await s.listTeams()).find((t) => t.id === TEAM)).toMatchObject({ era: 'legacy', sendAs: 'user' });
    const feed = await until('the transcripts read', async () => {
      const f = await s.feed(TEAM);
      return f.some((m) => m.text === ASK) && f;
    });
    expect(pairs(feed, ASK)).toEqual(['doc-writer-2->doc-writer-1']);
    expect(pairs(feed, MINE)).toEqual(['doc-writer-1->doc-writer-2']);
    // The inboxes still read as before.
    expect(pairs(feed, FIXTURE_TEXT)).toEqual(['team-lead->doc-writer-1']);

    // The user asks doc-writer-1 through Teamdeck: written as "user", as Teamdeck writes on legacy teams.
    const sent = await s.send({ team: TEAM, to: 'doc-writer-1', text: QUESTION });
    expect(sent.status).toBe('accepted');
    const entries = JSON.parse(await readFile(inbox('doc-writer-1'), 'utf8')) as Array<{ from: string; text: string }>;
    expect(entries.filter((e) => e.text === QUESTION).map((e) => e.from)).toEqual(['user']);
    // Its model takes it (a block from "user"), answers with SendMessage to user, which legacy
    // Claude writes to user.json (read first here), and ends its turn.
    const now = Date.now();
    r.toMate('doc-writer-1', [r.external('user', 'doc-writer-1', QUESTION, undefined, now)], now);
    const answer = r.send('doc-writer-1', 'user', ANSWER, 'events.rs done', now + 1_000);
    await claudeAppend(inbox('user'), { from: 'doc-writer-1', text: ANSWER, summary: 'events.rs done', timestamp: iso(answer.at), color: 'blue', read: false });
    await until('the answer in user.json', async () => (await s.feed(TEAM)).some((m) => m.text === ANSWER));
    r.mateSays('doc-writer-1', AFTER, now + 2_000);
    await flush();
    await until('the turn read', async () => (await s.feed(TEAM)).some((m) => m.text === AFTER));

    const check = async (svc: TeamService) => {
      const feed = await svc.feed(TEAM);
      expect(pairs(feed, QUESTION)).toEqual(['user->doc-writer-1']);
      expect(pairs(feed, ANSWER)).toEqual(['doc-writer-1->user']);
      expect(pairs(feed, ASK)).toEqual(['doc-writer-2->doc-writer-1']);
      expect(pairs(feed, MINE)).toEqual(['doc-writer-1->doc-writer-2']);
      expect(count(feed, FIXTURE_TEXT)).toBe(1);
      const thread = (await svc.thread(TEAM, 'doc-writer-1')).filter((m) => [QUESTION, ANSWER, AFTER].includes(m.text));
      expect(thread.map((m) => [m.from, m.to, m.text])).toEqual([
        ['user', 'doc-writer-1', QUESTION],
        ['doc-writer-1', 'user', ANSWER],
        ['doc-writer-1', 'user', AFTER],
      ]);
      // The question is Teamdeck's own send (its journal's), not a copy read from the transcript.
      expect(thread[0]).toMatchObject({ id: sent.id, sentAs: 'user' });
    };
    await check(s);
    // A new service on the same state: it reads the inboxes and transcripts again before start() returns.
    s = await start();
    await check(s);
  });

  it("shows a member's answer once when its transcript is read before user.json, also after a restart", async () => {
    await legacyTeam();
    const { r, flush } = record();
    const t0 = Date.now() - 60_000;
    r.spawn([{ name: 'doc-writer-1', description: 'Docs', prompt: 'Add module-level doc comments to src/types.rs.', color: 'blue', model: 'haiku' }], t0);
    let s = await start();
    await s.send({ team: TEAM, to: 'doc-writer-1', text: QUESTION });
    const now = Date.now();
    r.toMate('doc-writer-1', [r.external('user', 'doc-writer-1', QUESTION, undefined, now)], now);
    const answer = r.send('doc-writer-1', 'user', ANSWER, 'events.rs done', now + 1_000);
    await flush();
    const shown = await until('the answer in the transcript', async () => (await s.feed(TEAM)).find((m) => m.text === ANSWER));
    expect(shown).toMatchObject({ from: 'doc-writer-1', to: 'user' });
    await claudeAppend(inbox('user'), { from: 'doc-writer-1', text: ANSWER, summary: 'events.rs done', timestamp: iso(answer.at), color: 'blue', read: false });
    // The entry is read (its inbox is watched; a restart reads it in any case).
    s = await start();
    for (let i = 0; i < 2; i++) {
      expect(pairs(await s.feed(TEAM), ANSWER)).toEqual(['doc-writer-1->user']);
      expect(count(await s.thread(TEAM, 'doc-writer-1'), ANSWER)).toBe(1);
      s = await start();
    }
    // The same words sent once more are another message: shown again.
    await claudeAppend(inbox('user'), { from: 'doc-writer-1', text: ANSWER, timestamp: iso(Date.now()), color: 'blue', read: false });
    s = await start();
    expect(count(await s.feed(TEAM), ANSWER)).toBe(2);
  });

  it('reads as before without a lead session or without transcripts', async () => {
    for (const withSession of [false, true]) {
      await svc?.stop();
      svc = undefined;
      await rm(teams, { recursive: true, force: true });
      await rm(join(base, 'state'), { recursive: true, force: true });
      await legacyTeam(withSession);
      await claudeAppend(inbox('user'), { from: 'doc-writer-1', text: ANSWER, timestamp: iso(Date.now() - 1_000), color: 'blue', read: false });
      const s = await start();
      expect((await s.listTeams()).find((t) => t.id === TEAM)).toMatchObject({ era: 'legacy', sendAs: 'user' });
      const feed = await s.feed(TEAM);
      expect(feed.map((m) => [m.from, m.to, m.text.slice(0, 30)])).toEqual([
        ['doc-writer-1', 'team-lead', 'Both files already have compre'],
        ['doc-writer-1', 'team-lead', '{"type":"idle_notification","f'],
        ['team-lead', 'doc-writer-1', FIXTURE_TEXT.slice(0, 30)],
        ['doc-writer-1', 'user', ANSWER.slice(0, 30)],
      ]);
      expect((await s.thread(TEAM, 'doc-writer-1')).map((m) => [m.from, m.to, m.source])).toEqual([['doc-writer-1', 'user', 'user-inbox']]);
    }
  });
});
