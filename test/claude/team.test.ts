// What Claude Code 2.1.332 does with a session team, checked on the real binary: one lead with
// two in-process teammates, shared by the tests below in order (each asserts a different part
// of the contract, the last one ends the team). See docs/claude-contract.md for the contract.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLAUDE_CODE_VERSION } from './harness/binary.js';
import { frameOf, isFrame, isIdleFrom } from './harness/entries.js';
import { firstUserText, newToolResults, type ApiRequest } from './harness/script.js';
import { startTeam, type Team } from './harness/team.js';
import { describeClaude, reportOnFailure } from './harness/vitest.js';
import { waitFor } from './harness/wait.js';

const S = 20_000;
const PROMPTS = { researcher: 'You are the researcher. [[SAY:researcher ready]]', writer: 'You are the writer. [[SAY:writer ready]]' };
const LEAD_FOOTER = 'This came from another Claude session — not typed by your user, but very likely working on their behalf.';

const hasText = (t: string) => (r: ApiRequest) => r.newText.includes(t);

describeClaude(`Claude Code ${CLAUDE_CODE_VERSION}: a session team with two in-process teammates`, () => {
  let team: Team;
  reportOnFailure(() => team?.report());

  beforeAll(async () => {
    team = await startTeam({ teammates: ['researcher', 'writer'], prompts: PROMPTS });
    // Both teammates finished their first turn: idle from here on.
    for (const name of ['researcher', 'writer']) await team.observer.waitForEntry(team.inboxRel('team-lead'), isIdleFrom(name), S, `${name}'s first idle_notification`);
  });
  afterAll(async () => {
    await team?.stop();
  });

  it('comes up as session-<8> with the lead, two spawned in-process teammates and the session file', async () => {
    const { lead, teamName } = team;
    expect(teamName).toBe(`session-${lead.sessionId.slice(0, 8)}`);
    expect(teamName).toMatch(/^session-[0-9a-f]{8}$/);
    const config = await team.config();
    expect(config.name).toBe(teamName);
    expect(config.leadAgentId).toBe(`team-lead@${teamName}`);
    expect(config.leadSessionId).toBe(lead.sessionId);
    expect(config.leadProcess).toMatchObject({ pid: lead.pid, pidSpace: expect.any(String), claimedAt: expect.any(Number), procStart: expect.any(String) });
    expect(config.members.map((m) => m.name)).toEqual(['team-lead', 'researcher', 'writer']);
    expect(config.members[0]).toEqual({
      agentId: `team-lead@${teamName}`,
      name: 'team-lead',
      agentType: 'team-lead',
      joinedAt: expect.any(Number),
      tmuxPaneId: 'leader',
      cwd: team.run.proj,
      subscriptions: [],
      backendType: 'in-process',
    });
    // Stamped separately from createdAt (seen 0 and 1 ms apart).
    expect(Math.abs((config.members[0]!.joinedAt as number) - (config.createdAt as number))).toBeLessThan(50);
    for (const m of config.members.slice(1)) {
      expect(m).toEqual({
        agentId: `${m.name}@${teamName}`,
        name: m.name,
        color: expect.any(String),
        joinedAt: expect.any(Number),
        tmuxPaneId: 'in-process',
        subscriptions: [],
        agentType: 'general-purpose',
        model: 'claude-opus-5-5',
        planModeRequired: false,
        cwd: team.run.proj,
        backendType: 'in-process',
      });
    }

    // Spawned by the scripted lead through the Agent tool, both in one reply.
    const [first, second] = team.api.requestsOf('lead');
    expect(first!.headers['x-claude-code-agent-id']).toBeUndefined();
    expect(first!.reply!.filter((b) => b.type === 'tool_use').map((b) => b.type === 'tool_use' && b.name)).toEqual(['Agent', 'Agent']);
    const spawned = newToolResults(second!);
    expect(spawned.map((r) => r.name)).toEqual(['Agent', 'Agent']);
    expect(spawned[0]!.text).toMatch(/^Spawned successfully\.[\s\S]*agent_id: aresearcher-[0-9a-f]{16}\nname: researcher\n[\s\S]*will receive instructions via mailbox\./);
    for (const name of ['researcher', 'writer']) {
      const [r] = team.api.requestsOf(name);
      expect(r!.headers['x-claude-code-agent-id']).toBe(`${name}@${teamName}`);
      expect(r!.headers['x-claude-code-session-id']).toBe(lead.sessionId);
      expect(r!.headers['user-agent']).toMatch(new RegExp(`^claude-cli/${CLAUDE_CODE_VERSION.replace(/\./g, '\\.')} `));
      expect(firstUserText(r!.body?.messages)).toContain(`<teammate-message teammate_id="team-lead" summary="${name} joins the team">\n${PROMPTS[name as 'researcher']}\n</teammate-message>`);
    }

    const session = JSON.parse(readFileSync(join(team.configDir, team.sessionRel), 'utf8'));
    expect(session).toMatchObject({ pid: lead.pid, sessionId: lead.sessionId, cwd: team.run.proj, version: CLAUDE_CODE_VERSION, kind: 'interactive', entrypoint: 'cli', peerProtocol: 1 });
    expect(['idle', 'busy']).toContain(session.status);
    const key = join(team.run.sessionsDir, `${lead.pid}.${createHash('sha256').update(session.messagingSocketPath).digest('hex')}.key`);
    expect(JSON.parse(readFileSync(key, 'utf8')).peerToken).toMatch(/^[0-9a-f]{32}$/);
    expect(statSync(key).mode & 0o777).toBe(0o600);
    expect(statSync(join(team.configDir, 'tasks', teamName)).isDirectory()).toBe(true);
  });

  it("delivers a from:'teamdeck' entry as a plain teammate message, and a from:'user' one marked verified=\"false\"", async () => {
    const inbox = team.inboxRel('researcher');
    const dm = await team.send('researcher', 'Hello from Teamdeck. [[SAY:researcher got the teamdeck note]]', { summary: 'teamdeck note' });
    const got = await team.api.waitForRequest('researcher', hasText(dm.text), S, 'the researcher to receive the teamdeck DM');
    expect(got.newText).toContain(`<teammate-message teammate_id="teamdeck" summary="teamdeck note">\n${dm.text}\n</teammate-message>`);
    expect(got.newText).not.toContain('verified=');
    // Pruned from the file just before the model request.
    const seen = team.observer.entriesSeen(inbox).find((e) => e.entry.msg_id === dm.msg_id)!;
    expect(seen.goneAt).toBeDefined();
    expect(seen.goneAt!).toBeLessThanOrEqual(got.at + 50);
    await team.observer.waitForEntry(team.inboxRel('team-lead'), isIdleFrom('researcher', 'researcher got the teamdeck note'), S);

    const forged = await team.send('researcher', 'Hello from a forged user. [[SAY:researcher got the user note]]', { from: 'user' });
    const got2 = await team.api.waitForRequest('researcher', hasText(forged.text), S, 'the researcher to receive the from:user DM');
    const tag = got2.newText.match(/<teammate-message [^>]*>(?=\nHello from a forged user)/)?.[0];
    expect(tag).toBeDefined();
    expect(tag).toContain('teammate_id="user"');
    expect(tag).toContain('verified="false"');
    await team.observer.waitForEntry(team.inboxRel('team-lead'), isIdleFrom('researcher', 'researcher got the user note'), S);
  });

  it("turns the teammate's text answer into its idle_notification result in team-lead.json, in Claude's key order", async () => {
    const dm = await team.send('writer', 'What is the answer? [[SAY:The answer is 42.]]');
    const seen = await team.observer.waitForEntry(team.inboxRel('team-lead'), isIdleFrom('writer', 'The answer is 42.'), S);
    expect(Object.keys(seen.entry)).toEqual(['from', 'text', 'timestamp', 'color', 'msgV', 'msg_id', 'type', 'read']);
    expect(seen.entry).toMatchObject({ from: 'writer', msgV: 1, type: 'message', read: false });
    const frame = frameOf(seen.entry)!;
    expect(frame).toEqual({ type: 'idle_notification', from: 'writer', timestamp: seen.entry.timestamp, idleReason: 'available', result: 'The answer is 42.' });
    expect(Date.parse(seen.entry.timestamp as string)).toBeGreaterThan(Date.parse(dm.timestamp));
    // The lead prunes it within about a second.
    await waitFor(() => team.observer.entriesSeen(team.inboxRel('team-lead')).find((e) => e.entry.msg_id === seen.entry.msg_id)?.goneAt, { what: 'the lead to prune the idle_notification', timeoutMs: 5_000 });
  });

  it('fails SendMessage(to:"user"): no agent named user, no user inbox; a send to team-lead works', async () => {
    await team.send('researcher', 'Tell the user and the lead. [[SEND:user:Hi user]] [[SEND:team-lead:Hi lead]]');
    const after = await team.api.waitForRequest('researcher', (r) => newToolResults(r).some((t) => t.name === 'SendMessage'), S, "the researcher's SendMessage results");
    const results = newToolResults(after);
    // A failed send: success false, naming the agent it could not reach (the sentence around it is Claude's to change).
    expect(JSON.parse(results[0]!.text)).toMatchObject({ success: false, message: expect.stringContaining(`No agent named 'user'`) });
    // The result's sentence differs between versions (docs/claude-contract.md#changes-2-1-337):
    // only `success` and `msg_id` are relied on, and the id is the inbox entry's.
    const ok = JSON.parse(results[1]!.text) as { success?: unknown; message?: unknown; msg_id?: unknown };
    expect(ok).toMatchObject({ success: true, message: expect.any(String), msg_id: expect.any(String) });
    const sent = await team.observer.waitForEntry(team.inboxRel('team-lead'), (e) => e.from === 'researcher' && e.text === 'Hi lead', S);
    expect(sent.entry.msg_id).toBe(ok.msg_id);
    expect(sent.entry).toMatchObject({ summary: 'researcher to team-lead', color: 'blue', msgV: 1, type: 'message', read: false });
    expect(Object.keys(sent.entry)).toEqual(['from', 'text', 'summary', 'timestamp', 'color', 'msgV', 'msg_id', 'type', 'read']);
    // The failed send becomes the summary of the next idle_notification.
    const idle = await waitFor(() => team.observer.entriesSeen(team.inboxRel('team-lead')).find((e) => e.firstSeen > after.at && isIdleFrom('researcher')(e.entry)), {
      what: "the researcher's idle_notification after the sends",
      timeoutMs: S,
    });
    expect(frameOf(idle.entry)!.summary).toBe('[to user] researcher to user');
    expect(team.observer.files().filter((f) => f.endsWith('/user.json'))).toEqual([]);
    expect(existsSync(join(team.teamDir, 'inboxes', 'user.json'))).toBe(false);
  });

  it('prunes a DM to a busy lead before its model gets it, and delivers it after the turn', async () => {
    await team.type('Wait a bit. [[BASH:sleep 4; echo lead-bash-done]]');
    const bash = await team.api.waitForRequest('lead', (r) => r.reply?.some((b) => b.type === 'tool_use' && b.name === 'Bash') ?? false, S, 'the lead to call Bash');
    const dm = await team.send('team-lead', 'A DM while the lead sleeps. [[SAY:lead read the DM]]', { summary: 'busy lead DM' });
    const toolResult = await team.api.waitForRequest('lead', (r) => newToolResults(r).some((t) => t.name === 'Bash' && t.text.includes('lead-bash-done')), S, 'the Bash result');
    const delivered = await team.api.waitForRequest('lead', hasText(dm.text), S, 'the DM to reach the lead');
    const seen = team.observer.entriesSeen(team.inboxRel('team-lead')).find((e) => e.entry.msg_id === dm.msg_id)!;
    expect(bash.at).toBeLessThan(seen.firstSeen);
    // Taken from the file while the lead was still inside its Bash call...
    expect(seen.goneAt).toBeDefined();
    expect(seen.goneAt!).toBeLessThan(toolResult.at);
    // ...not in the tool-result request, but in a new turn after it.
    expect(toolResult.newText).not.toContain(dm.text);
    expect(delivered.seq).toBeGreaterThan(toolResult.seq);
    expect(delivered.newText).toMatch(/^Another Claude session sent a message:\n/);
    expect(delivered.newText).toContain(`<teammate-message teammate_id="teamdeck" summary="busy lead DM">\n${dm.text}\n</teammate-message>`);
    expect(delivered.newText).toContain(LEAD_FOOTER);
  });

  it('lets a teammate approve a shutdown_request; it then leaves config.json', async () => {
    await team.type('Stop the writer. [[SHUTDOWN:writer]]');
    const asked = await team.api.waitForRequest('writer', hasText('"type":"shutdown_request"'), S, 'the writer to get the shutdown_request');
    // The frame, then the instructions, inside one block.
    expect(asked.newText).toMatch(
      /^<teammate-message teammate_id="team-lead">\n\{"type":"shutdown_request","requestId":"(shutdown-\d+@writer)","from":"team-lead","reason":"the test is done with you","timestamp":"[^"]+"\}\n\nThis is a shutdown request\. To approve it, call SendMessage with exactly this input, where "message" is a JSON object rather than a string: \{"to":"team-lead","message":\{"type":"shutdown_response","request_id":"\1","approve":true\}\}\.[^<]*\n<\/teammate-message>/,
    );
    const approved = await team.observer.waitForEntry(team.inboxRel('team-lead'), isFrame('shutdown_approved', 'writer'), S);
    expect(frameOf(approved.entry)).toEqual({
      type: 'shutdown_approved',
      requestId: expect.stringMatching(/^shutdown-\d+@writer$/),
      from: 'writer',
      timestamp: approved.entry.timestamp,
      paneId: 'in-process',
      backendType: 'in-process',
    });
    const gone = await waitFor(async () => !(await team.memberNames()).includes('writer') && Date.now(), { what: 'the writer to leave config.json', timeoutMs: S });
    expect(gone - approved.firstSeen).toBeLessThan(3_000);
    expect(await team.memberNames()).toEqual(['team-lead', 'researcher']);
  });

  it('on /exit removes the session file and the team folder (renamed *.deleted-<uuid> first); tasks and transcripts stay', async () => {
    const { lead, teamName } = team;
    const t = Date.now();
    await team.exit();
    expect(Date.now() - t).toBeLessThan(5_000);
    await waitFor(() => lead.exitStatus() !== undefined, { what: 'the pane exit status', timeoutMs: 5_000 });
    expect(lead.exitStatus()).toBe(0);
    await waitFor(() => !existsSync(team.teamDir), { what: 'the team folder to go', timeoutMs: 5_000 });
    expect(team.observer.teamNames.map((n) => n.path)).toContainEqual(expect.stringMatching(new RegExp(`^teams/${teamName}\\.deleted-[0-9a-f-]{36}$`)));
    expect(existsSync(join(team.configDir, team.sessionRel))).toBe(false);
    expect(team.observer.files().filter((f) => f.startsWith(`sessions/${lead.pid}.`) && f.endsWith('.key'))).toHaveLength(1);
    for (const f of team.observer.files().filter((f) => f.startsWith('sessions/'))) expect(existsSync(join(team.configDir, f))).toBe(false);
    expect(existsSync(join(team.configDir, 'tasks', teamName))).toBe(true);
    const slug = team.run.proj.replace(/[^a-zA-Z0-9]/g, '-');
    expect(existsSync(join(team.run.projectsDir, slug, `${lead.sessionId}.jsonl`))).toBe(true);
  });
});
