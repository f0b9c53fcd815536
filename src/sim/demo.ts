// The demo team: a lead and three teammates with a little history, so every roster state shows
// at once: researcher ACTIVE (answered under a minute ago), implementer IDLE (last heard from
// twenty minutes ago), tester TERMINATED (approved a shutdown). Used by `teamdeck demo` and by
// shells that offer "start a demo team".
//   current (default): what Claude Code 2.1.332 leaves on disk after such a session: a
//     `session-<8 hex>` team owned by this process, inboxes already pruned to [], the tester
//     gone from config, and the history where today's Claude keeps it: in the transcripts.
//   legacy: the named team "demo" whose inboxes keep what was read (read:true) and user.json.
import { access } from 'node:fs/promises';
import { claudeAppend, type ClaudeMessage } from './claude-inbox.js';
import { createCurrentDemo } from './demo-current.js';
import { DEMO_RUNNING, DEMO_TEAM, type DemoOptions, type DemoTeam } from './demo-names.js';
import { createTeam, simTeamPaths, LEAD_NAME, USER_NAME } from './simulator.js';

export { DEMO_RUNNING, DEMO_SENDER, DEMO_TEAM, type DemoOptions, type DemoTeam } from './demo-names.js';

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
