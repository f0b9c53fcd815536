// SIGKILL of the lead: Claude gets no chance to clean up, so the team looks complete on disk
// with a dead leadProcess.pid (docs/claude-contract.md#lifecycle). /exit, the clean end, is in
// team.test.ts.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLAUDE_CODE_VERSION } from './harness/binary.js';
import { isIdleFrom } from './harness/entries.js';
import { startTeam, type Team } from './harness/team.js';
import { describeClaude, reportOnFailure } from './harness/vitest.js';
import { waitFor } from './harness/wait.js';

describeClaude(`Claude Code ${CLAUDE_CODE_VERSION}: a lead killed with SIGKILL`, () => {
  let team: Team;
  reportOnFailure(() => team?.report());

  beforeAll(async () => {
    team = await startTeam({ teammates: ['helper'], prompts: { helper: 'You help. [[SAY:helper ready]]' } });
    await team.observer.waitForEntry(team.inboxRel('team-lead'), isIdleFrom('helper'), 20_000, "helper's first idle_notification");
    // The lead's turn about that notification is over: its inbox is empty again.
    await waitFor(() => team.observer.entriesSeen(team.inboxRel('team-lead')).every((e) => e.goneAt !== undefined), { what: 'the lead to take its mail', timeoutMs: 10_000 });
  });
  afterAll(async () => {
    await team?.stop();
  });

  it('leaves the team folder, inboxes, session file, key and socket behind, naming a dead pid', async () => {
    const { lead, teamName } = team;
    const sessionFiles = readdirSync(team.run.sessionsDir).filter((f) => f.startsWith(`${lead.pid}.`)).sort();
    expect(sessionFiles).toEqual([expect.stringMatching(new RegExp(`^${lead.pid}\\.[0-9a-f]{64}\\.key$`)), `${lead.pid}.json`]);
    // Inbox files only: a lock dir may come and go around the lead's last prune.
    const inboxFiles = () => readdirSync(join(team.teamDir, 'inboxes')).filter((f) => f.endsWith('.json')).sort();
    const inboxes = inboxFiles();
    expect(inboxes).toContain('team-lead.json');
    const socket = join(team.run.tmp, 'cc-socks', `${lead.pid}.sock`);
    expect(existsSync(socket)).toBe(true);

    lead.signal('SIGKILL');
    await lead.waitForExit(5_000);
    await waitFor(() => lead.exitStatus() !== undefined, { what: "the pane's shell to see the lead end", timeoutMs: 5_000 });
    expect(lead.exitStatus()).toBe(128 + 9);
    expect(existsSync(`/proc/${lead.pid}`)).toBe(false);

    const config = await team.config();
    expect(config.name).toBe(teamName);
    expect(config.leadProcess?.pid).toBe(lead.pid);
    expect(config.members.map((m) => m.name)).toEqual(['team-lead', 'helper']);
    expect(inboxFiles()).toEqual(inboxes);
    expect(readdirSync(team.run.sessionsDir).filter((f) => f.startsWith(`${lead.pid}.`)).sort()).toEqual(sessionFiles);
    expect(existsSync(socket)).toBe(true);
    expect(team.observer.teamNames.some((n) => n.path.startsWith(`teams/${teamName}.deleted-`))).toBe(false);
  });
});
