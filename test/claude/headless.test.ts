// The headless probe: Claude Code 2.1.332 makes a session team only for interactive leads.
// A `claude -p` stream-json lead with teams on gets no teams/ folder, and its Agent{name}
// call starts a background subagent instead of a teammate. If this ever makes a team, the
// contract changed (docs/claude-contract.md#eras, #headless).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LEAD_TOKEN, startApiStandin, type ApiStandin } from './harness/api-standin.js';
import { CLAUDE_CODE_VERSION } from './harness/binary.js';
import { startHeadless, type HeadlessLead } from './harness/headless.js';
import { makeRunDir, type RunDir } from './harness/home.js';
import { directiveScript, newToolResults } from './harness/script.js';
import { claudeSuite } from './harness/suite.js';
import { describeClaude, reportOnFailure } from './harness/vitest.js';
import { waitFor } from './harness/wait.js';

describeClaude(`Claude Code ${CLAUDE_CODE_VERSION}: a headless (-p stream-json) lead`, () => {
  let api: ApiStandin;
  let run: RunDir;
  let lead: HeadlessLead | undefined;
  reportOnFailure(() => (lead ? `stderr:\n${lead.stderr()}\nevents:\n${lead.events.map((e) => JSON.stringify(e).slice(0, 300)).join('\n')}` : undefined));

  beforeAll(async () => {
    api = await startApiStandin({ default: directiveScript() });
    run = makeRunDir();
  });
  afterAll(async () => {
    await lead?.close(3_000);
    await api?.close();
    run?.remove();
  });

  it('gets no team folder with teams on, and Agent{name} launches a background agent, not a teammate', async () => {
    const binary = claudeSuite();
    if (binary.skip !== undefined) throw new Error(binary.skip);
    lead = startHeadless({ binary: binary.path, run, apiUrl: api.url });
    lead.sendUser(`${LEAD_TOKEN} Start a helper. [[SPAWN:helper]]`);
    const result = await lead.waitForEvent((e) => e.type === 'result', 30_000, 'the headless turn to end');
    expect(result.is_error).toBe(false);
    const [first, second] = api.requestsOf('lead');
    expect(first!.reply!.some((b) => b.type === 'tool_use' && b.name === 'Agent')).toBe(true);
    const spawn = newToolResults(second!).find((r) => r.name === 'Agent');
    expect(spawn?.text).toMatch(/Async agent launched successfully/);
    const init = lead.events.find((e) => e.type === 'system' && e.subtype === 'init');
    expect(init?.session_id).toBe(lead.sessionId);
    // No team, now or after the turn: no teams/ folder at all (or an empty one).
    const teams = join(run.configDir, 'teams');
    expect(existsSync(teams) ? readdirSync(teams) : []).toEqual([]);
    expect(existsSync(join(run.configDir, 'tasks'))).toBe(false);
    // The spawned agent calls the model as a background agent: an agent id, no `<name>@<team>`.
    const others = await waitFor(() => {
      const found = api.log.filter((r) => r.agent !== 'lead' && r.agent !== 'side');
      return found.length > 0 && found;
    }, { what: "the background agent's model request", timeoutMs: 20_000 });
    for (const r of others) expect(r.headers['x-claude-code-agent-id']).toMatch(/^a[0-9a-f]{16}$/);
    // A headless lead still registers its session: entrypoint sdk-cli, yet kind "interactive".
    const files = readdirSync(run.sessionsDir).filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(1);
    const session = JSON.parse(readFileSync(join(run.sessionsDir, files[0]!), 'utf8'));
    expect(session).toMatchObject({ sessionId: lead.sessionId, version: CLAUDE_CODE_VERSION, entrypoint: 'sdk-cli', kind: 'interactive' });
  });
});
