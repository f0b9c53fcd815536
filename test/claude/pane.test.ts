// A teammate in a terminal pane (teammate mode `tmux`) on the real Claude Code
// (docs/claude-contract.md#transcripts): it runs as a Claude session of its own, so its
// transcript is `<config>/projects/<slug>/<itsSessionId>.jsonl` beside the lead's, not under
// the lead's `subagents/`, and only its rows' `teamName` and `agentName` say whose it is
// (pane-transcripts.ts). The scripted model gives every reply its own usage (usageOfReply);
// the pane teammate answers one question in three text blocks (three rows of one message id).
// Through a running `teamdeck watch` engine, `usage --json` must show the pane teammate with
// exactly the sums the model reported (that reply once) beside the lead, priced from
// prices.json, and `export` its report to the lead once. After the lead's /exit (a dialog
// while the pane teammate lives) the team's folder is gone: the engine keeps the figures, and a
// Teamdeck that never ran finds them in the transcripts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { agentToken, LEAD_TOKEN } from './harness/api-standin.js';
import { CLAUDE_CODE_VERSION } from './harness/binary.js';
import { isIdleFrom } from './harness/entries.js';
import { startTeam, type Team } from './harness/team.js';
import { startWatch, teamdeckCli, type CliMessage, type TeamdeckCli, type WatchEngine } from './harness/teamdeck-cli.js';
import { byMember, costAt, countsOf, pricedStateDir, quiet, scriptedSums, type Sums, type UsageJson } from './harness/usage-sums.js';
import { describeClaude, reportOnFailure } from './harness/vitest.js';
import { waitFor } from './harness/wait.js';

const S = 20_000;
/** A model name no default price knows: only prices.json prices it. */
const MODEL = 'claude-pane-contract-test';
const PRICE = { inputPerMTok: 3, outputPerMTok: 15, cacheWritePerMTok: 3.75, cacheReadPerMTok: 0.3 };
/** What the pane teammate tells the lead with SendMessage in its first turn. */
const REPORT = 'researcher reporting in from its own pane';

interface Row {
  type?: string;
  teamName?: string;
  agentName?: string;
  message?: { id?: string; model?: string; usage?: Record<string, number>; content?: unknown };
}

const costOf = (s: Sums) => costAt(PRICE, s);
const sameAs = (u: UsageJson, expected: Map<string, Sums>) => u.members.length === expected.size && u.members.every((m) => JSON.stringify(countsOf(m)) === JSON.stringify(expected.get(m.member)));

/** The session files beside the lead's (its own excepted), with their rows. */
function sessionFiles(team: Team): Array<{ path: string; rows: Row[] }> {
  const projects = team.run.projectsDir;
  return readdirSync(projects).flatMap((slug) =>
    readdirSync(join(projects, slug))
      .filter((n) => n.endsWith('.jsonl') && n !== `${team.lead.sessionId}.jsonl`)
      .map((n) => {
        const path = join(projects, slug, n);
        return { path, rows: readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Row) };
      }),
  );
}

describeClaude(`A pane teammate's usage and record against Claude Code ${CLAUDE_CODE_VERSION}`, () => {
  let team: Team;
  let cli: TeamdeckCli;
  let watch: WatchEngine | undefined;
  const clis: TeamdeckCli[] = [];
  reportOnFailure(() => (team ? [team.report(), cli?.report(), ...clis.map((c) => c.report()), watch?.stderr()].join('\n') : undefined));

  beforeAll(async () => {
    team = await startTeam({
      teammateMode: 'tmux',
      // A pane teammate's requests carry no agent header: the token in its prompt names it to the stand-in.
      prompts: { researcher: `${agentToken('researcher')} You are the researcher. [[SEND:team-lead:${REPORT}]]` },
      env: { ANTHROPIC_MODEL: MODEL },
    });
    const stateDir = pricedStateDir(team, 'state', MODEL, PRICE);
    const where = { teamsDir: team.teamsDir, stateDir, home: team.run.home };
    watch = await startWatch(where);
    cli = teamdeckCli(where);
    await team.type(`${LEAD_TOKEN} Start the team. [[SPAWN:researcher]]`);
    await waitFor(async () => (await team.config()).members.find((m) => m.name === 'researcher'), { what: 'researcher in config.json', timeoutMs: S, intervalMs: 50 });
    await team.observer.waitForEntry(team.inboxRel('team-lead'), isIdleFrom('researcher'), S, "researcher's first idle_notification");
  });
  afterAll(async () => {
    await watch?.stop();
    await team?.stop();
  });

  const usageOf = async (c: TeamdeckCli): Promise<UsageJson> => {
    const r = await c.run(['usage', '--team', team.teamName, '--json']);
    if (r.code !== 0) throw new Error(`usage exited ${r.code}: ${r.stderr}`);
    return JSON.parse(r.stdout) as UsageJson;
  };
  const fresh = (name: string) => {
    const c = teamdeckCli({ teamsDir: team.teamsDir, stateDir: pricedStateDir(team, name, MODEL, PRICE), home: team.run.home });
    clis.push(c);
    return c;
  };

  it('shows the pane teammate beside the lead with exactly what the model reported, a three-block reply once, priced from prices.json', async () => {
    const member = (await team.config()).members.find((m) => m.name === 'researcher')!;
    expect(member.backendType).toBe('tmux');
    await team.send('researcher', 'Answer in three parts. [[SAY:part one]][[SAY:part two]][[SAY:part three]]');
    const three = await team.api.waitForRequest('researcher', (r) => r.newText.includes('Answer in three parts') && r.reply !== undefined, S, 'the three-part question');
    expect(three.reply).toHaveLength(3);
    await quiet(team);

    // The pane teammate's transcript: a session file of its own beside the lead's, no subagents/ folder.
    const own = sessionFiles(team).filter((f) => f.rows.some((r) => r.teamName === team.teamName && r.agentName === 'researcher'));
    expect(own.map((f) => f.path)).toHaveLength(1);
    const rows = own[0]!.rows;
    // pane-transcripts.ts tells whose a file is from its first 20 rows.
    expect(rows.findIndex((r) => r.teamName === team.teamName)).toBeLessThan(20);
    expect(readdirSync(join(own[0]!.path, '..'))).not.toContain(team.lead.sessionId);
    const blocks = rows.filter((r) => r.type === 'assistant' && r.message?.id === `msg_standin_${three.seq}`);
    expect(blocks).toHaveLength(3);
    expect(new Set(blocks.map((b) => JSON.stringify(b.message?.usage && [b.message.usage.input_tokens, b.message.usage.output_tokens, b.message.usage.cache_creation_input_tokens, b.message.usage.cache_read_input_tokens]))).size).toBe(1);
    expect(blocks[0]!.message?.model).toBe(MODEL);

    const expected = scriptedSums(team.api.log);
    expect([...expected.keys()].sort()).toEqual(['researcher', 'team-lead']);
    const figures = await waitFor(async () => {
      const u = await usageOf(cli);
      return sameAs(u, expected) ? u : undefined;
    }, { what: 'usage to equal the scripted sums', timeoutMs: 10_000, intervalMs: 200 }).catch(async () => usageOf(cli));
    expect(figures.members.map((m) => m.member).sort()).toEqual(['researcher', 'team-lead']);
    for (const m of figures.members) {
      expect(countsOf(m), m.member).toEqual(expected.get(m.member));
      expect(m.model, m.member).toBe(MODEL);
      expect(m.costUsd, m.member).toBeCloseTo(costOf(m), 12);
    }
    const sum = figures.members.reduce((a, m) => ({ messages: a.messages + m.messages, inputTokens: a.inputTokens + m.inputTokens, outputTokens: a.outputTokens + m.outputTokens, cacheWriteTokens: a.cacheWriteTokens + m.cacheWriteTokens, cacheReadTokens: a.cacheReadTokens + m.cacheReadTokens }), { messages: 0, inputTokens: 0, outputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0 });
    expect(countsOf(figures.total)).toEqual(sum);
    expect(figures.total.costUsd).toBeCloseTo(costOf(sum), 12);
    process.stdout.write(`pane usage: ${JSON.stringify(figures)}\n`);
  });

  it("exports the pane teammate's SendMessage to the lead once, from the teammate, live and read afresh", async () => {
    const reports = (ms: CliMessage[]) => ms.filter((m) => m.text === REPORT);
    const exported = async (c: TeamdeckCli) => {
      const r = await c.run(['export', '--team', team.teamName, '--format', 'json']);
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { messages: CliMessage[] }).messages;
    };
    // Through the running engine (the command finds its socket), then a Teamdeck that never ran.
    const live = await waitFor(async () => {
      const m = await exported(cli);
      return reports(m).length ? m : undefined;
    }, { what: 'the report in the running engine', timeoutMs: 10_000, intervalMs: 200 });
    for (const messages of [live, await exported(fresh('state-running'))]) {
      expect(reports(messages).map((m) => [m.from, m.to])).toEqual([['researcher', 'team-lead']]);
      // Nothing else of the pane teammate's is shown twice either.
      const keys = messages.filter((m) => m.from === 'researcher').map((m) => `${m.to}\u0000${m.text}`);
      expect(keys.length).toBe(new Set(keys).size);
    }
  });

  it("after the lead's /exit (a dialog while the pane teammate lives), the running engine keeps the ended team's figures, the pane teammate's too", async () => {
    await quiet(team);
    await team.lead.type('/exit');
    // A live pane teammate is background work: Claude asks before it stops it.
    await waitFor(() => team.lead.screen().includes('Exit and stop tasks') || !team.lead.alive(), { what: 'the exit dialog', timeoutMs: 10_000, intervalMs: 50 });
    expect(team.lead.alive(), 'the lead asked before stopping the pane teammate').toBe(true);
    team.lead.keys('Enter');
    await team.lead.waitForExit(10_000);
    await waitFor(() => team.lead.exitStatus() !== undefined, { what: 'the lead to exit', timeoutMs: 10_000 });
    await quiet(team, 500);
    // Claude removed the team's folder: only the engine's state and the transcripts remember the team.
    expect(existsSync(team.teamDir)).toBe(false);
    await waitFor(async () => (await cli.teams()).find((t) => t.id === team.teamName)?.state === 'ended', { what: 'the team listed as ended', timeoutMs: S, intervalMs: 200 });
    const expected = Object.fromEntries(scriptedSums(team.api.log));
    expect(Object.keys(expected).sort()).toEqual(['researcher', 'team-lead']);
    expect(byMember(await usageOf(cli))).toEqual(expected);
  });

  // A pane-only team has no subagents/ folder (its teammate is a session of its own, whose rows
  // alone name the team; the lead's rows never do): the import's scan finds it by its name,
  // `session-<the first 8 of the lead's session id>` (transcript-scan.ts).
  it("after the lead's /exit, a Teamdeck that never ran finds the pane teammate's usage in the transcripts", async () => {
    expect(existsSync(team.teamDir)).toBe(false);
    const expected = Object.fromEntries(scriptedSums(team.api.log));
    const kept = await usageOf(fresh('state-after-exit'));
    expect(byMember(kept)).toEqual(expected);
    for (const m of kept.members) expect(m.costUsd, m.member).toBeCloseTo(costOf(m), 12);
  });
});
