// Transcripts as Claude Code 2.1.332 writes them (captured in test/fixtures/claude-2.1.332),
// tailed from their last offset: prompts (for `seen`), SendMessage attempts and lead answers.
import { appendFile, cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, useTempDirs } from '../../../test/helpers/tmp.js';
import { holdsTeammateBlock, TranscriptWatch } from './transcripts.js';

const CAPTURE = join(REPO_ROOT, 'test', 'fixtures', 'claude-2.1.332', 'team-lifecycle');
const SESSION = 'cc4ff1d9-7874-413b-94e4-5b8d2fe0f369';
const tempDir = useTempDirs();

async function configWithCapture(): Promise<string> {
  const config = join(await tempDir(), '.claude');
  await cp(join(CAPTURE, 'projects'), join(config, 'projects'), { recursive: true });
  return config;
}

describe('TranscriptWatch on the captured team', () => {
  it("finds each agent's prompts, its SendMessage attempts and the lead's answer to teamdeck", async () => {
    const w = new TranscriptWatch(await configWithCapture(), SESSION, 'session-cc4ff1d9');
    const found = await w.poll('team-lead', new Set(['teamdeck', 'user']));
    const researcher = found.prompts.filter((p) => p.agent === 'researcher');
    expect(researcher.some((p) => holdsTeammateBlock(p.text, 'teamdeck', 'What is the answer? [[SAY:The answer is 42.]]'))).toBe(true);
    const lead = found.prompts.filter((p) => p.agent === 'team-lead');
    expect(lead.some((p) => holdsTeammateBlock(p.text, 'teamdeck', 'Teamdeck asks the lead for a status. [[SAY:Lead here: the team is working.]]'))).toBe(true);
    // The writer got its DM only after its Bash turn; the prompt is there all the same.
    expect(found.prompts.some((p) => p.agent === 'writer' && holdsTeammateBlock(p.text, 'teamdeck', 'A note for the writer while it runs its Bash. [[SAY:Writer read the note after its Bash.]]'))).toBe(true);
    expect(found.sends.map((s) => [s.agent, s.to, s.text])).toEqual(
      expect.arrayContaining([
        ['researcher', 'user', 'Hello user, researcher here.'],
        ['researcher', 'team-lead', 'Researcher is ready.'],
      ]),
    );
    // Each turn whose prompts held teamdeck's message ended with this text; no other turn counts
    // (the writer got its DM during a Bash call, and answered it in the turn after).
    expect(found.turnAnswers.map((a) => [a.agent, a.text])).toEqual(
      expect.arrayContaining([
        ['researcher', 'The answer is 42.'],
        ['writer', 'Writer read the note after its Bash.'],
        ['team-lead', 'Lead here: the team is working.'],
      ]),
    );
    // The other turns answered prompts typed in the lead's terminal (the test's own): candidates
    // for the terminal channel, tied to Teamdeck's sends only by their exact text.
    const fromTeamdeck = found.turnAnswers.filter((a) => a.prompts.some((p) => p.includes('teammate_id="teamdeck"')));
    expect(fromTeamdeck).toHaveLength(3);
    for (const a of found.turnAnswers.filter((x) => !fromTeamdeck.includes(x))) {
      expect(a.agent).toBe('team-lead');
      expect(a.promptRows.some((p) => p.typed)).toBe(true);
    }
    // A second poll reads nothing new.
    expect(await w.poll('team-lead', new Set(['teamdeck']))).toEqual({ prompts: [], sends: [], turnAnswers: [], activity: new Map(), rows: [] });
    // Every row of the first read was history (the files were there before), none was news.
    expect(found.rows.map((r) => [r.agent, r.live]).sort()).toEqual([['researcher', false], ['team-lead', false], ['writer', false]]);
    // What each agent last did, for presence.
    expect([...found.activity.keys()].sort()).toEqual(['researcher', 'team-lead', 'writer']);
    expect(found.activity.get('researcher')).toBe(Date.parse('2026-12-01T11:21:56.654Z'));
  });

  it('ignores a subagent transcript that belongs to another team', async () => {
    const config = await configWithCapture();
    const meta = join(config, 'projects', '-home-me-proj', SESSION, 'subagents', 'agent-aresearcher-4932618ede0d71b5.meta.json');
    await writeFile(meta, JSON.stringify({ ...JSON.parse(await readFile(meta, 'utf8')), teamName: 'session-00000000' }));
    const found = await new TranscriptWatch(config, SESSION, 'session-cc4ff1d9').poll('team-lead');
    expect(found.prompts.some((p) => p.agent === 'researcher')).toBe(false);
    expect(found.prompts.some((p) => p.agent === 'writer')).toBe(true);
  });
});

describe('TranscriptWatch, polls that overlap', () => {
  it('reads each row once and finds every answer when two polls are asked at once (the first poll at start and a watcher\'s)', async () => {
    const config = await configWithCapture();
    const alone = await new TranscriptWatch(config, SESSION, 'session-cc4ff1d9').poll('team-lead', new Set(['teamdeck', 'user']));
    const w = new TranscriptWatch(config, SESSION, 'session-cc4ff1d9');
    const both = await Promise.all([w.poll('team-lead', new Set(['teamdeck', 'user'])), w.poll('team-lead', new Set(['teamdeck', 'user']))]);
    const answers = both.flatMap((f) => f.turnAnswers.map((a) => `${a.agent}: ${a.text}`));
    expect(answers.sort()).toEqual(alone.turnAnswers.map((a) => `${a.agent}: ${a.text}`).sort());
    expect(both.flatMap((f) => f.prompts).length).toBe(alone.prompts.length);
  });
});

/** A fresh `<config>` with one project folder, and where session `id`'s transcript goes in it. */
async function sessionFile(id: string): Promise<{ config: string; file: string }> {
  const config = join(await tempDir(), '.claude');
  const dir = join(config, 'projects', '-p');
  await mkdir(dir, { recursive: true });
  return { config, file: join(dir, `${id}.jsonl`) };
}

describe('TranscriptWatch, a typed turn whose row lands after its answer', () => {
  it('ties the answer to the typed prompt by the answer row\'s parents', async () => {
    const { config, file } = await sessionFile('s1');
    const t = '2026-12-01T10:00:00.000Z';
    const answer = { type: 'assistant', uuid: 'a1', parentUuid: 'u1', timestamp: t, message: { id: 'msg_1', stop_reason: 'end_turn', content: [{ type: 'text', text: 'Four.' }] } };
    const typed = { type: 'user', uuid: 'u1', parentUuid: 'u0', timestamp: t, origin: { kind: 'human' }, promptSource: 'typed', message: { role: 'user', content: 'Two plus two?' } };
    // Claude wrote the streamed answer first; the prompt's own row came a moment later.
    await writeFile(file, JSON.stringify(answer) + '\n');
    const w = new TranscriptWatch(config, 's1', 'session-s1');
    expect((await w.poll('team-lead')).turnAnswers).toEqual([]);
    await appendFile(file, JSON.stringify(typed) + '\n');
    const found = await w.poll('team-lead');
    expect(found.turnAnswers).toEqual([expect.objectContaining({ id: 'tx-msg_1', agent: 'team-lead', text: 'Four.', prompts: ['Two plus two?'] })]);
    expect(found.turnAnswers[0]!.promptRows[0]).toMatchObject({ typed: true });
  });
});

describe('TranscriptWatch, a typed turn whose row lands after a turn of tool calls', () => {
  it('ties the answer to it through the calls and results between, and ties no answer to a prompt that follows', async () => {
    const { config, file } = await sessionFile('s2');
    const t = '2026-12-01T10:00:00.000Z';
    const call = { type: 'assistant', uuid: 'a1', parentUuid: 'u1', timestamp: t, message: { id: 'msg_1', stop_reason: 'tool_use', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }] } };
    const result = { type: 'user', uuid: 'r1', parentUuid: 'a1', timestamp: t, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a b' }] } };
    const answer = { type: 'assistant', uuid: 'a2', parentUuid: 'r1', timestamp: t, message: { id: 'msg_2', stop_reason: 'end_turn', content: [{ type: 'text', text: 'Two files.' }] } };
    const typed = (uuid: string, parent: string, text: string) => ({ type: 'user', uuid, parentUuid: parent, timestamp: t, origin: { kind: 'human' }, promptSource: 'typed', message: { role: 'user', content: text } });
    await writeFile(file, [call, result, answer].map((r) => JSON.stringify(r) + '\n').join(''));
    const w = new TranscriptWatch(config, 's2', 'session-s2');
    expect((await w.poll('team-lead')).turnAnswers).toEqual([]);
    // The prompt three rows up the answer's parents, then a new prompt after the answer.
    await appendFile(file, JSON.stringify(typed('u1', 'u0', 'What is here?')) + '\n' + JSON.stringify(typed('u2', 'a2', 'And now?')) + '\n');
    const found = await w.poll('team-lead');
    expect(found.turnAnswers.map((a) => [a.id, a.prompts])).toEqual([['tx-msg_2', ['What is here?']]]);
  });
});

describe('holdsTeammateBlock', () => {
  const block = (id: string, body: string, attrs = '') => `<teammate-message teammate_id="${id}"${attrs}>\n${body}\n</teammate-message>`;
  it('matches the exact body inside a block from that sender only', () => {
    const prompt = `Another Claude session sent a message:\n${block('researcher', 'hello', ' color="blue"')}\n\n${block('teamdeck', 'hello there', ' summary="s"')}\n\nfooter`;
    expect(holdsTeammateBlock(prompt, 'teamdeck', 'hello there')).toBe(true);
    expect(holdsTeammateBlock(prompt, 'teamdeck', 'hello')).toBe(false);
    expect(holdsTeammateBlock(prompt, 'researcher', 'hello there')).toBe(false);
    expect(holdsTeammateBlock(prompt, 'teamdeck', 'there')).toBe(false);
  });
});
