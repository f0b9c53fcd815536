// What text typed into the interactive lead's terminal becomes, checked on the real binary:
// Teamdeck's "terminal channel" types a message there (a lead turn, or `@name text` for a
// teammate) and finds it again in the transcripts to tell whether it was delivered (after a
// crash it looks there before typing again). Two teams: one in bypass mode with a teammate for
// typed turns, pastes, typing while busy and `@name`; one in manual mode for permission dialogs,
// during which nothing may be typed. README.md, "The lead's terminal as a channel", has the facts.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTranscript, teammateTranscript, toolCalls, type TranscriptRow } from './harness/activity-cli.js';
import { CLAUDE_CODE_VERSION } from './harness/binary.js';
import { isIdleFrom } from './harness/entries.js';
import { leadTranscriptPath, pasteWhole, typingBlocker, unwrapPasted, type LeadStatus } from './harness/paste.js';
import { directiveScript, newToolResults, text as textBlock, type ApiRequest, type Script } from './harness/script.js';
import { readJsonRetry, startTeam, type Team } from './harness/team.js';
import { inputBox } from './harness/tmux-lead.js';
import { describeClaude, reportOnFailure } from './harness/vitest.js';
import { delay, waitFor } from './harness/wait.js';

const S = 15_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const WORKER = { worker: 'You are the worker. [[SAY:worker ready]]' };
const MID_TURN = 'The user sent a new message while you were working:\n';
const WRAPPED = (t: string) => new RegExp(`^\\n\\n<pasted_content id="([0-9a-f]{4})">\\n${t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n</pasted_content id="\\1">\\n$`);

/** The directives, plus `[[SLOW]]`: the answer comes 2.5 s late (a model still writing its final text). */
function leadScript(): Script {
  const directives = directiveScript({ prompts: WORKER });
  return async (req) => {
    if (!req.newText.includes('[[SLOW]]')) return directives(req);
    await delay(2_500);
    return [textBlock('slow answer done')];
  };
}

const contentOf = (r: TranscriptRow | undefined) => r?.message?.content;
/** The assistant row that ends a turn (a team's lead writes no turn_duration row). */
const endsTurn = (r: TranscriptRow) => r.type === 'assistant' && (r.message as { stop_reason?: string } | undefined)?.stop_reason === 'end_turn';
const rowHas = (t: string) => (r: TranscriptRow) => JSON.stringify(r).includes(JSON.stringify(t).slice(1, -1));

/** Timings for the README, printed at the end. */
const timings: string[] = [];
const note = (what: string, ms: number) => timings.push(`${what}: ${ms} ms`);

describeClaude(`Claude Code ${CLAUDE_CODE_VERSION}: the lead's terminal as a message channel`, () => {
  afterAll(() => {
    if (timings.length) process.stdout.write(`\n[terminal-typing] ${timings.join('; ')}\n`);
  });

  describe('a lead in bypass mode with a teammate', () => {
    let team: Team;
    let transcript: string;
    reportOnFailure(() => team?.report());
    const rows = () => readTranscript(transcript);
    const lastLine = () => rows().at(-1)?.line ?? 0;
    const after = (line: number) => rows().filter((r) => r.line > line);
    const status = () => readJsonRetry<LeadStatus>(join(team.configDir, team.sessionRel));
    const idle = () => waitFor(async () => (await status()).status === 'idle', { what: 'the lead to be idle', timeoutMs: S, intervalMs: 25 });
    /** Waits for the lead's model request that `pred` picks, for its answer in the transcript, then for idle. */
    const leadTurnDone = async (pred: (r: ApiRequest) => boolean, what: string) => {
      const r = await team.api.waitForRequest('lead', pred, S, what);
      await waitFor(() => rows().find((row) => endsTurn(row) && (row.message as { id?: string }).id === `msg_standin_${r.seq}`), { what: `the answer to ${what}`, timeoutMs: S, intervalMs: 10 });
      await idle();
    };

    /** Teamdeck's way in: check it may type, paste `text`, Enter; the turn's user row and model request. */
    async function turn(text: string, opts: { how?: 'paste' | 'pieces'; box?: RegExp } = {}) {
      expect(typingBlocker(await status(), team.lead.screen())).toBeUndefined();
      const from = lastLine();
      if (opts.how === 'pieces') await pasteWhole(team.lead, text, { submit: false });
      else await team.lead.paste(text, { submit: false });
      const box = await waitFor(() => inputBox(team.lead.screen()).replace(/^❯\s?/, '').trim() || undefined, { what: 'the paste in the input box', timeoutMs: 5_000, intervalMs: 25 });
      if (opts.box) expect(box).toMatch(opts.box);
      await delay(250);
      const enterAt = Date.now();
      team.lead.keys('Enter');
      // The human's row: inbox mail to the lead is a user row too, but without an origin.
      const user = await waitFor(() => after(from).find((r) => r.type === 'user' && (r.origin as { kind?: string } | undefined)?.kind === 'human'), { what: 'the user row', timeoutMs: S, intervalMs: 10 });
      const seenAt = Date.now();
      const request = await team.api.waitForRequest('lead', (r) => r.at >= enterAt && r.newText.includes(text.slice(0, 30)), S, 'the model request of the turn');
      const done = await waitFor(() => after(user.line).find(endsTurn), { what: 'the end of the turn', timeoutMs: S, intervalMs: 10 });
      return { user, request, done, enterAt, seenAt, from };
    }

    beforeAll(async () => {
      team = await startTeam({ teammates: ['worker'], prompts: WORKER, scripts: { lead: leadScript() } });
      transcript = leadTranscriptPath(team.run.projectsDir, team.run.proj, team.lead.sessionId);
      await team.observer.waitForEntry(team.inboxRel('team-lead'), isIdleFrom('worker'), S, "the worker's first idle_notification");
      // The lead takes the idle_notification as a turn of its own; then it is idle.
      await leadTurnDone((r) => r.newText.includes('idle_notification'), "the worker's first idle_notification");
    });
    afterAll(async () => {
      await team?.stop();
    });

    it('takes a typed single line to the idle lead as a plain user turn: origin human, promptSource typed, the exact text', async () => {
      // The first prompt went in through send-keys -l (startTeam): the same row shape.
      const first = rows().find((r) => r.type === 'user')!;
      expect(contentOf(first)).toMatch(/^\[\[ROLE:lead\]\] Start the team\./);
      expect(first).toMatchObject({ origin: { kind: 'human' }, promptSource: 'typed', parentUuid: null });

      const text = 'What is two plus two? [[SAY:four]]';
      const { user, request, done, enterAt, seenAt } = await turn(text);
      expect(user).toMatchObject({
        type: 'user',
        isSidechain: false,
        message: { role: 'user', content: text },
        permissionMode: 'bypassPermissions',
        origin: { kind: 'human' },
        promptSource: 'typed',
        turnOrigin: 'human',
        turnPosition: { promptIndex: expect.any(Number), turnIndex: expect.any(Number) },
      });
      expect(user.uuid).toMatch(UUID);
      expect(user.promptId).toMatch(UUID);
      expect(user).not.toHaveProperty('rowSource');
      // The model gets the text alone: no wrapper, no footer.
      expect(request.newContent).toEqual([{ type: 'text', text, cache_control: { type: 'ephemeral' } }]);
      // The turn's answer: the text of its end_turn assistant row.
      expect(contentOf(done)).toEqual([{ type: 'text', text: 'four' }]);
      note('Enter -> user row on disk (idle lead)', seenAt - enterAt);
      note('Enter -> model request', request.at - enterAt);
      note('user row timestamp - Enter', Date.parse(user.timestamp!) - enterAt);
    });

    it('takes a paste of up to 800 characters and 3 lines whole, wraps a bigger one in <pasted_content>, and a bigger one pasted in pieces arrives exact', async () => {
      const three = 'Three lines: one [[SAY:got three]]\ntwo\nthree';
      const a = await turn(three, { box: /^Three lines: one \[\[SAY:got three\]\]\n\s+two\n\s+three$/ });
      expect(contentOf(a.user)).toBe(three);
      expect(a.request.newContent[0]!.text).toBe(three);

      // Four lines (3 newlines): a placeholder in the box, the text wrapped in the turn.
      const four = 'Four lines: one [[SAY:got four]]\ntwo\nthree\nfour';
      const b = await turn(four, { box: /^\[Pasted text #\d+ \+3 lines\]$/ });
      expect(contentOf(b.user)).toMatch(WRAPPED(four));
      expect(unwrapPasted(contentOf(b.user) as string)).toBe(four);
      expect(b.request.newContent[0]!.text).toBe(contentOf(b.user));
      expect(b.user).toMatchObject({ origin: { kind: 'human' }, promptSource: 'typed' });

      // 801+ characters on one line: the same.
      const long = `Long line [[SAY:got long]] ${'x'.repeat(1_000)} end`;
      const c = await turn(long, { box: /^\[Pasted text #\d+\]$/ });
      expect(contentOf(c.user)).toMatch(WRAPPED(long));
      // One session, one id for every paste block.
      expect((contentOf(c.user) as string).match(WRAPPED(long))![1]).toBe((contentOf(b.user) as string).match(WRAPPED(four))![1]);

      // Pieces of at most 800 characters and 2 newlines each, pasted one after another: exact.
      const big = Array.from({ length: 12 }, (_, i) => (i ? `line ${i + 1} ` : 'Twelve lines [[SAY:got twelve]] ') + 'y'.repeat(150)).join('\n');
      const d = await turn(big, { how: 'pieces' });
      expect(contentOf(d.user)).toBe(big);
      expect(d.request.newContent[0]!.text).toBe(big);
    });

    it('turns a leading "/" into a slash command and a leading "!" into a shell command; a leading space makes both plain text', async () => {
      let from = lastLine();
      await team.lead.paste('!echo bang > bang.txt');
      await waitFor(() => existsSync(join(team.run.proj, 'bang.txt')), { what: 'the shell command to run', timeoutMs: 5_000 });
      const bash = await waitFor(() => after(from).find((r) => r.type === 'user' && r.rowSource === 'local'), { what: 'the bash-input row', timeoutMs: 5_000 });
      expect(bash).toMatchObject({ message: { role: 'user', content: '<bash-input>echo bang > bang.txt</bash-input>' }, rowSource: 'local' });
      const out = await waitFor(() => after(bash.line).find((r) => r.type === 'user' && r.rowSource === 'local'), { what: 'the bash-stdout row', timeoutMs: 5_000 });
      expect(out).toMatchObject({ message: { content: '<bash-stdout>(Bash completed with no output)</bash-stdout><bash-stderr></bash-stderr>' }, rowSource: 'local' });
      // Its output then goes to the model, which answers.
      await waitFor(() => after(out.line).find((r) => r.type === 'assistant'), { what: 'the answer to the shell output', timeoutMs: S });
      await idle();

      from = lastLine();
      await team.lead.paste('/nosuchcommand hello');
      const unknown = await waitFor(() => after(from).find((r) => r.type === 'system'), { what: 'the unknown-command row', timeoutMs: 5_000 });
      expect(unknown).toMatchObject({ subtype: 'informational', content: 'Unknown command: /nosuchcommand', level: 'warning' });
      await delay(300);
      expect(after(from).filter((r) => r.type === 'user')).toEqual([]);

      for (const text of [' !echo no shell [[SAY:plain bang]]', ' /nosuchcommand hello [[SAY:plain slash]]']) {
        const t = await turn(text);
        expect(t.user).toMatchObject({ message: { content: text }, promptSource: 'typed' });
      }
    });

    it('records a line typed while the lead runs a tool at once as queue-operation enqueue; the model gets it with the next tool result, and no user row is written', async () => {
      const from = lastLine();
      await team.lead.paste('Busy now. [[BASH:sleep 3; echo slept-3]]');
      await waitFor(() => after(from).find((r) => r.type === 'assistant' && JSON.stringify(r.message).includes('slept-3')), { what: 'the Bash call in the transcript', timeoutMs: S });
      expect((await status()).status).toBe('busy');
      // Busy is no reason not to type.
      expect(typingBlocker(await status(), team.lead.screen())).toBeUndefined();

      const text = 'Queued while a tool runs [[SAY:saw the queued one]]';
      await team.lead.paste(text, { submit: false });
      await waitFor(() => inputBox(team.lead.screen()).includes('Queued while a tool runs'), { what: 'the paste in the box', timeoutMs: 5_000, intervalMs: 25 });
      await delay(250);
      const enterAt = Date.now();
      team.lead.keys('Enter');
      const enqueue = await waitFor(() => after(from).find((r) => r.type === 'queue-operation' && r.operation === 'enqueue'), { what: 'the enqueue row', timeoutMs: 5_000, intervalMs: 5 });
      note('Enter -> queue-operation enqueue on disk (busy lead)', Date.now() - enterAt);
      expect(enqueue).toMatchObject({ type: 'queue-operation', operation: 'enqueue', timestamp: expect.any(String), content: text });
      await waitFor(() => inputBox(team.lead.screen()).includes('Press up to edit queued messages'), { what: 'the queued hint in the box', timeoutMs: 2_000, intervalMs: 25 });

      const absorbed = await team.api.waitForRequest('lead', (r) => r.newText.includes(text), S, 'the queued text to reach the model');
      expect(newToolResults(absorbed).map((t) => t.text)).toEqual(['slept-3']);
      const said = absorbed.newContent.find((b) => b.type === 'text')!.text!;
      expect(said.startsWith(`${MID_TURN}${text}\n\n`)).toBe(true);
      expect(said).toContain('This is how Claude Code surfaces messages the user sends mid-turn');

      const end = await waitFor(() => after(enqueue.line).find(endsTurn), { what: 'the end of the turn', timeoutMs: S });
      const rest = after(enqueue.line).filter((r) => r.line <= end.line);
      const removed = rest.find((r) => r.type === 'queue-operation')!;
      expect(removed).toMatchObject({ operation: 'remove', content: text, reason: 'absorbed_mid_turn', commandUuid: expect.stringMatching(UUID), deliveryId: expect.stringMatching(UUID) });
      const attachment = rest.find((r) => r.type === 'attachment' && (r.attachment as { type?: string }).type === 'queued_command')!;
      expect(attachment.attachment).toMatchObject({
        type: 'queued_command',
        prompt: text,
        source_uuid: removed.commandUuid,
        delivery_id: removed.deliveryId,
        commandMode: 'prompt',
        origin: { kind: 'human' },
        humanTurn: true,
      });
      expect((attachment.rendered as Array<{ content: string }>)[0]!.content).toContain(`${MID_TURN}${text}`);
      expect(rest.filter((r) => r.type === 'user' && contentOf(r) === text)).toEqual([]);
      expect(contentOf(end)).toEqual([{ type: 'text', text: 'saw the queued one' }]);
      await idle();
    });

    it('runs a line typed while the lead writes its final answer as a turn of its own afterwards: enqueue, dequeue, a user row with promptSource "queued"', async () => {
      const from = lastLine();
      await team.lead.paste('Think slowly. [[SLOW]]');
      await team.api.waitForRequest('lead', (r) => r.newText.includes('[[SLOW]]'), S);
      const text = 'Queued behind a slow answer [[SAY:answered the queued one]]';
      await team.lead.paste(text, { submit: false });
      await waitFor(() => inputBox(team.lead.screen()).includes('Queued behind'), { what: 'the paste in the box', timeoutMs: 5_000, intervalMs: 25 });
      await delay(250);
      const enterAt = Date.now();
      team.lead.keys('Enter');
      const enqueue = await waitFor(() => after(from).find((r) => r.type === 'queue-operation' && r.operation === 'enqueue'), { what: 'the enqueue row', timeoutMs: 5_000, intervalMs: 5 });
      expect(enqueue).toMatchObject({ content: text });
      const user = await waitFor(() => after(enqueue.line).find((r) => r.type === 'user' && contentOf(r) === text), { what: 'the queued turn', timeoutMs: S, intervalMs: 10 });
      const dequeue = after(enqueue.line).find((r) => r.type === 'queue-operation')!;
      expect(dequeue).toMatchObject({ type: 'queue-operation', operation: 'dequeue', timestamp: expect.any(String) });
      expect(dequeue).not.toHaveProperty('content');
      expect(dequeue.line).toBeLessThan(user.line);
      expect(user).toMatchObject({ message: { role: 'user', content: text }, origin: { kind: 'human' }, promptSource: 'queued', turnOrigin: 'human', sentAtMs: expect.any(Number) });
      expect(Math.abs((user.sentAtMs as number) - enterAt)).toBeLessThan(1_000);
      const request = await team.api.waitForRequest('lead', (r) => r.newText.includes(text), S);
      expect(request.newContent).toEqual([{ type: 'text', text, cache_control: { type: 'ephemeral' } }]);
      note('Enter -> the queued turn\'s user row (after a 2.5 s answer)', Date.parse(user.timestamp!) - enterAt);
      await idle();
    });

    it('takes a line typed while only a teammate works (the lead "busy") as a direct turn', async () => {
      await team.send('worker', 'Work a while. [[BASH:sleep 3; echo worker-slept]]');
      await team.api.waitForRequest('worker', (r) => r.reply?.some((b) => b.type === 'tool_use' && b.name === 'Bash') ?? false, S, "the worker's Bash call");
      await waitFor(async () => (await status()).status === 'busy', { what: 'the lead to be busy', timeoutMs: 2_000 });
      const text = 'Typed while the worker works [[SAY:lead answered]]';
      const t = await turn(text);
      expect(t.user).toMatchObject({ message: { content: text }, promptSource: 'typed' });
      expect(after(t.from).filter((r) => r.type === 'queue-operation')).toEqual([]);
      await team.observer.waitForEntry(team.inboxRel('team-lead'), isIdleFrom('worker', 'worker: ok'), S);
      await leadTurnDone((r) => r.newText.includes('"result":"worker: ok"'), 'the idle_notification after the work');
    });

    it('sends "@worker text" to the worker inbox as from:"user"; the worker sees <teammate-message teammate_id="user">; the lead\'s transcript has no trace', async () => {
      const body = 'Hello worker from the user [[SAY:worker got the user note]]';
      const wt = teammateTranscript(team.run.projectsDir, team.lead.sessionId, 'worker')!;
      const wFrom = readTranscript(wt).at(-1)!.line;
      const from = lastLine();
      await team.lead.paste(`@worker ${body}`, { submit: false });
      await waitFor(() => inputBox(team.lead.screen()).includes('@worker Hello'), { what: 'the paste in the box', timeoutMs: 5_000, intervalMs: 25 });
      await delay(250);
      const enterAt = Date.now();
      team.lead.keys('Enter');
      await waitFor(() => team.lead.screen().includes('Sent to @worker'), { what: 'the "Sent to @worker" notice', timeoutMs: 2_000, intervalMs: 20 });
      expect(inputBox(team.lead.screen()).replace(/^❯/, '').trim()).toBe('');

      const seen = await team.observer.waitForEntry(team.inboxRel('worker'), (e) => e.text === body, 5_000, 'the entry in the worker inbox');
      note('Enter -> from:"user" entry in the inbox', seen.firstSeen - enterAt);
      expect(seen.entry).toEqual({ from: 'user', text: body, timestamp: expect.any(String), msgV: 1, msg_id: expect.stringMatching(UUID), type: 'message', read: false });
      expect(Object.keys(seen.entry)).toEqual(['from', 'text', 'timestamp', 'msgV', 'msg_id', 'type', 'read']);
      const framed = `<teammate-message teammate_id="user">\n${body}\n</teammate-message>`;
      const got = await team.api.waitForRequest('worker', (r) => r.newText.includes(body), S, 'the worker to get it');
      note('Enter -> the worker\'s model request', got.at - enterAt);
      expect(got.newText).toBe(framed);
      const row = await waitFor(() => readTranscript(wt).find((r) => r.line > wFrom && r.type === 'user'), { what: "the worker's row", timeoutMs: 5_000 });
      expect(row).toMatchObject({ type: 'user', isSidechain: true, agentId: expect.stringMatching(/^aworker-[0-9a-f]{16}$/), rowSource: 'recorded', message: { role: 'user', content: framed } });

      // The lead's model never sees the line; its transcript gets only the idle_notification after.
      await leadTurnDone((r) => r.newText.includes('"result":"worker got the user note"'), 'the idle_notification after the note');
      expect(after(from).filter(rowHas('Hello worker from the user'))).toEqual([]);
      expect(team.api.requestsOf('lead').filter((r) => r.newText.includes('Hello worker from the user'))).toEqual([]);
    });

    it('routes a 3-line "@worker" paste whole; a 5-line one becomes a placeholder and a lead turn; "@worker " with the body in pieces routes whole; "@nobody" is a lead turn', async () => {
      const inbox = team.inboxRel('worker');
      const three = '@worker Three for the worker [[SAY:worker got three]]\nsecond\nthird';
      await team.lead.paste(three);
      const e3 = await team.observer.waitForEntry(inbox, (e) => String(e.text).startsWith('Three for the worker'), 5_000);
      expect(e3.entry).toMatchObject({ from: 'user', text: three.slice('@worker '.length) });
      await leadTurnDone((r) => r.newText.includes('"result":"worker got three"'), 'the idle_notification after three lines');

      const five = '@worker Five for the worker [[SAY:lead got five]]\n2\n3\n4\n5';
      const t5 = await turn(five, { box: /^\[Pasted text #\d+ \+4 lines\]$/ });
      expect(contentOf(t5.user)).toMatch(WRAPPED(five));
      expect(team.observer.entriesSeen(inbox).filter((e) => String(e.entry.text).includes('Five for the worker'))).toEqual([]);
      await idle();

      const body = 'Five in pieces [[SAY:worker got five]]\n2\n3\n4\n5';
      await pasteWhole(team.lead, `@worker ${body}`);
      const e5 = await team.observer.waitForEntry(inbox, (e) => String(e.text).startsWith('Five in pieces'), 5_000);
      expect(e5.entry).toMatchObject({ from: 'user', text: body });
      await leadTurnDone((r) => r.newText.includes('"result":"worker got five"'), 'the idle_notification after five lines');

      const nobody = '@nobody are you there [[SAY:lead got the nobody note]]';
      const tn = await turn(nobody);
      expect(tn.user).toMatchObject({ message: { content: nobody }, origin: { kind: 'human' }, promptSource: 'typed' });
      expect(team.observer.files().filter((f) => f.endsWith('/nobody.json'))).toEqual([]);
    });

    it('merges a paste with a half-typed draft into one turn, so the blocker refuses while a draft is in the box', async () => {
      team.lead.typeRaw('draft by the user ');
      await waitFor(() => inputBox(team.lead.screen()).includes('draft by the user'), { what: 'the draft in the box', timeoutMs: 5_000, intervalMs: 25 });
      expect(typingBlocker(await status(), team.lead.screen())).toMatch(/^the input box holds a draft/);
      const from = lastLine();
      await team.lead.paste('and a pasted message [[SAY:got both]]');
      const user = await waitFor(() => after(from).find((r) => r.type === 'user' && r.promptSource === 'typed'), { what: 'the merged turn', timeoutMs: S });
      expect(contentOf(user)).toBe('draft by the user and a pasted message [[SAY:got both]]');
      await idle();
    });
  });

  describe('a lead in manual permission mode (dialogs)', () => {
    let team: Team;
    reportOnFailure(() => team?.report());
    const status = () => readJsonRetry<LeadStatus>(join(team.configDir, team.sessionRel));

    beforeAll(async () => {
      team = await startTeam({ permissionMode: 'default', teammates: ['worker'], prompts: WORKER });
      await team.observer.waitForEntry(team.inboxRel('team-lead'), isIdleFrom('worker'), S, "the worker's first idle_notification");
      await waitFor(async () => (await status()).status === 'idle', { what: 'the lead to be idle', timeoutMs: S });
    });
    afterAll(async () => {
      await team?.stop();
    });

    /** Waits for the dialog, checks the channel would not type, answers "1. Yes" (re-pressed: an early key is dropped). */
    async function dialog(file: string, header: RegExp, ask: () => Promise<unknown>) {
      const askedAt = Date.now();
      await ask();
      const waiting = await waitFor(async () => ((await status()).status === 'waiting' ? status() : undefined), { what: 'the lead to wait', timeoutMs: S, intervalMs: 10 });
      note(`${file}: ask -> waiting`, Date.now() - askedAt);
      expect(waiting).toMatchObject({ status: 'waiting', waitingFor: 'permission prompt' });
      const screen = await waitFor(() => (team.lead.screen().includes('Do you want to proceed?') ? team.lead.screen() : undefined), { what: 'the dialog', timeoutMs: 5_000, intervalMs: 10 });
      expect(screen).toMatch(header);
      expect(screen).toMatch(/❯ 1\. Yes\n/);
      // The input box is gone while the dialog is open; the channel must not type.
      expect(inputBox(screen)).toBe('');
      expect(typingBlocker(waiting, screen)).toBe('the lead waits for permission prompt');
      // A key pressed in the dialog's first moments is dropped (or taken late): give it a moment.
      await delay(600);
      let pressedAt = 0;
      let back: LeadStatus | undefined;
      for (let attempt = 1; attempt <= 4 && !back; attempt++) {
        pressedAt = Date.now();
        team.lead.keys('1');
        back = await waitFor(async () => ((await status()).status !== 'waiting' ? status() : undefined), { what: 'the dialog to take "1"', timeoutMs: 1_000, intervalMs: 5 }).catch(() => undefined);
      }
      expect(back).toBeDefined();
      note(`${file}: "1" taken -> ${back!.status}`, Date.now() - pressedAt);
      expect(back!.waitingFor).toBeUndefined();
      await waitFor(() => existsSync(join(team.run.proj, file)), { what: `${file} to be made`, timeoutMs: 5_000 });
      await waitFor(async () => (await status()).status === 'idle', { what: 'the lead to be idle again', timeoutMs: S });
      expect(typingBlocker(await status(), team.lead.screen())).toBeUndefined();
    }

    it("puts the lead at waiting / \"permission prompt\" with no input box while its own Bash call asks; answered by a key", async () => {
      await dialog('lead-asks.txt', /Bash command\n/, () => team.lead.paste('Make a file. [[BASH:touch lead-asks.txt]]'));
      // Claude appends the transcript's rows on its own schedule: the lead may be idle before the result's row is in.
      const resulted = () => {
        const rows = readTranscript(leadTranscriptPath(team.run.projectsDir, team.run.proj, team.lead.sessionId));
        return toolCalls(rows).find((c) => c.input.command === 'touch lead-asks.txt' && c.result !== undefined);
      };
      const call = await waitFor(resulted, { what: "the Bash call's result in the lead's transcript", timeoutMs: 5_000 });
      expect(call.result?.permissionDecision).toMatchObject({ decision: 'accept', source: 'user_temporary', grantScope: 'once' });
    });

    it("does the same for a teammate's ask, the dialog naming the teammate", async () => {
      await dialog('worker-asks.txt', /Bash command · from the worker agent/, () => team.send('worker', 'Make a file. [[BASH:touch worker-asks.txt]]'));
    });
  });
});
