// What Claude Code 2.1.337 writes that 2.1.332 did not (docs/claude-contract.md#changes-2-1-337),
// each read or passed over on purpose: one case per difference, in real temp dirs. The rows are
// shaped as 2.1.337 writes them (keys as its writer orders them).
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CAPTURE, CAPTURED_SESSION, CAPTURED_SUBAGENTS, CAPTURED_TX, writeSessionVersion } from '../../../test/helpers/captured-team.js';
import { useTempDirs } from '../../../test/helpers/tmp.js';
import { parseTeamConfig } from './config.js';
import { classifyEra } from './era.js';
import { teamDirName } from './paths.js';
import { LeadSessionReader, parseSession } from './sessions.js';
import { taskListName } from './tasks.js';
import { isCancelledTurn, promptOf, promptText, timelineItems, toolResults, toolUses, turnEndText } from './transcript-rows.js';
import { TranscriptWatch } from './transcripts.js';

const tempDir = useTempDirs();
const SESSION = CAPTURED_SESSION;
const T = '2026-12-04T10:00:00.000Z';

/** Fields 2.1.337 adds to every row. */
const NEW_ROW_FIELDS = { entrypointInherited: true, nestedSession: true } as const;

const denialCounts = { type: 'denial-counts', sessionId: SESSION, consecutive: 2, total: 5 };
const apiRoute = { type: 'api-request-route', provider: 'login', credential: 'key', sessionId: SESSION };

async function configWithCapture(): Promise<string> {
  const config = join(await tempDir(), '.claude');
  await cp(join(CAPTURE, 'projects'), join(config, 'projects'), { recursive: true });
  return config;
}

describe('2.1.337 transcript rows', () => {
  it('passes over denial-counts and api-request-route rows: no prompt, tool call, result, answer or timeline item', () => {
    for (const row of [denialCounts, apiRoute]) {
      expect(promptText(row)).toBeUndefined();
      expect(promptOf(row)).toBeUndefined();
      expect(toolUses(row)).toEqual([]);
      expect(toolResults(row)).toEqual([]);
      expect(turnEndText(row)).toBeUndefined();
      expect(timelineItems(row, new Map())).toEqual([]);
    }
  });

  it('reads a row with entrypointInherited and nestedSession exactly as one without', () => {
    const typed = { type: 'user', uuid: 'u1', timestamp: T, origin: { kind: 'human' }, promptSource: 'typed', message: { role: 'user', content: 'Two plus two?' } };
    const answer = { type: 'assistant', uuid: 'a1', timestamp: T, message: { id: 'msg_1', stop_reason: 'end_turn', content: [{ type: 'text', text: 'Four.' }] } };
    expect(promptOf({ ...typed, ...NEW_ROW_FIELDS })).toBe(promptOf(typed));
    expect(timelineItems({ ...typed, ...NEW_ROW_FIELDS }, new Map())).toEqual(timelineItems(typed, new Map()));
    expect(turnEndText({ ...answer, ...NEW_ROW_FIELDS })).toEqual({ id: 'msg_1', text: 'Four.' });
  });

  it('reads a tool result row with mcpOutputReplaced, toolInputInvalid or toolResultFileRefusal as one without', () => {
    const result = {
      type: 'user',
      uuid: 'r1',
      timestamp: T,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'done', is_error: false }] },
      toolUseResult: { stdout: 'done', stderr: '', interrupted: false },
    };
    const names = new Map([['toolu_1', 'Bash']]);
    for (const flag of ['mcpOutputReplaced', 'toolInputInvalid', 'toolResultFileRefusal']) {
      const flagged = { ...result, [flag]: true, ...NEW_ROW_FIELDS };
      expect(toolResults(flagged), flag).toEqual(toolResults(result));
      expect(toolResults(flagged), flag).toHaveLength(1);
      expect(promptOf(flagged), flag).toBeUndefined();
      expect(isCancelledTurn(flagged), flag).toBe(false);
      expect(timelineItems(flagged, names), flag).toEqual(timelineItems(result, names));
    }
  });

  it('takes a user row with interruptedByCancel for a cancelled turn, never for a prompt', () => {
    // What 2.1.337 writes when the user presses Escape during a turn (rowSource "harness").
    const cancelled = { type: 'user', message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user]' }] }, rowSource: 'harness', interruptedByCancel: true, uuid: 'c1', timestamp: T, ...NEW_ROW_FIELDS };
    expect(isCancelledTurn(cancelled)).toBe(true);
    expect(promptOf(cancelled)).toBeUndefined();
    expect(timelineItems(cancelled, new Map())).toEqual([]);
    // Without the flag (2.1.332) it is what it always was.
    const { interruptedByCancel: _flag, ...older } = cancelled;
    expect(isCancelledTurn(older)).toBe(false);
    expect(isCancelledTurn({ ...cancelled, interruptedByCancel: 'yes' })).toBe(false);
  });

  it("finds the same prompts, sends and answers in the captured team's transcripts with 2.1.337's rows mixed in", async () => {
    const config = await configWithCapture();
    const before = await new TranscriptWatch(await configWithCapture(), SESSION, 'session-cc4ff1d9').poll('team-lead', new Set(['teamdeck', 'user']));
    for (const rel of Object.values(CAPTURED_TX)) {
      const path = join(config, rel);
      const rows = (await readFile(path, 'utf8')).split('\n').filter(Boolean);
      const mixed = rows.flatMap((l) => [JSON.stringify({ ...JSON.parse(l), ...NEW_ROW_FIELDS }), JSON.stringify(denialCounts), JSON.stringify(apiRoute)]);
      await writeFile(path, mixed.join('\n') + '\n');
    }
    const after = await new TranscriptWatch(config, SESSION, 'session-cc4ff1d9').poll('team-lead', new Set(['teamdeck', 'user']));
    const key = (f: typeof before) => ({
      prompts: f.prompts.map((p) => `${p.agent}:${p.text}`).sort(),
      sends: f.sends.map((s) => `${s.agent}>${s.to}:${s.text}`).sort(),
      answers: f.turnAnswers.map((a) => `${a.agent}:${a.text}`).sort(),
    });
    expect(key(after)).toEqual(key(before));
    expect(key(after).answers.length).toBeGreaterThan(0);
  });

  it("still finds a teammate whose .meta.json has 2.1.337's heldBy (the meta file is read for teamName only)", async () => {
    const config = await configWithCapture();
    const meta = join(config, CAPTURED_SUBAGENTS, 'agent-aresearcher-4932618ede0d71b5.meta.json');
    await writeFile(meta, JSON.stringify({ ...JSON.parse(await readFile(meta, 'utf8')), heldBy: { pid: 4242, sessionId: SESSION } }));
    const w = new TranscriptWatch(config, SESSION, 'session-cc4ff1d9');
    expect([...(await w.find('team-lead')).keys()].sort()).toEqual(['researcher', 'team-lead', 'writer']);
  });
});

describe('the team captured from 2.1.337 (test/fixtures/claude-2.1.337)', () => {
  it("reads like the 2.1.332 one: the DMs' blocks, the sends, the answers, the lead's version", async () => {
    const CAPTURE_337 = join(CAPTURE, '..', '..', 'claude-2.1.337', 'team-lifecycle');
    const session = '13af7e5f-e9ea-401c-b9e3-6fa6abdd1fd3';
    const config = join(await tempDir(), '.claude');
    await cp(join(CAPTURE_337, 'projects'), join(config, 'projects'), { recursive: true });
    const rows = (await readFile(join(config, 'projects', '-home-me-proj', `${session}.jsonl`), 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    // Seen in that run: api-request-route rows, and no entrypointInherited/nestedSession on an ordinary lead's rows.
    expect(rows.some((r) => r.type === 'api-request-route')).toBe(true);
    expect(rows.some((r) => 'nestedSession' in r || 'entrypointInherited' in r)).toBe(false);
    expect(new Set(rows.map((r) => r.version).filter(Boolean))).toEqual(new Set(['2.1.337']));
    const found = await new TranscriptWatch(config, session, 'session-13af7e5f').poll('team-lead', new Set(['teamdeck', 'user']));
    expect(found.turnAnswers.map((a) => `${a.agent}: ${a.text}`)).toEqual(
      expect.arrayContaining(['researcher: The answer is 42.', 'writer: Writer read the note after its Bash.', 'team-lead: Lead here: the team is working.']),
    );
    expect(found.sends.map((x) => [x.agent, x.to, x.text])).toEqual(expect.arrayContaining([['researcher', 'team-lead', 'Researcher is ready.']]));
  });
});

describe('2.1.337 sessions files', () => {
  it('reads unwatched, and the status beside it as before', () => {
    const s = parseSession(JSON.stringify({ pid: 9, sessionId: 's', status: 'idle', unwatched: true, entrypoint: 'cli' }));
    expect(s).toEqual({ pid: 9, sessionId: 's', status: 'idle', unwatched: true, entrypoint: 'cli' });
    expect(parseSession(JSON.stringify({ pid: 9, sessionId: 's', unwatched: 'no' }))).toEqual({ pid: 9, sessionId: 's' });
  });

  it("never takes a nested session's file for the lead's, even one that carries the lead's session id", async () => {
    const config = await tempDir();
    // A `claude --resume` run inside the lead's shell: the lead's id, its own pid, entrypoint forced to cli.
    await writeSessionVersion(config, 11, 5151, { nestedSession: true, entrypoint: 'cli' });
    expect(await new LeadSessionReader(config, SESSION).read()).toBeUndefined();
    expect(await new LeadSessionReader(config, SESSION).read(5151)).toBeUndefined();
    // The lead's own file beside it is found by a scan, whatever order the folder lists them in.
    await writeSessionVersion(config, 3, 4242);
    await appendFile(join(config, 'sessions', '5151.json'), '');
    const reader = new LeadSessionReader(config, SESSION);
    expect(await reader.read()).toMatchObject({ pid: 4242, status: 'busy' });
    expect(reader.fileName).toBe('4242.json');
    // A nested session with an id of its own (2.1.337's usual case) is someone else's session.
    await writeFile(join(config, 'sessions', '6161.json'), JSON.stringify({ pid: 6161, sessionId: 'd2c0e4b1-nested', entrypoint: 'cli', status: 'busy' }));
    expect(await new LeadSessionReader(config, SESSION).read(6161)).toBeUndefined();
  });
});

describe('2.1.337 session team names', () => {
  it('a lower-cased session-<8> name for an upper-case session id is a current-era team, its folder and task list named alike', () => {
    const leadSessionId = 'ABCDEF12-3456-4789-ABCD-EF0123456789';
    const name = `session-${leadSessionId.slice(0, 8).toLowerCase()}`;
    const r = parseTeamConfig(JSON.stringify({ name, createdAt: 1, leadAgentId: `team-lead@${name}`, leadSessionId, members: [{ agentId: `team-lead@${name}`, name: 'team-lead', agentType: 'team-lead', joinedAt: 1, tmuxPaneId: 'leader', cwd: '/p', subscriptions: [], backendType: 'in-process' }] }));
    if (r.kind !== 'ok') throw new Error(JSON.stringify(r));
    expect(teamDirName(name)).toBe('session-abcdef12');
    expect(taskListName(name)).toBe('session-abcdef12');
    expect(classifyEra({ teamId: teamDirName(name), config: r.config })).toBe('current');
  });
});
