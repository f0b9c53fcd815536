// What the team costs, on the real Claude Code 2.1.332 (docs/claude-contract.md#usage): the
// scripted model gives every reply its own usage numbers (usageOfReply), one reply of the
// researcher is three text blocks (Claude writes three transcript rows with the same message id
// and usage), and `teamdeck usage --json` through a running `teamdeck watch` engine must show
// per member exactly the sums of what the model reported, the total their sum, and the cost
// the tokens times the prices in `<state>/prices.json`. Then: a new reply reaches the engine's
// figures within 1 s, a budget below the spend is a need, and after the lead's /exit (and with
// its transcripts gone) the ended team keeps its figures.
import { readFileSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LEAD_TOKEN } from './harness/api-standin.js';
import { CLAUDE_CODE_VERSION } from './harness/binary.js';
import { listenToEngine, type EngineListener } from './harness/engine-events.js';
import { isIdleFrom } from './harness/entries.js';
import { startTeam, type Team } from './harness/team.js';
import { startWatch, teamdeckCli, type TeamdeckCli, type WatchEngine } from './harness/teamdeck-cli.js';
import { byMember, costAt, countsOf, pricedStateDir, quiet, scriptedSums, type Sums, type UsageJson } from './harness/usage-sums.js';
import { describeClaude, reportOnFailure } from './harness/vitest.js';
import { waitFor } from './harness/wait.js';

const S = 20_000;
/** A model name no default price knows: only prices.json prices it. */
const MODEL = 'claude-usage-contract-test';
const PRICE = { inputPerMTok: 3, outputPerMTok: 15, cacheWritePerMTok: 3.75, cacheReadPerMTok: 0.3 };

const costOf = (s: Sums) => costAt(PRICE, s);

describeClaude(`Usage and cost against Claude Code ${CLAUDE_CODE_VERSION}`, () => {
  let team: Team;
  let cli: TeamdeckCli;
  let watch: WatchEngine | undefined;
  let engine: EngineListener | undefined;
  let stateDir: string;
  let figures: UsageJson | undefined;
  reportOnFailure(() => (team ? [team.report(), cli?.report(), watch?.stderr()].join('\n') : undefined));

  beforeAll(async () => {
    team = await startTeam({
      prompts: { researcher: 'You are the researcher. [[SAY:researcher ready]]' },
      env: { ANTHROPIC_MODEL: MODEL },
    });
    stateDir = pricedStateDir(team, 'state', MODEL, PRICE);
    const where = { teamsDir: team.teamsDir, stateDir, home: team.run.home };
    watch = await startWatch(where);
    cli = teamdeckCli(where);
    await team.type(`${LEAD_TOKEN} Start the team. [[SPAWN:researcher]]`);
    await waitFor(async () => (await team.memberNames()).includes('researcher'), { what: 'researcher in config.json', timeoutMs: S, intervalMs: 50 });
    await team.observer.waitForEntry(team.inboxRel('team-lead'), isIdleFrom('researcher'), S, "researcher's first idle_notification");
    engine = await listenToEngine(stateDir);
  });
  afterAll(async () => {
    engine?.close();
    await watch?.stop();
    await team?.stop();
  });

  const usage = async (): Promise<UsageJson> => {
    const r = await cli.run(['usage', '--team', team.teamName, '--json']);
    if (r.code !== 0) throw new Error(`usage exited ${r.code}: ${r.stderr}`);
    return JSON.parse(r.stdout) as UsageJson;
  };

  it('shows per member exactly what the model reported, a three-block reply once, priced from prices.json', async () => {
    await team.send('researcher', 'Answer in three parts. [[SAY:part one]][[SAY:part two]][[SAY:part three]]');
    const three = await team.api.waitForRequest('researcher', (r) => r.newText.includes('Answer in three parts') && r.reply !== undefined, S, 'the three-part question');
    expect(three.reply).toHaveLength(3);
    await quiet(team);
    // Claude wrote the three blocks as three rows of one message id, each with the whole usage (§19).
    const sub = readdirSync(join(team.configDir, 'projects'), { recursive: true, encoding: 'utf8' }).find((p) => /subagents\/agent-aresearcher-[0-9a-f]{16}\.jsonl$/.test(p));
    expect(sub, 'the researcher\'s transcript').toBeDefined();
    const rows = readFileSync(join(team.configDir, 'projects', sub!), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type?: string; message?: { id?: string; model?: string; usage?: Record<string, number> } });
    const id = `msg_standin_${three.seq}`;
    const blocks = rows.filter((r) => r.type === 'assistant' && r.message?.id === id);
    expect(blocks).toHaveLength(3);
    expect(new Set(blocks.map((b) => JSON.stringify(b.message?.usage && { i: b.message.usage.input_tokens, o: b.message.usage.output_tokens, cw: b.message.usage.cache_creation_input_tokens, cr: b.message.usage.cache_read_input_tokens }))).size).toBe(1);
    expect(blocks[0]!.message?.model).toBe(MODEL);

    const expected = scriptedSums(team.api.log);
    expect([...expected.keys()].sort()).toEqual(['researcher', 'team-lead']);
    // The engine may be a poll behind the files: looked at again until it has caught up.
    figures = await waitFor(async () => {
      const u = await usage();
      return u.members.every((m) => JSON.stringify(countsOf(m)) === JSON.stringify(expected.get(m.member))) && u.members.length === expected.size ? u : undefined;
    }, { what: 'usage to equal the scripted sums', timeoutMs: 10_000, intervalMs: 200 }).catch(async () => usage());
    for (const m of figures.members) {
      expect(countsOf(m), m.member).toEqual(expected.get(m.member));
      expect(m.model).toBe(MODEL);
      expect(m.costUsd).toBeCloseTo(costOf(m), 12);
    }
    expect(figures.members.map((m) => m.member).sort()).toEqual(['researcher', 'team-lead']);
    const sum = figures.members.reduce((a, m) => ({ messages: a.messages + m.messages, inputTokens: a.inputTokens + m.inputTokens, outputTokens: a.outputTokens + m.outputTokens, cacheWriteTokens: a.cacheWriteTokens + m.cacheWriteTokens, cacheReadTokens: a.cacheReadTokens + m.cacheReadTokens }), { messages: 0, inputTokens: 0, outputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0 });
    expect(countsOf(figures.total)).toEqual(sum);
    expect(figures.total.costUsd).toBeCloseTo(costOf(sum), 12);
    process.stdout.write(`usage: ${JSON.stringify(figures)}\n`);
  });

  it('shows a new reply within 1 s through the running engine', async () => {
    const before = engine!.of('usage', team.teamName).length;
    const leadBefore = figures!.members.find((m) => m.member === 'team-lead')!.messages;
    await team.type('One more thing. [[SAY:a fresh reply]]');
    const req = await team.api.waitForRequest('lead', (r) => r.newText.includes('One more thing') && r.reply !== undefined, S, 'the fresh turn');
    const shown = await waitFor(
      () =>
        engine!
          .of('usage', team.teamName)
          .slice(before)
          .find((e) => ((e.event.usage as UsageJson).members.find((m) => m.member === 'team-lead')?.messages ?? 0) > leadBefore),
      { what: 'a usage event with the new reply', timeoutMs: 5_000, intervalMs: 10 },
    );
    const ms = shown.at - req.at;
    process.stdout.write(`a new reply reached the engine's usage ${ms} ms after the model answered\n`);
    expect(ms).toBeLessThanOrEqual(1_000);
    const lead = (shown.event.usage as UsageJson).members.find((m) => m.member === 'team-lead')!;
    expect(lead.inputTokens).toBeGreaterThanOrEqual(figures!.members.find((m) => m.member === 'team-lead')!.inputTokens + req.usage!.input_tokens);
  });

  it('puts a budget below the spend in needs', async () => {
    await quiet(team);
    const now = await usage();
    const budget = Number((now.total.costUsd! / 2).toFixed(6));
    const set = await cli.run(['budget', '--team', team.teamName, '--usd', String(budget)]);
    expect(set.code, set.stderr).toBe(0);
    const needs = await waitFor(async () => {
      const r = await cli.run(['needs', '--json']);
      const items = JSON.parse(r.stdout) as Array<{ id: string; kind: string; team: string; title: string }>;
      return items.find((n) => n.kind === 'budget' && n.team === team.teamName) ? items : undefined;
    }, { what: 'a budget item in needs', timeoutMs: 5_000, intervalMs: 200 });
    const item = needs.find((n) => n.kind === 'budget')!;
    expect(item.id).toBe(`budget:${team.teamName}:100`);
    expect(item.title).toContain(team.teamName);
  });

  it('keeps the ended team\'s figures, with its transcripts gone and no engine running', async () => {
    await quiet(team);
    const last = await usage();
    await team.exit();
    await waitFor(async () => (await cli.teams()).find((t) => t.id === team.teamName)?.state === 'ended', { what: 'the team listed as ended', timeoutMs: S, intervalMs: 200 });
    const ended = await usage();
    expect(byMember(ended)).toEqual(byMember(last));
    engine?.close();
    engine = undefined;
    await watch!.stop();
    watch = undefined;
    // The transcripts are gone (Claude removes them after cleanupPeriodDays): only the state folder remembers.
    renameSync(join(team.configDir, 'projects'), join(team.configDir, 'projects-gone'));
    const kept = await usage();
    expect(byMember(kept)).toEqual(byMember(last));
    expect(kept.total.costUsd).toBeCloseTo(last.total.costUsd!, 12);
    process.stdout.write(`ended and read back: ${JSON.stringify(kept)}\n`);
  });
});
