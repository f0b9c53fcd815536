// A teammate's plan waiting for the lead, answered from Teamdeck (answerPlan): Teamdeck types a
// turn asking the lead to approve it, the lead sends the plan_approval_response, and the teammate
// gets the approval. With 2.1.337 a plan waits for the lead only when the user put the teammate
// in plan mode (shift+tab in its view): one spawned while the lead is in plan mode, in-process or
// in a pane, has its plan approved by the lead's own process at once (the second case here pins
// that, and that Teamdeck does not show it as waiting).
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { agentToken, LEAD_TOKEN } from './harness/api-standin.js';
import { CLAUDE_CODE_VERSION } from './harness/binary.js';
import { isFrame, isIdleFrom } from './harness/entries.js';
import { directiveScript, newToolResults, text, tool, type ApiRequest, type ReplyBlock } from './harness/script.js';
import { startTeam, type Team } from './harness/team.js';
import { startWatch, teamdeckCli, type TeamdeckCli, type WatchEngine } from './harness/teamdeck-cli.js';
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
function lead(prompts: Record<string, string>) {
  const d = directiveScript({ prompts });
  return (req: ApiRequest): ReplyBlock[] | undefined => {
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
  // WIP (skipped): the steps up to the plan_approval_request and "plan mode on" pass; getting the lead's
  // terminal from the planner's view back to main (so the typed turn reaches the lead) is not solved yet.
  it.skip('a plan waiting for the lead: answerPlan (approve) types the turn, the lead sends the approval, the teammate gets it and proceeds', async () => {
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
    // Back to the lead's own input box (typing in the planner's view would message the planner):
    // Esc leaves the agents list, showing the planner's mode; then the list again, main, Enter.
    team.lead.keys('Escape');
    await waitFor(() => team!.lead.screen().includes('plan mode on'), { what: "the planner's view in plan mode", timeoutMs: 5_000 });
    team.lead.keys('Down');
    await waitFor(() => team!.lead.screen().includes('↑/↓ to select'), { what: 'the agents list', timeoutMs: 5_000 });
    team.lead.keys('Up');
    await delay(300);
    team.lead.keys('Enter');
    await waitFor(() => !team!.lead.screen().includes('Viewing @planner'), { what: `the lead's main view:\n${team.lead.screen()}`, timeoutMs: 5_000 });
    expect(team.lead.screen()).not.toContain('Viewing @planner');

    const stateDir = join(team.run.run, 'state');
    const paths = { teamsDir: team.teamsDir, stateDir, home: team.run.home, env: { TMPDIR: team.run.tmp } };
    cli = teamdeckCli(paths);
    watch = await startWatch(paths);
    const need = await waitFor(async () => (await needs()).find((n) => n.kind === 'plan-approval' && n.member === 'planner'), { what: 'the plan item in needs', timeoutMs: S, intervalMs: 200 });
    expect(need.id).toBe(`plan:${team.teamName}:${frame.requestId}`);
    const client = new EngineSocketClient({ stateDir, events: false });
    await client.start();
    const from = team.api.log.length;
    try {
      const action = await client.call('answerPlan', { need: need.id, approve: true });
      expect(action).toMatchObject({ kind: 'plan', member: 'planner', confirmed: true });
    } finally {
      await client.stop();
    }
    // The lead got the user's turn and sent the response; the planner got the approval.
    const leadReq = await team.api.waitForRequest('lead', (r) => r.seq > from && r.newText.includes(`I approve planner's plan (request ${frame.requestId})`), S, 'the typed turn at the lead');
    expect(leadReq.reply?.[0]).toMatchObject({ type: 'tool_use', name: 'SendMessage' });
    const got = await team.api.waitForRequest('planner', (r) => r.seq > from && /\[Plan Approved\]/.test(r.newText), S, 'the approval at the planner');
    expect(got.newText).toMatch(/<teammate-message teammate_id="team-lead">\n\[Plan Approved\]/);
    await waitFor(async () => !(await needs()).some((n) => n.id === need.id), { what: 'the plan item to clear', timeoutMs: 5_000, intervalMs: 200 });
  });
});
