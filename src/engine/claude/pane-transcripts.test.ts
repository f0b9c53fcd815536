// Pane teammates' transcripts as Claude Code 2.1.337 writes them (captured in
// test/fixtures/claude-2.1.337/pane-teammate: a lead in tmux spawned `researcher` into a pane,
// which answered once and then in three blocks): found beside the lead's by their rows'
// `teamName` and `agentName`, tailed like an in-process teammate's, and found by the import.
import { appendFile, cp, mkdir, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, useTempDirs } from '../../../test/helpers/tmp.js';
import { UsageTally } from '../usage/tally.js';
import { paneOwnerOf } from './pane-transcripts.js';
import { findRecordedTeams } from './transcript-scan.js';
import { TranscriptWatch } from './transcripts.js';

const CAPTURE = join(REPO_ROOT, 'test', 'fixtures', 'claude-2.1.337', 'pane-teammate');
const LEAD = 'f95eee33-b734-4927-98c5-4eddf17fd742';
const PANE = '759ee01d-c02b-44d4-8ae0-87e88abcc831';
const TEAM = 'session-f95eee33';
const tempDir = useTempDirs();

async function configWithCapture(): Promise<{ config: string; project: string }> {
  const config = join(await tempDir(), '.claude');
  await cp(join(CAPTURE, 'projects'), join(config, 'projects'), { recursive: true });
  return { config, project: join(config, 'projects', '-home-me-proj') };
}

const meta = (n: number) => `{"type":"mode","mode":"normal","sessionId":"s${n}"}\n`;
const userRow = (team: string, agent: string) => `${JSON.stringify({ parentUuid: null, isSidechain: false, teamName: team, agentName: agent, type: 'user', message: { role: 'user', content: 'hi' }, uuid: 'u1', timestamp: '2026-12-07T15:22:20.000Z' })}\n`;

describe("a pane teammate's transcript", () => {
  it('is tailed with the team: its rows and usage are the pane teammate\'s, each message once', async () => {
    const { config, project } = await configWithCapture();
    const w = new TranscriptWatch(config, LEAD, TEAM);
    const found = await w.poll('team-lead', new Set(['teamdeck']));
    expect(w.files().get('researcher')).toBe(join(project, `${PANE}.jsonl`));
    expect(found.rows.map((r) => r.agent).sort()).toEqual(['researcher', 'team-lead']);
    const tally = new UsageTally();
    for (const r of found.rows) tally.add(r.agent, r.rows);
    const of = (member: string) => {
      const sum = { messages: 0, inputTokens: 0, outputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0 };
      for (const c of tally.allCells()) if (c.member === member) for (const k of Object.keys(sum) as Array<keyof typeof sum>) sum[k] += c[k];
      return sum;
    };
    // What the stand-in reported for the two replies (msg_standin_4, and msg_standin_5 written as three rows).
    expect(of('researcher')).toEqual({ messages: 2, inputTokens: 1028 + 1035, outputTokens: 52 + 55, cacheWriteTokens: 244 + 255, cacheReadTokens: 5052 + 5065 });
    expect(of('team-lead').messages).toBe(3);
    // The teammate's turn began with Teamdeck's message: its last text answers it.
    expect(found.prompts.some((p) => p.agent === 'researcher' && p.text.includes('teammate_id="teamdeck"'))).toBe(true);
    // Its reply came as three text blocks, a row each: one answer of all three.
    expect(found.turnAnswers.filter((a) => a.agent === 'researcher').map((a) => a.text)).toEqual(['part one\npart two\npart three']);
    // Read once: a second poll finds nothing new.
    expect((await w.poll('team-lead')).rows).toEqual([]);
  });

  it("is not another team's, and the lead's own transcript is no pane teammate's", async () => {
    const { config, project } = await configWithCapture();
    const other = new TranscriptWatch(config, LEAD, 'session-00000000');
    await other.poll('team-lead');
    expect([...other.files().keys()]).toEqual(['team-lead']);
    expect(await paneOwnerOf(join(project, `${LEAD}.jsonl`))).toBeNull();
    expect(await paneOwnerOf(join(project, `${PANE}.jsonl`))).toEqual({ teamName: TEAM, agentName: 'researcher' });
  });

  it('is found by the import with its lead, when no teammate ran in-process (no subagents folder)', async () => {
    const { config, project } = await configWithCapture();
    const teams = [];
    for await (const t of findRecordedTeams(config)) teams.push(t);
    expect(teams).toHaveLength(1);
    expect(teams[0]!.teamName).toBe(TEAM);
    expect(teams[0]!.leadSessionId).toBe(LEAD);
    expect(teams[0]!.members.map((m) => m.name)).toEqual(['researcher']);
    expect(teams[0]!.files.map((f) => f.path).sort()).toEqual([join(project, `${LEAD}.jsonl`), join(project, `${PANE}.jsonl`)].sort());
  });

  it('is told by its first real row; until that is written it is asked again, and a link is never followed', async () => {
    const dir = await tempDir();
    const fresh = join(dir, 'fresh.jsonl');
    await writeFile(fresh, meta(1) + meta(2));
    // Just begun, only metadata rows: not decided yet (the row naming the team comes next).
    expect(await paneOwnerOf(fresh)).toBeUndefined();
    await appendFile(fresh, userRow('session-abcdef01', 'tester'));
    expect(await paneOwnerOf(fresh)).toEqual({ teamName: 'session-abcdef01', agentName: 'tester' });
    // The same file, later rows naming another team: the verdict stands (a file is one session's).
    await appendFile(fresh, userRow('session-99999999', 'x'));
    expect(await paneOwnerOf(fresh)).toEqual({ teamName: 'session-abcdef01', agentName: 'tester' });
    // An old session with no team: no one's, for good.
    const old = join(dir, 'old.jsonl');
    await writeFile(old, meta(3));
    await utimes(old, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    expect(await paneOwnerOf(old)).toBeNull();
    // A session whose first real row names no team (a lead's, any other): no one's, at once.
    const lead = join(dir, 'lead.jsonl');
    await writeFile(lead, meta(4) + JSON.stringify({ parentUuid: null, type: 'user', message: { role: 'user', content: 'Start the team.' }, uuid: 'u0' }) + '\n');
    expect(await paneOwnerOf(lead)).toBeNull();
    // A spawn prompt longer than the first look (16 KB): read further.
    const long = join(dir, 'long.jsonl');
    await writeFile(long, meta(5) + userRow('session-abcdef02', 'writer').replace('"hi"', JSON.stringify('x'.repeat(40_000))));
    expect(await paneOwnerOf(long)).toEqual({ teamName: 'session-abcdef02', agentName: 'writer' });
    // A link to a pane teammate's transcript is not followed.
    await mkdir(join(dir, 'sub'));
    const link = join(dir, 'sub', 'link.jsonl');
    await symlink(fresh, link);
    expect(await paneOwnerOf(link)).toBeNull();
  });
});
