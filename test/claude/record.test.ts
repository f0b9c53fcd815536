// The team's record in transcripts (docs/claude-contract.md#record), checked on the real binary:
// a lead spawns two teammates that report to it and write to each other, the user types a turn
// and an `@researcher` line into the lead's terminal, and lead and researcher answer. Then a
// Teamdeck shows each of those messages exactly once, in order, with its sender, recipient and
// the row's time: one that never ran (fresh state folders, while the lead runs and after its
// /exit), and one that ran the whole time.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LEAD_TOKEN } from './harness/api-standin.js';
import { CLAUDE_CODE_VERSION } from './harness/binary.js';
import { isIdleFrom } from './harness/entries.js';
import { startTeam, type Team } from './harness/team.js';
import { startWatch, teamdeckCli, type CliMessage, type TeamdeckCli, type WatchEngine } from './harness/teamdeck-cli.js';
import { inputBox } from './harness/tmux-lead.js';
import { describeClaude, reportOnFailure } from './harness/vitest.js';
import { waitFor } from './harness/wait.js';

const S = 20_000;
const PROMPTS = {
  researcher: 'You are the researcher. [[SEND:team-lead:researcher reporting in]] [[SEND:writer:Hello writer, researcher here]]',
  writer: 'You are the writer. [[SEND:team-lead:writer reporting in]] [[SEND:researcher:Hello researcher, writer here]]',
};
const FIRST = `${LEAD_TOKEN} Start the team. [[SPAWN:researcher]] [[SPAWN:writer]]`;
const TYPED = 'What is the plan? [[SAY:The plan is to read the record.]]';
const AT_NAME = 'What did you find? [[SAY:I found the whole record.]]';

/** Every message of the scenario: from, to, text. */
const EXPECTED: Array<[string, string, string]> = [
  ['user', 'team-lead', FIRST],
  ['team-lead', 'researcher', PROMPTS.researcher],
  ['team-lead', 'writer', PROMPTS.writer],
  ['researcher', 'team-lead', 'researcher reporting in'],
  ['researcher', 'writer', 'Hello writer, researcher here'],
  ['writer', 'team-lead', 'writer reporting in'],
  ['writer', 'researcher', 'Hello researcher, writer here'],
  ['team-lead', 'user', 'lead: ok'],
  ['user', 'team-lead', TYPED],
  ['team-lead', 'user', 'The plan is to read the record.'],
  ['user', 'researcher', AT_NAME],
  ['researcher', 'user', 'I found the whole record.'],
];

/** Spawns the teammates, lets them report and write to each other, then the typed turn and the @name line, each answered. */
async function scenario(team: Team): Promise<void> {
  await team.type(FIRST);
  for (const name of ['researcher', 'writer']) await team.observer.waitForEntry(team.inboxRel('team-lead'), isIdleFrom(name), S, `${name}'s first idle_notification`);
  await team.api.waitForRequest('researcher', (r) => r.newText.includes('Hello researcher, writer here'), S, 'the researcher to get the writer’s note');
  await team.api.waitForRequest('writer', (r) => r.newText.includes('Hello writer, researcher here'), S, 'the writer to get the researcher’s note');
  await team.api.waitForRequest('lead', (r) => r.newText.includes('writer reporting in'), S, 'the lead to get the reports');
  await team.type(TYPED);
  await team.api.waitForRequest('lead', (r) => r.reply?.some((b) => b.type === 'text' && b.text.includes('The plan is')) ?? false, S, "the lead's answer");
  await team.lead.paste(`@researcher ${AT_NAME}`, { submit: false });
  await waitFor(() => inputBox(team.lead.screen()).includes('@researcher What'), { what: 'the @name line in the box', timeoutMs: 5_000, intervalMs: 25 });
  await new Promise((r) => setTimeout(r, 250));
  team.lead.keys('Enter');
  await team.observer.waitForEntry(team.inboxRel('team-lead'), isIdleFrom('researcher', 'I found the whole record.'), S, "the researcher's answer");
}

/** Every user and assistant row of the team's transcripts (api-request rows are copies). */
function transcriptRows(team: Team): Array<{ text: string; time: number }> {
  const dir = readdirSync(team.run.projectsDir).map((d) => join(team.run.projectsDir, d))[0]!;
  const sub = join(dir, team.lead.sessionId, 'subagents');
  const files = [join(dir, `${team.lead.sessionId}.jsonl`), ...readdirSync(sub).filter((f) => f.endsWith('.jsonl')).map((f) => join(sub, f))];
  return files.flatMap((f) =>
    readFileSync(f, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type?: string; timestamp?: string; message?: unknown })
      .filter((r) => (r.type === 'user' || r.type === 'assistant') && r.timestamp)
      .map((r) => ({ text: JSON.stringify(r.message), time: Date.parse(r.timestamp!) })),
  );
}

type Shown = Pick<CliMessage, 'from' | 'to' | 'text' | 'timestamp'>;

/** Each expected message shown exactly once, at a time within a second of a row that holds it; the list in time order. */
function checkRecord(team: Team, messages: Shown[]): void {
  const rows = transcriptRows(team);
  for (const [from, to, text] of EXPECTED) {
    const shown = messages.filter((m) => m.from === from && m.to === to && m.text === text);
    expect(shown, `${from} -> ${to}: ${text}`).toHaveLength(1);
    const t = Date.parse(shown[0]!.timestamp);
    const near = rows.filter((r) => r.text.includes(JSON.stringify(text).slice(1, -1))).map((r) => Math.abs(r.time - t));
    expect(Math.min(...near), `the row time of ${text}`).toBeLessThanOrEqual(1_000);
  }
  const times = messages.map((m) => Date.parse(m.timestamp));
  expect(times).toEqual([...times].sort((a, b) => a - b));
  // Nothing shown twice: no two messages with one sender, recipient and text (idle notifications carry their time).
  const keys = messages.map((m) => `${m.from}\u0000${m.to}\u0000${m.text}`);
  expect(keys.length).toBe(new Set(keys).size);
}

async function exported(cli: TeamdeckCli, team: string): Promise<Shown[]> {
  const r = await cli.run(['export', '--team', team, '--format', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { messages: Shown[] }).messages;
}

async function threadTexts(cli: TeamdeckCli, team: string, member: string): Promise<Array<[string, string]>> {
  return (await cli.thread(team, member)).messages.map((m) => [m.from, m.text]);
}

describeClaude(`Claude Code ${CLAUDE_CODE_VERSION}: the team's record, read by a Teamdeck that never ran`, () => {
  let team: Team;
  const clis: TeamdeckCli[] = [];
  reportOnFailure(() => [team?.report(), ...clis.map((c) => c.report())].join('\n'));

  beforeAll(async () => {
    team = await startTeam({ prompts: PROMPTS });
    await scenario(team);
    // The last rows (the answers' ends) are on disk.
    await new Promise((r) => setTimeout(r, 1_000));
  });
  afterAll(async () => {
    await team?.stop();
  });

  const fresh = (name: string) => {
    const cli = teamdeckCli({ teamsDir: team.teamsDir, stateDir: join(team.run.run, name), home: team.run.home });
    clis.push(cli);
    return cli;
  };

  it('shows every message once, in order, with its sender, recipient and time, in export, the threads and search', async () => {
    const cli = fresh('state-running');
    checkRecord(team, await exported(cli, team.teamName));
    expect(await threadTexts(cli, team.teamName, 'team-lead')).toEqual([
      ['user', FIRST],
      ['team-lead', 'lead: ok'],
      ['user', TYPED],
      ['team-lead', 'The plan is to read the record.'],
    ]);
    expect(await threadTexts(cli, team.teamName, 'researcher')).toEqual([
      ['user', AT_NAME],
      ['researcher', 'I found the whole record.'],
    ]);
    const search = await cli.run(['search', '--team', team.teamName, '--json', 'whole record']);
    expect(search.code, search.stderr).toBe(0);
    const hits = (JSON.parse(search.stdout) as { hits: Array<{ from: string; to: string; member?: string }> }).hits;
    // The @name line and its answer in the researcher's thread; the idle notification that carries the answer, in the feed.
    expect(hits.map((h) => [h.from, h.to, h.member ?? '']).sort()).toEqual([
      ['researcher', 'team-lead', ''],
      ['researcher', 'user', 'researcher'],
      ['user', 'researcher', 'researcher'],
    ]);
  });

  it("after the lead's /exit, lists the team as ended with the same record", async () => {
    const before = await exported(fresh('state-before-exit'), team.teamName);
    await team.exit();
    await waitFor(() => team.lead.exitStatus() !== undefined, { what: 'the lead to exit', timeoutMs: 10_000 });
    await new Promise((r) => setTimeout(r, 500));
    const cli = fresh('state-after-exit');
    const listed = (await cli.teams()).find((t) => t.id === team.teamName);
    expect(listed).toMatchObject({ state: 'ended', memberCount: 3 });
    const after = await exported(cli, team.teamName);
    checkRecord(team, after);
    const brief = (m: Shown) => [m.from, m.to, m.text, m.timestamp];
    expect(after.map(brief)).toEqual(before.map(brief));
    const roster = await cli.run(['roster', '--team', team.teamName, '--json']);
    expect((JSON.parse(roster.stdout) as Array<{ name: string }>).map((m) => m.name).sort()).toEqual(['researcher', 'team-lead', 'writer']);
  });
});

describeClaude(`Claude Code ${CLAUDE_CODE_VERSION}: the team's record, with Teamdeck running the whole time`, () => {
  let team: Team;
  let watch: WatchEngine | undefined;
  let cli: TeamdeckCli;
  reportOnFailure(() => [team?.report(), cli?.report(), watch?.stderr()].join('\n'));

  beforeAll(async () => {
    team = await startTeam({ prompts: PROMPTS });
    const where = { teamsDir: team.teamsDir, stateDir: join(team.run.run, 'state'), home: team.run.home };
    watch = await startWatch(where);
    cli = teamdeckCli(where);
    await scenario(team);
  });
  afterAll(async () => {
    await watch?.stop();
    await team?.stop();
  });

  it('loses none and shows none twice between what it saw live and what the transcripts hold', async () => {
    // Read through the running engine (the command finds its socket).
    const messages = await waitFor(
      async () => {
        const m = await exported(cli, team.teamName);
        return EXPECTED.every(([f, t, x]) => m.some((y) => y.from === f && y.to === t && y.text === x)) && m;
      },
      { what: 'every message in the running engine', timeoutMs: S },
    );
    checkRecord(team, messages);
    expect(await threadTexts(cli, team.teamName, 'researcher')).toEqual([
      ['user', AT_NAME],
      ['researcher', 'I found the whole record.'],
    ]);
    // The idle notifications it saw in the lead's inbox and read in the lead's transcript are shown once each.
    const idles = messages.filter((m) => m.text.includes('"type":"idle_notification"'));
    expect(idles.length).toBeGreaterThanOrEqual(3);
  });
});
