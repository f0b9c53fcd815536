// A team Teamdeck never saw run, found in Claude's transcripts (a real run's, Claude Code 2.1.332:
// test/fixtures/claude-2.1.332/team-record) and listed as ended with its roster and record.
import { appendFile, cp, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, REPO_ROOT } from '../../../test/helpers/tmp.js';
import type { AppEvent } from '../../shared/contract.js';
import { TeamService } from '../service/team-service.js';

const CAPTURE = join(REPO_ROOT, 'test', 'fixtures', 'claude-2.1.332', 'team-record');
const TEAM = 'session-61e2434f';
const SESSION = '61e2434f-59b4-42c5-a48c-b7dbeebeccb6';
const LEAD_TX = join('projects', '-home-me-proj', `${SESSION}.jsonl`);

let base: string;
let config: string;
let svc: TeamService | undefined;

beforeEach(async () => {
  base = await makeTempDir('teamdeck-import-');
  config = join(base, 'claude');
  await mkdir(join(config, 'teams'), { recursive: true });
  await cp(join(CAPTURE, 'projects'), join(config, 'projects'), { recursive: true });
});
afterEach(async () => {
  await svc?.stop();
  svc = undefined;
});

/** A Teamdeck as the command runs it (no watchers): the import is done when start() returns. */
async function started(state = join(base, 'state')): Promise<TeamService> {
  svc = new TeamService({ teamsRoot: join(config, 'teams'), stateDir: state, configDir: config, watch: false });
  await svc.start();
  return svc;
}

const brief = (m: { from: string; to: string; text: string; via?: string }) => [m.via, m.from, m.to, m.text];

describe('teams found in transcripts', () => {
  it('lists the team as ended, with its roster and every message once, in threads, feed and export', async () => {
    const s = await started();
    const team = (await s.listTeams()).find((t) => t.id === TEAM)!;
    expect(team).toMatchObject({ state: 'ended', era: 'current', memberCount: 3 });
    expect((await s.roster(TEAM)).map((m) => [m.name, m.agentType, m.model, m.color])).toEqual([
      ['team-lead', 'team-lead', undefined, undefined],
      ['researcher', 'general-purpose', 'claude-opus-5-5', 'blue'],
      ['writer', 'general-purpose', 'claude-opus-5-5', 'green'],
    ]);
    expect((await s.thread(TEAM, 'team-lead')).map(brief)).toEqual([
      ['typed', 'user', 'team-lead', '[[ROLE:lead]] Start the team. [[SPAWN:researcher]] [[SPAWN:writer]]'],
      ['answer', 'team-lead', 'user', 'lead: ok'],
      ['typed', 'user', 'team-lead', 'What is the plan? [[SAY:The plan is to read the record.]]'],
      ['answer', 'team-lead', 'user', 'The plan is to read the record.'],
    ]);
    expect((await s.thread(TEAM, 'researcher')).map(brief)).toEqual([
      ['at-name', 'user', 'researcher', 'What did you find? [[SAY:I found the whole record.]]'],
      ['answer', 'researcher', 'user', 'I found the whole record.'],
    ]);
    const feed = await s.feed(TEAM);
    const plain = feed.filter((m) => !m.frame).map((m) => [m.via, m.from, m.to, m.text.slice(0, 30)]);
    expect(plain).toEqual([
      ['typed', 'user', 'team-lead', '[[ROLE:lead]] Start the team. '],
      ['spawn', 'team-lead', 'researcher', 'You are the researcher. [[SEND'],
      ['message', 'researcher', 'team-lead', 'researcher reporting in'],
      ['message', 'researcher', 'writer', 'Hello writer, researcher here'],
      ['spawn', 'team-lead', 'writer', 'You are the writer. [[SEND:tea'],
      ['answer', 'team-lead', 'user', 'lead: ok'],
      ['message', 'writer', 'team-lead', 'writer reporting in'],
      ['message', 'writer', 'researcher', 'Hello researcher, writer here'],
      ['typed', 'user', 'team-lead', 'What is the plan? [[SAY:The pl'],
      ['answer', 'team-lead', 'user', 'The plan is to read the record'],
      ['at-name', 'user', 'researcher', 'What did you find? [[SAY:I fou'],
      ['answer', 'researcher', 'user', 'I found the whole record.'],
    ]);
    expect(feed.filter((m) => m.frame).map((m) => [m.from, m.frame!.type])).toEqual([
      ['researcher', 'idle_notification'],
      ['writer', 'idle_notification'],
      ['writer', 'idle_notification'],
      ['researcher', 'idle_notification'],
      ['researcher', 'idle_notification'],
    ]);
    // Times are the rows'.
    expect(feed.find((m) => m.text === 'researcher reporting in')!.timestamp).toBe('2026-12-07T06:18:07.016Z');
    const exported = JSON.parse((await s.export({ team: TEAM, format: 'json' })).text) as { messages: unknown[] };
    expect(exported.messages).toHaveLength(feed.length);
    const status = await s.importStatus();
    expect(status).toMatchObject({ running: false, teamsFound: 1, filesTotal: 3, filesDone: 3 });
    // Every byte of the three transcripts was read, once.
    expect(status.bytesRead).toBe(status.bytesTotal);
  });

  it('reads only what was added at the next start, and the same team is not listed twice', async () => {
    const state = join(base, 'state');
    let s = await started(state);
    const before = (await s.feed(TEAM)).length;
    await s.stop();
    svc = undefined;
    const offsets = JSON.parse(await readFile(join(state, 'journal', TEAM, 'transcript-offsets.json'), 'utf8')) as { files: Record<string, { offset: number }> };
    const leadPath = join(config, LEAD_TX);
    expect(offsets.files[leadPath]!.offset).toBe((await stat(leadPath)).size);
    // The lead answered one more typed turn after Teamdeck's last look.
    const t = '2026-12-07T06:30:00.000Z';
    await appendFile(leadPath, JSON.stringify({ type: 'user', uuid: 'late-1', timestamp: t, origin: { kind: 'human' }, promptSource: 'typed', message: { role: 'user', content: 'One more?' } }) + '\n');
    await appendFile(leadPath, JSON.stringify({ type: 'assistant', uuid: 'late-2', timestamp: t, message: { id: 'msg_late', role: 'assistant', stop_reason: 'end_turn', content: [{ type: 'text', text: 'One more.' }] } }) + '\n');
    const added = (await stat(leadPath)).size - offsets.files[leadPath]!.offset;
    s = await started(state);
    expect((await s.listTeams()).filter((x) => x.id === TEAM)).toHaveLength(1);
    // Only the two rows added were read.
    expect((await s.importStatus()).bytesRead).toBe(added);
    const feed = await s.feed(TEAM);
    expect(feed.length).toBe(before + 2);
    expect(feed.slice(-2).map(brief)).toEqual([
      ['typed', 'user', 'team-lead', 'One more?'],
      ['answer', 'team-lead', 'user', 'One more.'],
    ]);
    expect((await readdir(join(state, 'journal')))).toEqual([TEAM]);
  });
  it('tells the window the list a few times while it imports many teams, not twice per team, and lists them all', async () => {
    // The same lead session copied under eight more session ids, each its own team.
    const proj = join(config, 'projects', '-home-me-proj');
    const copies = Array.from({ length: 8 }, (_, i) => ({ session: `${SESSION.slice(0, -2)}${String(i).padStart(2, '0')}`, team: `session-copy${i}` }));
    for (const c of copies) {
      await cp(join(proj, `${SESSION}.jsonl`), join(proj, `${c.session}.jsonl`));
      await mkdir(join(proj, c.session, 'subagents'), { recursive: true });
      for (const n of await readdir(join(proj, SESSION, 'subagents'))) {
        const text = await readFile(join(proj, SESSION, 'subagents', n), 'utf8');
        await writeFile(join(proj, c.session, 'subagents', n), n.endsWith('.meta.json') ? text.replace(TEAM, c.team) : text);
      }
    }
    svc = new TeamService({ teamsRoot: join(config, 'teams'), stateDir: join(base, 'state'), configDir: config, watch: true });
    const told: AppEvent[] = [];
    svc.onEvent((e) => told.push(e));
    const t0 = Date.now();
    await svc.start();
    const s = svc;
    await expect.poll(async () => (await s.importStatus()).running === false && (await s.importStatus()).filesDone, { timeout: 20_000 }).toBe(27);
    // The last word on the list comes within a quarter of a second of the import's end.
    await expect.poll(() => told.filter((e) => e.type === 'teams').at(-1), { timeout: 2_000 }).toMatchObject({ teams: expect.arrayContaining([...copies.map((c) => expect.objectContaining({ id: c.team })), expect.objectContaining({ id: TEAM })]) });
    // Told at most once a quarter second (and a few times around its start), never twice per team as it was.
    const lists = told.filter((e) => e.type === 'teams').length;
    expect(lists).toBeLessThanOrEqual(Math.ceil((Date.now() - t0) / 250) + 3);
    expect(lists).toBeLessThan(2 * (copies.length + 1));
  });
});
