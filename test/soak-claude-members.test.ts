// The soak's account of the members' own messages (bench/soak-claude/members.ts): every
// SendMessage a model made to another member is in the team's feed exactly once, from its
// sender to its recipient; a call Claude never ran is not expected; one it refused is.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { memberAccount } from '../bench/soak-claude/members.js';
import type { TeamLife } from '../bench/soak-claude/record.js';
import type { ThreadMessage } from '../src/shared/types.js';
import type { ApiRequest, ContentBlock } from './claude/harness/script.js';

const dir = mkdtempSync(join(tmpdir(), 'teamdeck-soak-members-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TEAM = 'session-1';
const life: TeamLife = { team: TEAM, pid: 1, terminal: 't', launchedAt: 0, teammates: ['researcher', 'writer'], shutdowns: [] };
const call = (seq: number, agent: string, reply: ApiRequest['reply'], newContent: ContentBlock[] = []): ApiRequest => ({
  seq,
  at: seq * 10,
  method: 'POST',
  url: '/v1/messages',
  headers: agent === 'lead' ? {} : { 'x-claude-code-agent-id': `${agent}@${TEAM}` },
  body: undefined,
  agent,
  newContent,
  newText: newContent.map((b) => (typeof b.content === 'string' ? b.content : (b.text ?? ''))).join('\n'),
  reply,
  status: 200,
});
const send = (id: string, n: number, from: string, to: string) => ({ type: 'tool_use' as const, name: 'SendMessage', id, input: { to, message: `member-msg ${n} from ${from} to ${to}: hi` } });
const result = (id: string, isError = false): ContentBlock => ({ type: 'tool_result', tool_use_id: id, content: 'sent', is_error: isError });
const shown = (n: number, from: string, to: string, id = `m${n}`): ThreadMessage => ({ id, from, to, text: `member-msg ${n} from ${from} to ${to}: hi`, timestamp: '', time: 0, read: true }) as ThreadMessage;

function projectsWith(results: Array<{ id: string; success: boolean }>): string {
  const p = mkdtempSync(join(dir, 'projects-'));
  mkdirSync(join(p, 'proj'), { recursive: true });
  const rows = results.map((r) => JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: r.id, content: 'x' }] }, toolUseResult: { success: r.success } }));
  writeFileSync(join(p, 'proj', 'lead.jsonl'), rows.join('\n') + '\n');
  return p;
}

describe('memberAccount', () => {
  // researcher -> writer (its result came back to the model), lead -> researcher (in the lead's
  // transcript only: the lead ended before its next call), writer -> lead (never run).
  const log = [
    call(1, 'researcher', [send('c1', 1, 'researcher', 'writer')]),
    call(2, 'researcher', [{ type: 'text', text: 'researcher answer 1: #1' }], [result('c1')]),
    call(3, 'lead', [send('c2', 2, 'team-lead', 'researcher')]),
    call(4, 'writer', [send('c3', 3, 'writer', 'team-lead')]),
    call(5, 'writer', [{ type: 'text', text: 'writer: ok' }], [{ type: 'text', text: '<teammate-message teammate_id="researcher">member-msg 1 from researcher to writer: hi</teammate-message>' }]),
  ];
  const projectsDir = projectsWith([{ id: 'c2', success: false }]);

  it('counts each sent message once in the feed as in Teamdeck, and a call never run apart', () => {
    const a = memberAccount({ log, feeds: new Map([[TEAM, [shown(1, 'researcher', 'writer'), shown(2, 'team-lead', 'researcher')]]]), lives: [life], projectsDir });
    expect(a).toMatchObject({ made: 3, sent: 2, inTeamdeck: 2, missed: 0, shownTwice: 0, wrongSides: 0, notRun: 1, refusedByClaude: 1, readByRecipient: 1 });
    expect(a.byRoute).toEqual({ 'teammate→teammate': 1, 'lead→teammate': 1 });
    expect(a.problems).toEqual([]);
  });

  it('finds a message missing from the feed, one shown twice, and one shown with the wrong sides', () => {
    const feed = [shown(1, 'researcher', 'writer', 'a'), shown(1, 'researcher', 'writer', 'b'), shown(3, 'writer', 'researcher')];
    const a = memberAccount({ log, feeds: new Map([[TEAM, feed]]), lives: [life], projectsDir });
    expect(a).toMatchObject({ sent: 2, inTeamdeck: 1, missed: 1, shownTwice: 1, wrongSides: 1 });
    expect(a.problems.join('\n')).toMatch(/member-msg 1 from researcher to writer of session-1 is shown 2 times/);
    expect(a.problems.join('\n')).toMatch(/member-msg 2 from team-lead to researcher of session-1 was sent \(refused by Claude; its result is in the sender's transcript\) and is not in Teamdeck's feed/);
    expect(a.problems.join('\n')).toMatch(/member-msg 3 from writer to team-lead of session-1 is shown as from writer to researcher/);
  });

  it('finds a member message in a feed that no model of that team made', () => {
    const a = memberAccount({ log, feeds: new Map([[TEAM, [shown(1, 'researcher', 'writer'), shown(2, 'team-lead', 'researcher'), shown(9, 'tester', 'writer')]]]), lives: [life], projectsDir });
    expect(a.wrongSides).toBe(1);
    expect(a.problems).toEqual(["session-1's feed shows member-msg 9 (from tester to writer), which no model of that team made"]);
  });
});
