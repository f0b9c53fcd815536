// The demo team: a lead and three teammates with a little history, so every roster state shows
// at once: researcher ACTIVE (answered under a minute ago), implementer IDLE (last heard from
// twenty minutes ago), tester TERMINATED (approved a shutdown). Used by `teamdeck demo` and by
// shells that offer "start a demo team".
//   current (default): what Claude Code 2.1.332 leaves on disk after such a session: a
//     `session-<8 hex>` team owned by this process, inboxes already pruned to [], the tester
//     gone from config, and the history where today's Claude keeps it: in the transcripts.
//   legacy: the named team "demo" whose inboxes keep what was read (read:true) and user.json.
import { access, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { claudeAppend, type ClaudeMessage } from './claude-inbox.js';
import { configMembers, removeFromConfig } from './claude-config.js';
import type { SimEra } from './claude-paths.js';
import { leadTurn, leadViewOf, shutdownAppendix, teammateBlock, teammateTerminated } from './framing.js';
import { spawnResult, spawnToolResult } from './lead.js';
import { str } from './replies.js';
import { createTeam, simTeamPaths, LEAD_NAME, USER_NAME } from './simulator.js';
import { DEFAULT_MODEL, leadTranscript, newPromptState, newTeammateAgentId, teammateTranscript, textResult, toolUseId, writeTeammateMeta } from './transcript.js';

export const DEMO_TEAM = 'demo';
/** Members the demo keeps running; the tester has already shut down. */
export const DEMO_RUNNING = ['researcher', 'implementer'] as const;
/** The sender name Teamdeck writes as on current-era teams (a reserved name would be forged). */
export const DEMO_SENDER = 'teamdeck';

export interface DemoTeam {
  team: string;
  teamDir: string;
  /** False when the team was already there and was left as it was. */
  created: boolean;
  running: string[];
  era: SimEra;
  /** Current era: the lead's session id (its transcript's name). */
  leadSessionId?: string;
}

export interface DemoOptions {
  teamsDir: string;
  now?: () => number;
  /** Default current. */
  era?: SimEra;
  /** Current era: the lead's working directory (names the transcripts' project folder). */
  cwd?: string;
}

const MIN = 60_000;

export async function createDemoTeam(opts: DemoOptions): Promise<DemoTeam> {
  if ((opts.era ?? 'current') === 'current') return createCurrentDemo(opts);
  const now = (opts.now ?? Date.now)();
  const p = simTeamPaths(opts.teamsDir, DEMO_TEAM);
  const result = { team: DEMO_TEAM, teamDir: p.dir, running: [...DEMO_RUNNING], era: 'legacy' as const };
  try {
    await access(p.configPath);
    return { ...result, created: false };
  } catch {
    // not there yet: seed it
  }
  const at = (minutesAgo: number) => new Date(now - minutesAgo * MIN).toISOString();
  await createTeam({
    teamsDir: opts.teamsDir,
    team: DEMO_TEAM,
    era: 'legacy',
    description: 'Teamdeck demo: a simulated team',
    now: () => now - 30 * MIN,
    members: [
      { name: 'researcher', agentType: 'Explore', model: 'opus', color: 'blue', prompt: 'Investigate how sessions expire.' },
      { name: 'implementer', agentType: 'general-purpose', model: 'sonnet', color: 'green', prompt: 'Implement the fixes the researcher finds.' },
      { name: 'tester', agentType: 'general-purpose', model: 'haiku', color: 'yellow', backendType: 'tmux', prompt: 'Run the integration suite.' },
    ],
  });

  const msg = (from: string, text: string, timestamp: string, extra: Partial<ClaudeMessage> = {}): ClaudeMessage => ({
    from,
    text,
    timestamp,
    read: false,
    ...extra,
  });
  const frame = (from: string, color: string, body: Record<string, unknown>) =>
    msg(from, JSON.stringify(body), body.timestamp as string, { color });

  // What the members already read stays in their inboxes flagged read (Claude 2.1.8x), so the
  // history is visible to an app started after the demo.
  const seeded: [string, ClaudeMessage][] = [
    ['researcher', msg(USER_NAME, 'Map out how the auth module refreshes tokens', at(25), { summary: 'Token refresh map', read: true })],
    ['implementer', msg(USER_NAME, 'Add a retry with backoff to the upload client', at(24), { summary: 'Upload retries', read: true })],
    ['tester', msg(USER_NAME, 'Run the integration suite against staging', at(23), { summary: 'Integration run', read: true })],
    [USER_NAME, msg('implementer', 'Done: retries with exponential backoff (3 tries, 200 ms base) are in upload.ts.', at(20), { summary: 'Upload retries done', color: 'green' })],
    [LEAD_NAME, frame('implementer', 'green', { type: 'idle_notification', from: 'implementer', timestamp: at(20), idleReason: 'available' })],
    [USER_NAME, msg('tester', 'Done: 212 passed, 0 failed. The report is in test-results/.', at(15), { summary: 'Suite green', color: 'yellow' })],
    ['tester', msg(LEAD_NAME, JSON.stringify({ type: 'shutdown_request', requestId: `shutdown-${now - 10 * MIN}@tester`, from: LEAD_NAME, reason: 'Suite is green; thanks.', timestamp: at(10) }), at(10), { read: true })],
    [LEAD_NAME, frame('tester', 'yellow', { type: 'shutdown_approved', requestId: `shutdown-${now - 10 * MIN}@tester`, from: 'tester', timestamp: at(10), paneId: '%3', backendType: 'tmux' })],
    ['researcher', msg(USER_NAME, 'What happens when a refresh races a logout?', at(2), { summary: 'Refresh vs logout', read: true })],
    [USER_NAME, msg('researcher', 'Done: the refresh wins and re-creates the session; logout should cancel in-flight refreshes.', new Date(now - 40_000).toISOString(), { summary: 'Refresh races logout', color: 'blue' })],
  ];
  for (const [owner, m] of seeded) await claudeAppend(p.inbox(owner), m);
  return { ...result, created: true };
}

/**
 * A 2.1.332 session thirty minutes in: the user asked the lead for a fix; the lead spawned three
 * in-process teammates; each reported back through idle_notification results; the tester was
 * shut down ten minutes ago; the researcher answered a message from Teamdeck 40 s ago.
 */
async function createCurrentDemo(opts: DemoOptions): Promise<DemoTeam> {
  const now = (opts.now ?? Date.now)();
  const ago = (minutes: number) => now - minutes * MIN;
  const iso = (ms: number) => new Date(ms).toISOString();
  const cwd = opts.cwd ?? process.cwd();
  const specs = [
    { name: 'researcher', agentType: 'Explore', description: 'Map token refresh', prompt: 'Map out how the auth module refreshes tokens and why sessions expire early.' },
    { name: 'implementer', model: 'sonnet', description: 'Upload retries', prompt: 'Add a retry with backoff to the upload client.' },
    { name: 'tester', model: 'haiku', description: 'Integration run', prompt: 'Run the integration suite against staging once the fixes are in.' },
  ];
  const team = await createTeam({ teamsDir: opts.teamsDir, era: 'current', now: () => ago(30), cwd, members: specs.map(({ name, agentType, model }) => ({ name, agentType, model })) });
  const sessionId = team.leadSessionId;
  const members = configMembers(team.config);
  const prompt = newPromptState();
  const lead = leadTranscript(opts.teamsDir, { sessionId, cwd, prompt });
  const mates = new Map(
    specs.map((s) => {
      const entry = members.find((m) => m.name === s.name);
      const agentId = newTeammateAgentId(s.name);
      const t = teammateTranscript({ teamsDir: opts.teamsDir, cwd, leadSessionId: sessionId, agentId, model: str(entry?.model), prompt });
      return [s.name, { ...s, agentId, t, color: str(entry?.color), model: str(entry?.model) ?? DEFAULT_MODEL }];
    }),
  );
  const mate = (name: string) => mates.get(name)!;
  for (const m of mates.values()) await writeTeammateMeta(m.t, { name: m.name, teamName: team.id, description: m.description, model: m.model, color: m.color, agentType: m.agentType });

  // The typed prompt, and one reply with an Agent call per teammate.
  await lead.typed('Find out why sessions expire early, fix the upload retries, and run the integration suite.', ago(30));
  const ids = specs.map(() => toolUseId());
  const calls = await lead.assistant(
    specs.map((s, i) => ({ type: 'tool_use', id: ids[i]!, name: 'Agent', input: { description: s.description, prompt: s.prompt, name: s.name, subagent_type: 'general-purpose' } })),
    ago(29.9),
  );
  const started: string[] = [];
  for (const [i, s] of specs.entries()) {
    const m = mate(s.name);
    const info = spawnToolResult({ agentId: m.agentId, name: s.name, team: team.id, prompt: s.prompt, model: m.model, color: m.color, cwd, sessionId });
    await lead.toolResult(calls[i]!, textResult(ids[i]!, spawnResult(m.agentId, s.name)), info, ago(29.9));
    await m.t.recorded(teammateBlock({ from: LEAD_NAME, text: s.prompt, summary: s.description }), ago(29.85));
    if (started.length > 0) await m.t.harness(`<system-reminder>\nOther agents active in this session, addressable via SendMessage({to: name, message}): main, ${started.join(', ')}.\n</system-reminder>`, ago(29.85));
    started.push(s.name);
  }
  await lead.text(`Team is up: ${started.join(', ')}.`, ago(29.8));

  /** A teammate's answer: its assistant row, then the idle_notification the lead sees in its wrapper. */
  const report = async (name: string, result: string, at: number) => {
    const m = mate(name);
    await m.t.text(result, at);
    const frame = { type: 'idle_notification', from: name, timestamp: iso(at), idleReason: 'available', result };
    await lead.recorded(leadTurn([{ from: name, text: JSON.stringify(frame), color: m.color }]), at + 700);
    await lead.text(`Noted: ${name}.`, at + 1500);
  };
  await report('researcher', 'Refresh runs 60 s before expiry, but the clock skew allowance is applied twice, so long sessions expire about two minutes early. Details in notes/auth.md.', ago(25));
  await report('implementer', 'Done: retries with exponential backoff (3 tries, 200 ms base) are in upload.ts.', ago(20));
  await report('tester', 'Done: 212 passed, 0 failed. The report is in test-results/.', ago(15));

  // The lead let the tester go: its request, the tester's approval, the lead removing it.
  const t0 = ago(10);
  const requestId = `shutdown-${t0}@tester`;
  const reason = 'Suite is green; thanks.';
  const request = JSON.stringify({ type: 'shutdown_request', requestId, from: LEAD_NAME, reason, timestamp: iso(t0) });
  const askId = toolUseId();
  const [ask] = await lead.assistant([{ type: 'tool_use', id: askId, name: 'SendMessage', input: { to: 'tester', message: { type: 'shutdown_request', reason }, type: 'shutdown_request', recipient: 'tester', recipient_kind: 'name', content: reason } }], t0 - 30);
  const sent = { success: true, message: `Shutdown request sent to tester. Request ID: ${requestId}`, request_id: requestId, target: 'tester' };
  await lead.toolResult(ask!, textResult(askId, JSON.stringify(sent)), sent, t0 + 40);
  const tester = mate('tester');
  await tester.t.recorded(teammateBlock({ from: LEAD_NAME, text: request, appendix: shutdownAppendix(requestId, LEAD_NAME) }), t0 + 170);
  const approveId = toolUseId();
  const message = { type: 'shutdown_response', request_id: requestId, approve: true };
  const [approve] = await tester.t.assistant([{ type: 'tool_use', id: approveId, name: 'SendMessage', input: { to: LEAD_NAME, message, type: 'shutdown_response', recipient: LEAD_NAME, recipient_kind: 'name', request_id: requestId, approve: true } }], t0 + 210);
  const approvedAt = t0 + 220;
  const said = { success: true, message: `Shutdown approved. Sent confirmation to ${LEAD_NAME}. Agent tester is now exiting.`, request_id: requestId };
  await tester.t.toolResult(approve!, textResult(approveId, JSON.stringify(said)), said, approvedAt + 10);
  const approved = JSON.stringify({ type: 'shutdown_approved', requestId, from: 'tester', timestamp: iso(approvedAt), paneId: 'in-process', backendType: 'in-process' });
  await removeFromConfig(team.configPath, 'tester');
  await lead.recorded(leadTurn([{ from: 'tester', text: leadViewOf(approved), color: tester.color }]), approvedAt + 600);
  await lead.text('Noted: tester.', approvedAt + 650);
  await lead.recorded(leadTurn([teammateTerminated('tester')]), approvedAt + 700);
  await lead.text('Noted: system.', approvedAt + 750);

  // Teamdeck asked the researcher a question two minutes ago; the answer came 40 s ago.
  await mate('researcher').t.recorded(teammateBlock({ from: DEMO_SENDER, text: 'What happens when a refresh races a logout?', summary: 'Refresh vs logout' }), ago(2));
  await report('researcher', 'The refresh wins and re-creates the session; logout should cancel in-flight refreshes.', now - 40_000);
  for (const t of [lead, ...[...mates.values()].map((m) => m.t)]) await t.flush();

  // Every inbox has been written and pruned by now: Claude leaves them as [].
  await mkdir(team.inboxesDir, { recursive: true });
  for (const owner of [LEAD_NAME, ...specs.map((s) => s.name)]) await writeFile(join(team.inboxesDir, `${owner}.json`), '[]');
  return { team: team.id, teamDir: team.dir, created: true, running: [...DEMO_RUNNING], era: 'current', leadSessionId: sessionId };
}
