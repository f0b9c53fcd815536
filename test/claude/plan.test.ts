// A teammate's plan waiting for the lead, answered from Teamdeck (answerPlan): Teamdeck types a
// turn asking the lead to approve it, the lead sends the plan_approval_response, and the teammate
// gets the approval. With 2.1.337 a plan waits for the lead only when the user put an in-process
// teammate in plan mode (shift+tab in its view); a pane teammate spawned by a lead in plan mode
// has its plan approved by the lead's own process at once (docs/claude-contract.md#interrupts).
// While the lead's terminal shows the teammate's view, what is typed goes to the teammate:
// answerPlan refuses there, and goes through once the terminal is back on the lead.
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { CLAUDE_CODE_VERSION } from './harness/binary.js';
import { isFrame, isIdleFrom } from './harness/entries.js';
import { directiveScript, newToolResults, text, tool, type ApiRequest, type ReplyBlock, type Script } from './harness/script.js';
import { startTeam, type Team } from './harness/team.js';
import { startWatch, teamdeckCli, type TeamdeckCli, type WatchEngine } from './harness/teamdeck-cli.js';
import { notLeadsBox } from '../../src/engine/claude/lead-screen.js';
import { EngineSocketClient } from '../../src/engine/socket/client.js';
import { describeClaude, reportOnFailure } from './harness/vitest.js';
import { delay, waitFor } from './harness/wait.js';

const S = 20_000;
const PLAN = '# Plan\n\n1. Rename the module.\n2. Run the tests.\n';

/** The planner: on `[[PLAN]]` it calls ExitPlanMode; told where the plan file goes, writes it and calls again. */
function planner(req: ApiRequest): ReplyBlock[] | undefined {
  const r = newToolResults(req)[0];
  if (req.newText.includes('[[PLAN]]') && !r) return [tool('ExitPlanMode', {})];
  if (r?.name === 'ExitPlanMode') {
    const m = /No plan file found at (\S+?\.md)/.exec(r.text);
    return m ? [tool('Write', { file_path: m[1], content: PLAN })] : [text('planner: waiting for the lead')];
  }
  if (r?.name === 'Write') return [tool('ExitPlanMode', {})];
  if (/\[Plan Approved\]|plan_approval_response/.test(req.newText)) return [text('planner: approved, proceeding')];
  return undefined;
}

/** The lead: asked by the user to approve a plan, sends the plan_approval_response; else the directives. */
function lead(prompts: Record<string, string>): Script {
  const d = directiveScript({ prompts });
  return (req) => {
    const m = /I approve ([\w-]+)'s plan \(request ([^)\s]+)\)/.exec(req.newText);
    if (m && req.newContent.some((b) => b.type === 'text' && b.text?.startsWith('I approve'))) {
      return [tool('SendMessage', { to: m[1], summary: 'plan approved', message: { type: 'plan_approval_response', request_id: m[2], approve: true } })];
    }
    return d(req);
  };
}

interface Need {
  id: string;
  kind: string;
  team: string;
  member?: string;
}

let team: Team | undefined;
let watch: WatchEngine | undefined;
let cli: TeamdeckCli | undefined;
reportOnFailure(() => team && `${team.report()}\n${cli?.report() ?? ''}\n${watch?.stderr().slice(-2000) ?? ''}`);
afterEach(async () => {
  await watch?.stop();
  await team?.stop();
  team = watch = cli = undefined;
});

async function needs(): Promise<Need[]> {
  const r = await cli!.run(['needs', '--json']);
  if (r.code !== 0) throw new Error(`needs exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Need[];
}

describeClaude(`Claude Code ${CLAUDE_CODE_VERSION}: a teammate's plan answered from Teamdeck`, () => {
  it('a plan waiting for the lead: answerPlan (approve) types the turn, the lead sends the approval, the teammate gets it and proceeds', async () => {
    const prompts = { planner: 'You are the planner. [[SAY:ready]]' };
    team = await startTeam({ teammates: ['planner'], prompts, scripts: { lead: lead(prompts), planner } });
    await team.observer.waitForEntry(team.inboxRel('team-lead'), isIdleFrom('planner'), S, "the planner's first idle_notification");
    await waitFor(() => team!.lead.screen().includes('↓ to manage'), { what: 'the agents panel', timeoutMs: S });
    // The user puts the planner in plan mode: its view (agents panel, planner, Enter), shift+tab.
    team.lead.keys('Down');
    await waitFor(() => team!.lead.screen().includes('↑/↓ to select'), { what: 'the agents list', timeoutMs: 5_000 });
    team.lead.keys('Down');
    await waitFor(() => team!.lead.screen().includes('enter to view'), { what: 'the planner selected', timeoutMs: 5_000 });
    team.lead.keys('Enter');
    await waitFor(() => team!.lead.screen().includes('Viewing @planner'), { what: "the planner's view", timeoutMs: 5_000 });
    for (let i = 0; i < 4; i++) {
      team.lead.keys('BTab');
      await delay(400);
    }
    await team.send('planner', 'Plan the rename first. [[PLAN]]');
    const ask = await team.observer.waitForEntry(team.inboxRel('team-lead'), isFrame('plan_approval_request', 'planner'), S, 'the plan_approval_request');
    const frame = JSON.parse(String(ask.entry.text)) as { requestId: string; planContent: string };
    expect(frame.planContent).toBe(PLAN);
    // Nobody answered it: the planner's model was told to wait, and no approval reached it.
    await delay(2_500);
    expect(team.api.requestsOf('planner').some((r) => /\[Plan Approved\]/.test(r.newText))).toBe(false);
    const stateDir = join(team.run.run, 'state');
    const paths = { teamsDir: team.teamsDir, stateDir, home: team.run.home, env: { TMPDIR: team.run.tmp } };
    cli = teamdeckCli(paths);
    watch = await startWatch(paths);
    const need = await waitFor(async () => (await needs()).find((n) => n.kind === 'plan-approval' && n.member === 'planner'), { what: 'the plan item in needs', timeoutMs: S, intervalMs: 200 });
    expect(need.id).toBe(`plan:${team.teamName}:${frame.requestId}`);
    const client = new EngineSocketClient({ stateDir, events: false });
    await client.start();
    try {
      // The lead's terminal still shows the planner's view (Esc leaves the agents list): typed
      // there, the answer would message the planner. Teamdeck reads the screen and refuses.
      team.lead.keys('Escape');
      await waitFor(() => team!.lead.screen().includes('plan mode on'), { what: "the planner's view in plan mode", timeoutMs: 5_000 });
      const before = team.api.log.length;
      const refused = await client.call('answerPlan', { need: need.id, approve: true }).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(refused?.message).toMatch(/the lead's terminal is showing planner's view; switch back to the lead to answer/);
      await delay(1_000);
      expect(team.lead.screen()).toMatch(/^❯\s+Message @planner…\s*$/m);
      expect(team.api.log.slice(before).filter((r) => r.newText.includes('I approve'))).toEqual([]);
      // Back to the lead's own input box. Esc in the view does not return (with the planner
      // awaiting approval), and Left offers to background the session; Down enters the agents
      // list at "main", Enter views main, Esc leaves the list.
      team.lead.keys('Down');
      await waitFor(() => /^❯ ◯ main\b/m.test(team!.lead.screen()), { what: 'main selected in the agents list', timeoutMs: 5_000 });
      team.lead.keys('Enter');
      await waitFor(() => !team!.lead.screen().includes('Viewing @planner'), { what: "the lead's main view", timeoutMs: 5_000 });
      team.lead.keys('Escape');
      await waitFor(() => team!.lead.screen().includes('↓ to manage'), { what: "the lead's input box focused", timeoutMs: 5_000 });
      expect(notLeadsBox(team.lead.screen())).toBeUndefined();
      const from = team.api.log.length;
      const action = await client.call('answerPlan', { need: need.id, approve: true });
      expect(action).toMatchObject({ kind: 'plan', member: 'planner', confirmed: true });
      // The lead got the user's turn and sent the response; the planner got the approval.
      const leadReq = await team.api.waitForRequest('lead', (r) => r.seq > from && r.newText.includes(`I approve planner's plan (request ${frame.requestId})`), S, 'the typed turn at the lead');
      expect(leadReq.reply?.[0]).toMatchObject({ type: 'tool_use', name: 'SendMessage' });
      const got = await team.api.waitForRequest('planner', (r) => r.seq > from && /\[Plan Approved\]/.test(r.newText), S, 'the approval at the planner');
      expect(got.newText).toMatch(/<teammate-message teammate_id="team-lead">\n\[Plan Approved\]/);
    } finally {
      await client.stop();
    }
    await waitFor(async () => !(await needs()).some((n) => n.id === need.id), { what: 'the plan item to clear', timeoutMs: 5_000, intervalMs: 200 });
  });
});
