// Teamdeck's side of the contract, on the real Claude Code 2.1.332: each scenario asserts what
// Claude did (the model requests, the files the observer saw) and what Teamdeck showed through
// the real `teamdeck` command run as child processes, with a `teamdeck watch` engine child
// serving the state dir for the team's life (so send/thread/teams talk to its live history).
// Team A (a lead, researcher, writer) carries scenarios 1-5 in order; team B (a lead, helper)
// is killed with SIGKILL in scenario 6. When the file is done it prints a table of what Claude
// did, what Teamdeck showed and the measured times, and writes it to
// test-results/claude-scenarios.md.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAD_TOKEN } from './harness/api-standin.js';
import { CLAUDE_CODE_VERSION } from './harness/binary.js';
import { frameOf, isFrame, isIdleFrom } from './harness/entries.js';
import { directiveScript, newToolResults, text as textBlock, type ApiRequest, type Script } from './harness/script.js';
import { startTeam, type Team } from './harness/team.js';
import { holdInboxLock, readInbox, startWatch, teamdeckCli, type CliMessage, type TeamdeckCli, type ThreadSample, type WatchEngine } from './harness/teamdeck-cli.js';
import { describeClaude, reportOnFailure } from './harness/vitest.js';
import { waitFor } from './harness/wait.js';

const S = 20_000;
/** The contract's bound for Teamdeck to show an answer or a receipt. */
const SHOW_WITHIN_MS = 8_000;
const LEAD_WRAPPER = 'Another Claude session sent a message:\n';

/**
 * Claude writes a prompt's transcript row just before it sends the model request, and a reply's
 * row as the reply streams in (batches reach the file 60–240 ms late or early relative to the
 * stand-in's log): times read from transcripts are compared with this slack.
 */
const TRANSCRIPT_SLACK_MS = 250;

/** When the stand-in answered `agent` with a reply holding `text`: the answer exists from then. */
function answeredAt(team: Team, agent: string, text: string): number {
  const q = team.api.requestsOf(agent).find((r) => r.reply?.some((b) => b.type === 'text' && b.text.includes(text)));
  if (!q) throw new Error(`no reply from ${agent} with ${JSON.stringify(text)}`);
  return q.at;
}

const hasText = (t: string) => (r: ApiRequest) => r.newText.includes(t);
const sentOf = (ms: CliMessage[], id: string) => ms.find((m) => m.id === id);
/** Where a current-era answer may be found: the idle notification's result, or the member's transcript. */
const CURRENT_SOURCES = ['idle-notification', 'transcript'];
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
/** "1.20 s after" / "0.30 s before": `ms` is later minus earlier. */
const rel = (ms: number) => `${secs(Math.abs(ms))} ${ms < 0 ? 'before' : 'after'}`;

// ------------------------------------------------------------------ the scenario table

interface Row {
  id: string;
  scenario: string;
  claude: string;
  teamdeck: string;
  times: string;
  result: 'passed' | 'FAILED';
}
const rows: Row[] = [];

/** A row of the table, marked FAILED until the test that fills it reaches its end. */
function row(id: string, scenario: string): Row & { pass(): void } {
  const r: Row = { id, scenario, claude: '', teamdeck: '', times: '', result: 'FAILED' };
  rows.push(r);
  return Object.assign(r, { pass: () => void (r.result = 'passed') });
}

function tableText(runMs: number): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, '<br>');
  return [
    `# Teamdeck against Claude Code ${CLAUDE_CODE_VERSION}: contract scenarios`,
    '',
    `Written by test/claude/teamdeck.test.ts (${new Date().toISOString()}, file ran ${secs(runMs)}).`,
    '',
    '| # | Scenario | What Claude did | What Teamdeck showed | Measured | Result |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.id} | ${cell(r.scenario)} | ${cell(r.claude)} | ${cell(r.teamdeck)} | ${cell(r.times)} | ${r.result} |`),
    '',
  ].join('\n');
}

/** Statuses a poll of `thread` showed for one sent message, with repeats folded. */
function statusTrail(samples: ThreadSample[], id: string): string[] {
  const out: string[] = [];
  for (const s of samples) {
    const st = sentOf(s.messages, id)?.status ?? '(absent)';
    if (out.at(-1) !== st) out.push(st);
  }
  return out;
}

/**
 * The harness's directives, plus: a Bash result carrying `ANSWER=<text>` is answered with that
 * text, ending the turn. So `[[BASH:sleep 3; echo ANSWER=…]]` is a teammate that works for a
 * while and then answers, the way a real model takes seconds.
 */
function worksThenAnswers(prompts: Record<string, string>): Script {
  const directives = directiveScript({ prompts });
  return (req) => {
    const done = newToolResults(req).find((t) => t.name === 'Bash' && t.text.includes('ANSWER='));
    return done ? [textBlock(done.text.slice(done.text.indexOf('ANSWER=') + 'ANSWER='.length).trim())] : directives(req);
  };
}

/** A team under test with Teamdeck beside it: the engine child and the command. */
interface Deck {
  team: Team;
  cli: TeamdeckCli;
  watch: WatchEngine;
  /** Lead launched to the spawn prompt typed (lead ready and watch serving), and that to the teammates in config. */
  readyMs: number;
  spawnedMs: number;
}

/**
 * The lead comes up with no teammates; `teamdeck watch` starts on its config dir; then the
 * lead's first typed turn spawns the teammates, so the engine sees the team from its first
 * file on.
 */
async function startDeck(teammates: string[], prompts: Record<string, string>): Promise<Deck> {
  const team = await startTeam({ prompts, scripts: { default: worksThenAnswers(prompts) } });
  let watch: WatchEngine | undefined;
  try {
    const stateDir = join(team.run.run, 'state');
    const where = { teamsDir: team.teamsDir, stateDir, home: team.run.home };
    watch = await startWatch(where);
    const cli = teamdeckCli(where);
    await team.type(`${LEAD_TOKEN} Start the team. ${teammates.map((n) => `[[SPAWN:${n}]]`).join(' ')}`);
    const typedAt = Date.now();
    await waitFor(
      async () => {
        const names = await team.memberNames();
        return teammates.every((n) => names.includes(n));
      },
      { what: `teammates ${teammates.join(', ')} in config.json`, timeoutMs: S, intervalMs: 50 },
    );
    const spawnedMs = Date.now() - typedAt;
    for (const n of teammates) await team.observer.waitForEntry(team.inboxRel('team-lead'), isIdleFrom(n), S, `${n}'s first idle_notification`);
    return { team, cli, watch, spawnedMs, readyMs: typedAt - team.startedAt };
  } catch (e) {
    const r = team.report();
    await watch?.stop();
    await team.stop();
    throw new Error(`${(e as Error).message}\n${r}`);
  }
}

async function stopDeck(d: Deck | undefined): Promise<void> {
  if (!d) return;
  try {
    await d.watch.stop();
  } finally {
    await d.team.stop();
  }
}

function deckReport(d: Deck | undefined): string | undefined {
  if (!d) return undefined;
  return [d.team.report(), d.cli.report(), '--- teamdeck watch ---', d.watch.stderr().trim(), ...d.watch.events.map((e) => `${e.at} ${JSON.stringify(e.event).slice(0, 300)}`)].join('\n');
}

const fileStartedAt = Date.now();

describeClaude(`Teamdeck against Claude Code ${CLAUDE_CODE_VERSION}`, () => {
  afterAll(() => {
    if (rows.length === 0) return;
    const text = tableText(Date.now() - fileStartedAt);
    const dir = fileURLToPath(new URL('../../test-results/', import.meta.url));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'claude-scenarios.md'), text);
    process.stdout.write(`\n${text}\n`);
  });

  describe('team A: a lead with two in-process teammates, to /exit', () => {
    let deck: Deck | undefined;
    let team: Team;
    let cli: TeamdeckCli;
    let watch: WatchEngine;
    reportOnFailure(() => deckReport(deck));

    beforeAll(async () => {
      deck = await startDeck(['researcher', 'writer'], {
        researcher: 'You are the researcher. [[SAY:researcher ready]]',
        writer: 'You are the writer. [[SAY:writer ready]]',
      });
      ({ team, cli, watch } = deck);
    });
    afterAll(async () => {
      await stopDeck(deck);
    });

    it('1. lists the session team as running, current era, sent as teamdeck', async () => {
      const r = row('1', 'Team comes up');
      const config = await team.config();
      expect(config.name).toBe(team.teamName);
      expect(config.leadProcess?.pid).toBe(team.lead.pid);
      expect(config.members.map((m) => m.name)).toEqual(['team-lead', 'researcher', 'writer']);
      r.claude = `interactive lead made ${team.teamName.replace(/[0-9a-f]{8}$/, '<8 hex>')}/config.json with leadProcess (live pid); its first turn spawned researcher and writer in-process`;

      const t0 = Date.now();
      const teams = await cli.teams();
      const listed = teams.find((t) => t.id === team.teamName);
      expect(listed, JSON.stringify(teams)).toBeDefined();
      // The lead has teammates it spawned itself, so it reads team-lead.json.
      expect(listed).toMatchObject({ name: team.teamName, state: 'running', era: 'current', sendAs: 'teamdeck', memberCount: 3, leadReadsInbox: true });
      expect(listed!.endedAt).toBeUndefined();
      expect(listed!.endedReason).toBeUndefined();
      r.teamdeck = `teams --json: state running, era current, sendAs "teamdeck", memberCount 3, leadReadsInbox ${String(listed!.leadReadsInbox)}`;
      r.times = `lead launch to ready with watch serving ${secs(deck!.readyMs)}; spawn prompt to teammates in config ${secs(deck!.spawnedMs)}; teams call ${secs(Date.now() - t0)}`;
      r.pass();
    });

    let dmId = '';
    it('2a. delivers a DM to an idle teammate as teamdeck and shows its answer from the idle notification', async () => {
      const r = row('2a', 'DM to an idle teammate (instant answer)');
      const text = 'Teamdeck asks the researcher for a finding. [[SAY:The finding is 42.]]';
      const sent = await cli.send(team.teamName, 'researcher', text);
      expect(sent.code, sent.stderr).toBe(0);
      expect(sent.sent).toMatchObject({ id: expect.any(String), status: 'accepted' });
      const id = (dmId = sent.sent!.id);

      // Claude: the entry as Claude writes its own, then its model sees it as a plain teammate message.
      const inbox = team.inboxRel('researcher');
      const written = await team.observer.waitForEntry(inbox, (e) => e.msg_id === id, S, 'the DM in the researcher inbox');
      expect(Object.keys(written.entry)).toEqual(['from', 'text', 'timestamp', 'msgV', 'msg_id', 'type', 'read']);
      expect(written.entry).toMatchObject({ from: 'teamdeck', text, msgV: 1, type: 'message', read: false });
      const got = await team.api.waitForRequest('researcher', hasText(text), S, 'the researcher model to get the DM');
      expect(got.newText).toContain(`<teammate-message teammate_id="teamdeck">\n${text}\n</teammate-message>`);
      expect(got.newText).not.toContain('verified=');
      const idle = await team.observer.waitForEntry(team.inboxRel('team-lead'), isIdleFrom('researcher', 'The finding is 42.'), S, "the researcher's idle_notification");
      const pruned = team.observer.entriesSeen(inbox).find((e) => e.entry.msg_id === id)!;
      expect(pruned.goneAt).toBeDefined();
      expect(pruned.goneAt!).toBeLessThanOrEqual(got.at + 50);

      // Teamdeck: the answer in thread, from the researcher, with where it was found.
      const samples = await cli.pollThread(
        team.teamName,
        'researcher',
        (ms) => ms.some((m) => m.from === 'researcher' && m.text === 'The finding is 42.') && sentOf(ms, id)?.status === 'replied',
        S,
        "the researcher's answer and replied in teamdeck thread",
      );
      const firstAnswer = samples.find((s) => s.messages.some((m) => m.from === 'researcher' && m.text === 'The finding is 42.'))!;
      const answer = firstAnswer.messages.find((m) => m.from === 'researcher' && m.text === 'The finding is 42.')!;
      expect(CURRENT_SOURCES).toContain(answer.source);
      const answerMs = firstAnswer.endedAt - idle.firstSeen;
      process.stdout.write(`[scenario 2a] idle_notification in team-lead.json -> answer in teamdeck thread: ${answerMs} ms (that thread call took ${firstAnswer.endedAt - firstAnswer.startedAt} ms)\n`);
      expect(answerMs).toBeLessThan(SHOW_WITHIN_MS);
      expect(sentOf(samples.at(-1)!.messages, id)).toMatchObject({ from: 'user', to: 'researcher', text, status: 'replied', sentAs: 'teamdeck' });

      // The statuses the engine announced: taken before replied, replied not before the model had it.
      const replied = await watch.waitForDelivery(id, 'replied', S);
      const announced = watch.deliveries(id).map((e) => e.event.status);
      expect(announced[0]).toBe('accepted');
      expect(announced).toContain('taken');
      expect(announced.indexOf('taken')).toBeLessThan(announced.indexOf('replied'));
      expect(replied.at).toBeGreaterThanOrEqual(got.at - TRANSCRIPT_SLACK_MS);
      r.claude = `entry {from:"teamdeck", msg_id:<Teamdeck id>} in researcher.json (Claude's key order), pruned ${secs(pruned.goneAt! - written.firstSeen)} after it appeared, just before the model request; model got <teammate-message teammate_id="teamdeck"> without verified=; answered at once: idle_notification result "The finding is 42."`;
      r.teamdeck = `send: exit 0 accepted; thread: answer from researcher, source ${answer.source}; DM in thread polls ${statusTrail(samples, id).join(' > ')}; watch announced ${announced.join(' > ')}${announced.includes('seen') ? '' : ' (no seen: the answer was read before the transcript poll)'}`;
      r.times = `send call ${secs(sent.endedAt - sent.startedAt)}; write to model request ${secs(got.at - written.firstSeen)}; idle_notification to answer in thread ${secs(answerMs)} (watch: replied ${secs(replied.at - idle.firstSeen)} after it)`;
      r.pass();
    });

    it('2b. shows taken, seen, replied for a teammate that works before answering; a DM sent meanwhile waits for its turn', async () => {
      const r = row('2b', 'DM to a teammate that works, and a DM while it works');
      const first = 'Teamdeck gives the researcher work. [[BASH:sleep 4; echo ANSWER=The work took a while.]]';
      const sent = await cli.send(team.teamName, 'researcher', first);
      expect(sent.code, sent.stderr).toBe(0);
      expect(sent.sent!.status).toBe('accepted');
      const id = sent.sent!.id;
      const got = await team.api.waitForRequest('researcher', hasText(first), S, 'the researcher model to get the first DM');
      expect(got.reply?.map((b) => b.type === 'tool_use' && b.name)).toEqual(['Bash']);

      // While the researcher sleeps in Bash: a second DM.
      const second = 'Teamdeck asks again while the researcher works. [[BASH:sleep 2; echo ANSWER=Second answer, after its own work.]]';
      const sent2 = await cli.send(team.teamName, 'researcher', second);
      expect(sent2.code, sent2.stderr).toBe(0);
      expect(sent2.sent!.status).toBe('accepted');
      const id2 = sent2.sent!.id;
      const inbox = team.inboxRel('researcher');
      const written2 = await team.observer.waitForEntry(inbox, (e) => e.msg_id === id2, S, 'the second DM in the researcher inbox');
      const toolResult = await team.api.waitForRequest('researcher', (q) => newToolResults(q).some((t) => t.name === 'Bash' && t.text.includes('The work took a while.')), S, "the researcher's Bash result");
      expect(written2.firstSeen, 'the second DM must land while the researcher is still in Bash').toBeLessThan(toolResult.at);
      const idle1 = await team.observer.waitForEntry(team.inboxRel('team-lead'), isIdleFrom('researcher', 'The work took a while.'), S, 'the idle_notification answering the first DM');
      const got2 = await team.api.waitForRequest('researcher', hasText(second), S, 'the researcher model to get the second DM');
      const idle2 = await team.observer.waitForEntry(team.inboxRel('team-lead'), isIdleFrom('researcher', 'Second answer, after its own work.'), S, 'the idle_notification answering the second DM');
      // Claude: the second DM was not in the tool result; it came as a new turn after the first ended.
      expect(toolResult.newText).not.toContain(second);
      expect(got2.seq).toBeGreaterThan(toolResult.seq);
      expect(got2.newText).toContain(`<teammate-message teammate_id="teamdeck">\n${second}\n</teammate-message>`);

      // Teamdeck: both answers in thread, both DMs replied.
      const samples = await cli.pollThread(
        team.teamName,
        'researcher',
        (ms) => sentOf(ms, id)?.status === 'replied' && sentOf(ms, id2)?.status === 'replied' && ms.some((m) => m.from === 'researcher' && m.text === 'Second answer, after its own work.'),
        S,
        'both DMs replied and both answers in thread',
      );
      const thread = samples.at(-1)!.messages;
      for (const a of ['The work took a while.', 'Second answer, after its own work.']) {
        expect(CURRENT_SOURCES).toContain(thread.find((m) => m.from === 'researcher' && m.text === a)?.source);
      }
      const sources = [...new Set(thread.filter((m) => m.from === 'researcher').map((m) => m.source))].join(', ');
      const answer2Sample = samples.find((s) => s.messages.some((m) => m.from === 'researcher' && m.text === 'Second answer, after its own work.'))!;
      const answer2Ms = answer2Sample.endedAt - idle2.firstSeen;
      expect(answer2Ms).toBeLessThan(SHOW_WITHIN_MS);

      // The first DM went through every state, in order, and replied only once answered.
      const announced = watch.deliveries(id).map((e) => e.event.status);
      expect(announced).toEqual(['accepted', 'taken', 'seen', 'replied']);
      const seen1 = watch.deliveries(id).find((e) => e.event.status === 'seen')!;
      expect(seen1.at).toBeGreaterThanOrEqual(got.at - TRANSCRIPT_SLACK_MS);
      expect(watch.deliveries(id).find((e) => e.event.status === 'replied')!.at).toBeGreaterThanOrEqual(answeredAt(team, 'researcher', 'The work took a while.') - TRANSCRIPT_SLACK_MS);
      // The second: taken only when the researcher's turn ended, replied only by its own answer
      // (not by the first DM's idle_notification, which came just before it was taken).
      const announced2 = watch.deliveries(id2).map((e) => e.event.status);
      const taken2 = watch.deliveries(id2).find((e) => e.event.status === 'taken');
      const replied2 = watch.deliveries(id2).find((e) => e.event.status === 'replied')!;
      r.claude = `researcher ran Bash sleep 4; the second DM landed ${secs(toolResult.at - written2.firstSeen)} before its Bash result and was not in it; it came as a new turn ${secs(got2.at - idle1.firstSeen)} after the first turn's idle_notification ("The work took a while."); then Bash sleep 2 and idle_notification "Second answer, after its own work."`;
      r.teamdeck = `first DM: watch ${announced.join(' > ')}; second DM: watch ${announced2.join(' > ')}; thread shows both answers (source ${sources})`;
      r.times = `first DM: model request to seen ${secs(seen1.at - got.at)}; second DM: replied announced ${rel(replied2.at - idle2.firstSeen)} its own answer's idle_notification (${rel(replied2.at - idle1.firstSeen)} the first DM's; see 2c); its answer in thread ${secs(answer2Ms)} after its idle_notification`;
      expect(taken2, 'the second DM taken').toBeDefined();
      expect(taken2!.at).toBeGreaterThanOrEqual(toolResult.at);
      expect(announced2.at(-1)).toBe('replied');
      busyDm = { repliedAt: replied2.at, ownAnswerAt: answeredAt(team, 'researcher', 'Second answer, after its own work.'), otherAnswerAt: idle1.firstSeen };
      r.pass();
    });

    // Claude takes the waiting mail and then writes the idle_notification of the turn that just
    // ended (the one without idleReason), so that notification's result answers the first DM,
    // not the second. An engine that counts an idle_notification as the answer to whatever was
    // taken around it calls the second DM replied seconds before the teammate began on it.
    let busyDm: { repliedAt: number; ownAnswerAt: number; otherAnswerAt: number } | undefined;
    it('2c. calls the DM sent while the teammate worked replied only once its own answer is there', () => {
      const r = row('2c', 'DM sent while the teammate worked: replied by its own answer only');
      expect(busyDm, 'test 2b got as far as both answers').toBeDefined();
      const { repliedAt, ownAnswerAt, otherAnswerAt } = busyDm!;
      r.claude = "the first idle_notification (no idleReason) carries the first DM's answer; the second DM's answer is the next one's result";
      r.teamdeck = `the second DM shown replied ${rel(repliedAt - otherAnswerAt)} the first DM's idle_notification, ${rel(repliedAt - ownAnswerAt)} its own answer's`;
      r.times = `replied ${rel(repliedAt - ownAnswerAt)} its own answer (the model's reply)`;
      // Its own answer came seconds after the first DM's idle_notification (a Bash sleep 2 in between).
      expect(ownAnswerAt - otherAnswerAt).toBeGreaterThan(1_500);
      expect(repliedAt, "the second DM must not count as replied before the researcher's answer to it").toBeGreaterThanOrEqual(ownAnswerAt - TRANSCRIPT_SLACK_MS);
      r.pass();
    });

    it('3. does not call a DM to a busy lead seen before its model got it, and calls it seen soon after', async () => {
      const r = row('3', 'DM to a busy lead');
      await team.type('Wait a bit. [[BASH:sleep 6; echo lead-bash-done]]');
      const bash = await team.api.waitForRequest('lead', (q) => q.reply?.some((b) => b.type === 'tool_use' && b.name === 'Bash') ?? false, S, 'the lead to call Bash');
      const text = 'Teamdeck writes to the busy lead. [[SAY:lead read the teamdeck DM]]';
      const requested = () => team.api.requestsOf('lead').some(hasText(text));
      // thread is polled from the moment the send starts (the DM is found by its text), while the lead is busy.
      const [sent, busy] = await Promise.all([
        cli.send(team.teamName, 'team-lead', text),
        cli.pollThread(team.teamName, 'team-lead', requested, S, 'the DM to reach the lead model'),
      ]);
      expect(sent.code, sent.stderr).toBe(0);
      expect(sent.sent!.status).toBe('accepted');
      const id = sent.sent!.id;
      const delivered = team.api.requestsOf('lead').find(hasText(text))!;
      // `replied` (the lead's turn answering it ended) counts as seen too.
      const seenOrLater = (ms: CliMessage[]) => ['seen', 'replied'].includes(sentOf(ms, id)?.status ?? '');
      const after = busy.some((b) => seenOrLater(b.messages)) ? [] : await cli.pollThread(team.teamName, 'team-lead', seenOrLater, S, 'the DM to be seen');
      const samples = [...busy, ...after];
      // Every answer given before the request arrived: the engine answered inside [startedAt, endedAt].
      const before = samples.filter((s) => s.endedAt < delivered.at && sentOf(s.messages, id));
      expect(before.length, 'thread samples showing the DM while the lead was busy').toBeGreaterThan(0);
      // While `send` itself runs the message may still be queued (journaled, being written).
      for (const s of before) expect(s.startedAt < sent.endedAt ? ['queued', 'accepted', 'taken'] : ['accepted', 'taken']).toContain(sentOf(s.messages, id)?.status);
      const firstSeen = samples.find((s) => seenOrLater(s.messages))!;
      const seenMs = firstSeen.endedAt - delivered.at;
      expect(seenMs).toBeLessThan(SHOW_WITHIN_MS);
      // The engine's own announcements: seen only once the request went out (the transcript row is
      // written just before it), never while the lead was busy (times are when the test read them).
      const seenEvent = await watch.waitForDelivery(id, 'seen', S);
      expect(seenEvent.at).toBeGreaterThanOrEqual(delivered.at - TRANSCRIPT_SLACK_MS);
      const announced = watch.deliveries(id).map((e) => e.event.status);
      for (const st of announced.slice(0, announced.indexOf('seen'))) expect(['queued', 'accepted', 'taken']).toContain(st);

      // Claude: taken off the file while busy, held to the end of the turn, then a new turn.
      const toolResult = team.api.requestsOf('lead').find((q) => newToolResults(q).some((t) => t.name === 'Bash' && t.text.includes('lead-bash-done')))!;
      expect(toolResult).toBeDefined();
      expect(toolResult.newText).not.toContain(text);
      expect(delivered.seq).toBeGreaterThan(toolResult.seq);
      // Not seen while the lead was busy: only after its Bash result went back to its model.
      expect(seenEvent.at).toBeGreaterThan(toolResult.at);
      expect(delivered.newText.startsWith(LEAD_WRAPPER)).toBe(true);
      expect(delivered.newText).toContain(`<teammate-message teammate_id="teamdeck">\n${text}\n</teammate-message>`);
      expect(delivered.newText).not.toContain('verified=');
      const entry = team.observer.entriesSeen(team.inboxRel('team-lead')).find((e) => e.entry.msg_id === id)!;
      expect(entry.goneAt).toBeDefined();
      expect(entry.goneAt!).toBeLessThan(toolResult.at);
      const takenEvent = watch.deliveries(id).find((e) => e.event.status === 'taken');
      r.claude = `lead in Bash sleep 6 pruned the DM ${secs(entry.goneAt! - entry.firstSeen)} after the write, held it to turn end; its model got it ${secs(delivered.at - toolResult.at)} after the Bash result, in a new turn ("Another Claude session sent a message:", teammate_id="teamdeck")`;
      r.teamdeck = `thread while busy (${before.length} polls before the request): ${statusTrail(before, id).join(' > ')}; then ${statusTrail(samples, id).join(' > ')}; watch announced ${announced.join(' > ')}`;
      r.times = `Bash call to DM request ${secs(delivered.at - bash.at)}; request to seen: thread ${secs(seenMs)}, watch ${secs(seenEvent.at - delivered.at)}${takenEvent ? `; taken announced ${secs(takenEvent.at - entry.goneAt!)} after the prune` : ''}`;
      r.pass();
    });

    it('4. refuses a DM to a member that shut down, writing nothing to its inbox', async () => {
      const r = row('4', 'DM to a shut-down member');
      await team.type('Stop the writer. [[SHUTDOWN:writer]]');
      const approved = await team.observer.waitForEntry(team.inboxRel('team-lead'), isFrame('shutdown_approved', 'writer'), S, "the writer's shutdown_approved");
      expect(frameOf(approved.entry)).toMatchObject({ type: 'shutdown_approved', from: 'writer' });
      const inboxPath = join(team.teamDir, 'inboxes', 'writer.json');
      const before = readInbox(inboxPath);
      const statesBefore = team.observer.statesOf(team.inboxRel('writer')).length;
      const sent = await cli.send(team.teamName, 'writer', 'Are you still there?');
      expect(sent.code, sent.stdout + sent.stderr).toBe(2);
      const lines = sent.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/shut down/);
      expect(sent.stdout.trim()).toBe('');
      // Nothing written: the file is as it was, no lock taken, the observer saw no new state.
      expect(readInbox(inboxPath)).toBe(before);
      expect(existsSync(`${inboxPath}.lock`)).toBe(false);
      expect(team.observer.statesOf(team.inboxRel('writer'))).toHaveLength(statesBefore);
      const gone = await waitFor(async () => !(await team.memberNames()).includes('writer') && Date.now(), { what: 'the writer to leave config.json', timeoutMs: S });
      r.claude = `writer approved the lead's shutdown_request (shutdown_approved in team-lead.json), left config.json ${secs(gone - approved.firstSeen)} later`;
      r.teamdeck = `send exit 2, one line: "${lines[0]}"; writer.json untouched`;
      r.times = `approval observed to refusal: ${secs(sent.endedAt - approved.firstSeen)} (send call ${secs(sent.endedAt - sent.startedAt)})`;
      r.pass();
    });

    it('5. after /exit shows the team ended with its history, refuses sends, turns a queued DM undeliverable, never recreates the folder', async () => {
      const r = row('5', 'Lead /exit');
      const { teamName, teamDir } = team;
      // A DM that must wait: another process holds the researcher's inbox lock.
      const holder = await holdInboxLock(join(teamDir, 'inboxes', 'researcher.json'));
      let queuedId: string;
      let exitAt: number;
      try {
        const q = await cli.send(teamName, 'researcher', 'This one waits behind a held lock. [[SAY:never answered]]');
        expect(q.code, q.stderr).toBe(0);
        expect(q.sent!.status).toBe('queued');
        expect(q.stderr).toMatch(/^queued: .*lock/m);
        queuedId = q.sent!.id;
        exitAt = Date.now();
        await team.exit();
      } finally {
        await holder.release();
      }
      const folderRel = `teams/${teamName}`;
      const goneAt = await waitFor(() => !existsSync(teamDir) && Date.now(), { what: 'the team folder to go', timeoutMs: 5_000, intervalMs: 5 });
      await waitFor(() => team.lead.exitStatus() !== undefined, { what: "the pane's shell to see the lead end", timeoutMs: 5_000 });
      expect(team.lead.exitStatus()).toBe(0);
      expect(team.observer.teamNames.map((n) => n.path)).toContainEqual(expect.stringMatching(new RegExp(`^${folderRel}\\.deleted-[0-9a-f-]{36}$`)));

      // Ended, with a reason, in teams.
      let teamsCalls = 0;
      const ended = await waitFor(
        async () => {
          teamsCalls++;
          return (await cli.teams()).find((t) => t.id === teamName && t.state === 'ended');
        },
        { what: 'teams --json to show the team ended', timeoutMs: S, intervalMs: 1 },
      );
      const endedShownAt = Date.now();
      expect(ended).toMatchObject({ era: 'current', state: 'ended', endedReason: expect.any(String), endedAt: expect.any(Number) });
      expect(ended.endedReason!.length).toBeGreaterThan(0);

      // The history stays, the queued DM is undeliverable with a reason.
      const samples = await cli.pollThread(teamName, 'researcher', (ms) => sentOf(ms, queuedId)?.status === 'undeliverable', S, 'the queued DM to be undeliverable');
      const thread = samples.at(-1)!.messages;
      const queued = sentOf(thread, queuedId)!;
      expect(queued.reason).toEqual(expect.any(String));
      expect(queued.reason!.length).toBeGreaterThan(0);
      expect(sentOf(thread, dmId)).toMatchObject({ status: 'replied' });
      expect(CURRENT_SOURCES).toContain(thread.find((m) => m.from === 'researcher' && m.text === 'The finding is 42.')?.source);
      const undeliverableAt = samples.find((s) => sentOf(s.messages, queuedId)?.status === 'undeliverable')!.endedAt;

      // Sends are refused: exit 2, one line, no folder made.
      const refused = await cli.send(teamName, 'researcher', 'Anyone left?');
      expect(refused.code, refused.stdout + refused.stderr).toBe(2);
      const lines = refused.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/ended/);

      // The folder never comes back: not in the 10 ms samples, not in teams/, for a while yet.
      const quietUntil = Math.max(Date.now(), goneAt + 3_000);
      await waitFor(() => Date.now() >= quietUntil || existsSync(teamDir), { what: 'a quiet period', timeoutMs: 10_000, intervalMs: 5 });
      expect(existsSync(teamDir)).toBe(false);
      expect(readdirSync(team.teamsDir).filter((n) => n === teamName || n.startsWith(`${teamName}.`))).toEqual([]);
      const events = team.observer.dirEvents.filter((d) => d.path === folderRel);
      expect(events.at(-1)).toMatchObject({ present: false });
      expect(events.filter((d) => d.present && d.t > goneAt)).toEqual([]);
      expect(team.observer.states.filter((s) => s.path.startsWith(`${folderRel}/`) && s.content !== undefined && s.t > goneAt)).toEqual([]);

      r.claude = `/exit: exit 0, folder renamed ${teamName.replace(/[0-9a-f]{8}$/, '<8>')}.deleted-<uuid> and removed (lock dir with it); it never came back (${secs(Date.now() - goneAt)} watched)`;
      r.teamdeck = `teams: ended ("${ended.endedReason}"); thread keeps the earlier DM (replied) and the answer; the DM queued behind the lock: undeliverable ("${queued.reason}"); send: exit 2 "${lines[0]}"`;
      const undeliverableEvent = watch.deliveries(queuedId!).find((e) => e.event.status === 'undeliverable');
      expect(undeliverableEvent).toBeDefined();
      r.times = `/exit typed to folder gone ${secs(goneAt - exitAt!)}; folder gone to ended in teams ${secs(endedShownAt - goneAt)} (${teamsCalls} teams call${teamsCalls === 1 ? '' : 's'}); to undeliverable: watch ${secs(undeliverableEvent!.at - goneAt)}, thread ${secs(undeliverableAt - goneAt)}`;
      r.pass();
    });
  });

  describe('team B: a lead with one teammate, killed with SIGKILL', () => {
    let deck: Deck | undefined;
    let team: Team;
    let cli: TeamdeckCli;
    let watch: WatchEngine;
    reportOnFailure(() => deckReport(deck));

    beforeAll(async () => {
      deck = await startDeck(['helper'], { helper: 'You help. [[SAY:helper ready]]' });
      ({ team, cli, watch } = deck);
      // The lead's turn about the notification is over: its inbox is empty again.
      await waitFor(() => team.observer.entriesSeen(team.inboxRel('team-lead')).every((e) => e.goneAt !== undefined), { what: 'the lead to take its mail', timeoutMs: 10_000 });
    });
    afterAll(async () => {
      await stopDeck(deck);
    });

    it('6. after SIGKILL of the lead shows the team ended, refuses sends, turns a queued DM undeliverable, writes no inbox', async () => {
      const r = row('6', 'Lead SIGKILL');
      const { teamName, teamDir, lead } = team;
      const holder = await holdInboxLock(join(teamDir, 'inboxes', 'helper.json'));
      let killAt = 0;
      try {
        const q = await cli.send(teamName, 'helper', 'This one waits behind a held lock. [[SAY:never answered]]');
        expect(q.code, q.stderr).toBe(0);
        expect(q.sent!.status).toBe('queued');
        const queuedId = q.sent!.id;

        killAt = Date.now();
        lead.signal('SIGKILL');
        await lead.waitForExit(5_000);
        await waitFor(() => lead.exitStatus() !== undefined, { what: "the pane's shell to see the lead end", timeoutMs: 5_000 });
        expect(lead.exitStatus()).toBe(128 + 9);
        // Claude left everything: the folder, config.json naming the dead pid.
        const config = await team.config();
        expect(config.leadProcess?.pid).toBe(lead.pid);
        expect(existsSync(`/proc/${lead.pid}`)).toBe(false);

        let teamsCalls = 0;
        const ended = await waitFor(
          async () => {
            teamsCalls++;
            return (await cli.teams()).find((t) => t.id === teamName && t.state === 'ended');
          },
          { what: 'teams --json to show the team ended', timeoutMs: S, intervalMs: 1 },
        );
        const endedShownAt = Date.now();
        expect(ended).toMatchObject({ era: 'current', state: 'ended', endedReason: expect.any(String), endedAt: expect.any(Number) });

        const refused = await cli.send(teamName, 'helper', 'Anyone left?');
        expect(refused.code, refused.stdout + refused.stderr).toBe(2);
        const lines = refused.stderr.trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(/ended/);

        const samples = await cli.pollThread(teamName, 'helper', (ms) => sentOf(ms, queuedId)?.status === 'undeliverable', S, 'the queued DM to be undeliverable');
        const queued = sentOf(samples.at(-1)!.messages, queuedId)!;
        expect(queued.reason).toEqual(expect.any(String));
        const undeliverableAt = samples.find((s) => sentOf(s.messages, queuedId)?.status === 'undeliverable')!.endedAt;

        // The lock goes: an engine still retrying would write now. Nothing may.
        await holder.release();
        const quietUntil = Date.now() + 2_500;
        await waitFor(() => Date.now() >= quietUntil, { what: 'a quiet period', timeoutMs: 5_000, intervalMs: 20 });
        const inboxWrites = team.observer.states.filter((s) => s.path.startsWith(`teams/${teamName}/inboxes/`) && s.t > killAt);
        expect(inboxWrites.map((s) => s.path)).toEqual([]);
        expect(readInbox(join(teamDir, 'inboxes', 'helper.json'))).not.toContain(queuedId);
        expect(existsSync(join(teamDir, 'config.json'))).toBe(true);

        r.claude = 'SIGKILL (exit 137): nothing cleaned up; the folder, inboxes and config.json naming the dead leadProcess.pid stay';
        r.teamdeck = `teams: ended ("${ended.endedReason}"); send: exit 2 "${lines[0]}"; the DM queued behind the lock: undeliverable ("${queued.reason}"); no inbox write after the kill, none after the lock was released`;
        const undeliverableEvent = watch.deliveries(queuedId).find((e) => e.event.status === 'undeliverable');
        expect(undeliverableEvent).toBeDefined();
        r.times = `kill to ended in teams ${secs(endedShownAt - killAt)} (${teamsCalls} teams call${teamsCalls === 1 ? '' : 's'}); to undeliverable: watch ${secs(undeliverableEvent!.at - killAt)}, thread ${secs(undeliverableAt - killAt)}`;
        r.pass();
      } finally {
        await holder.release();
      }
    });
  });
});
