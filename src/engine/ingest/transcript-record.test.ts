// The record merged with what Teamdeck read in inboxes, live, on a running team: a message seen in
// an inbox and in a transcript is shown once, whichever is read first, and across a restart.
// Rows and entries as Claude Code 2.1.332 wrote them (test/fixtures/claude-2.1.332/team-record).
import { appendFile, cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CAPTURE as LIFECYCLE, CAPTURED_TEAM } from '../../../test/helpers/captured-team.js';
import { makeTempDir, REPO_ROOT } from '../../../test/helpers/tmp.js';
import { claudeAppend } from '../../sim/claude-inbox.js';
import { procStartOf } from '../claude/lifecycle.js';
import { TeamService } from '../service/team-service.js';

const RECORD = join(REPO_ROOT, 'test', 'fixtures', 'claude-2.1.332', 'team-record');
const TEAM = 'session-61e2434f';
const SESSION = '61e2434f-59b4-42c5-a48c-b7dbeebeccb6';
const RESEARCHER_TX = join('projects', '-home-me-proj', SESSION, 'subagents', 'agent-aresearcher-889e1aacffc55ac9.jsonl');
const AT_NAME = 'What did you find? [[SAY:I found the whole record.]]';

let config: string;
let svc: TeamService | undefined;

/** The recorded team as a running one: its config (a captured one, renamed) names this process as its lead. */
async function runningTeam(): Promise<void> {
  const cfg = JSON.parse(await readFile(join(LIFECYCLE, 'teams', CAPTURED_TEAM, 'config.003.json'), 'utf8'));
  cfg.name = TEAM;
  cfg.leadAgentId = `team-lead@${TEAM}`;
  cfg.leadSessionId = SESSION;
  cfg.leadProcess = { ...cfg.leadProcess, pid: process.pid, procStart: procStartOf(process.pid) };
  delete cfg.leadProcess.pidSpace;
  cfg.members = cfg.members.map((m: { name: string }) => ({ ...m, agentId: `${m.name}@${TEAM}` }));
  const dir = join(config, 'teams', TEAM, 'inboxes');
  await mkdir(dir, { recursive: true });
  await writeFile(join(config, 'teams', TEAM, 'config.json'), JSON.stringify(cfg));
  for (const m of ['team-lead', 'researcher', 'writer']) await writeFile(join(dir, `${m}.json`), '[]');
  await cp(join(RECORD, 'projects'), join(config, 'projects'), { recursive: true });
}

async function start(): Promise<TeamService> {
  svc = new TeamService({ teamsRoot: join(config, 'teams'), stateDir: join(config, '..', 'state'), configDir: config, watch: false });
  await svc.start();
  return svc;
}

beforeEach(async () => {
  config = join(await makeTempDir('teamdeck-record-'), 'claude');
});
afterEach(async () => {
  await svc?.stop();
  svc = undefined;
});

const count = (list: Array<{ text: string }>, text: string) => list.filter((m) => m.text === text).length;

describe('the record merged with inboxes', () => {
  it("shows an @name line once, seen in the teammate's inbox first and in its transcript after, also after a restart", async () => {
    await runningTeam();
    const rows = (await readFile(join(RECORD, RESEARCHER_TX), 'utf8')).trimEnd().split('\n');
    const at = rows.findIndex((l) => l.includes('teammate_id=\\"user\\"'));
    // The transcript up to the line, and the entry Claude wrote for it still in the inbox.
    await writeFile(join(config, RESEARCHER_TX), rows.slice(0, at).join('\n') + '\n');
    await claudeAppend(join(config, 'teams', TEAM, 'inboxes', 'researcher.json'), { from: 'user', text: AT_NAME, timestamp: '2026-12-07T06:18:10.060Z', read: false, msg_id: 'f5d0c0de-0000-4000-8000-000000000001' });
    let s = await start();
    expect(count(await s.feed(TEAM), AT_NAME)).toBe(1);
    await s.stop();
    // Then the researcher's model took it: its row is the same message.
    await appendFile(join(config, RESEARCHER_TX), rows.slice(at).join('\n') + '\n');
    s = await start();
    const feed = await s.feed(TEAM);
    expect(count(feed, AT_NAME)).toBe(1);
    expect((await s.thread(TEAM, 'researcher')).map((m) => [m.from, m.text])).toEqual([
      ['user', AT_NAME],
      ['researcher', 'I found the whole record.'],
    ]);
    // The teammates' messages: by Claude's msg_id on the sender's side, once each.
    expect(count(feed, 'Hello writer, researcher here')).toBe(1);
    await s.stop();
    s = await start();
    expect(count(await s.feed(TEAM), AT_NAME)).toBe(1);
  });

  it('shows an idle notification once, read in the transcript first and found in the inbox after; two alike are two', async () => {
    await runningTeam();
    const lead = (await readFile(join(config, 'projects', '-home-me-proj', `${SESSION}.jsonl`), 'utf8')).split('\n');
    const row = JSON.parse(lead.find((l) => l.includes('idle_notification'))!);
    const frame = /<teammate-message teammate_id="researcher"[^>]*>\n(\{[^\n]*\})\n<\/teammate-message>/.exec(row.message.content)![1]!;
    let s = await start();
    const before = count(await s.feed(TEAM), frame);
    expect(before).toBe(1);
    await s.stop();
    const inbox = join(config, 'teams', TEAM, 'inboxes', 'team-lead.json');
    await claudeAppend(inbox, { from: 'researcher', text: frame, timestamp: row.timestamp, read: false, color: 'blue', msg_id: 'f5d0c0de-0000-4000-8000-000000000002' });
    s = await start();
    expect(count(await s.feed(TEAM), frame)).toBe(1);
    await s.stop();
    // The same text written once more is another message: shown.
    await claudeAppend(inbox, { from: 'researcher', text: frame, timestamp: row.timestamp, read: false, color: 'blue', msg_id: 'f5d0c0de-0000-4000-8000-000000000003' });
    s = await start();
    expect(count(await s.feed(TEAM), frame)).toBe(2);
  });
});
