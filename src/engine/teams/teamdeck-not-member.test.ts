// Issue 28, item 2: Teamdeck's own sender name is the user writing through Teamdeck, never a
// member, whichever Teamdeck wrote it (this engine, or another one with a state dir of its own).
import { describe, expect, it } from 'vitest';
import { TeamService } from '../service/team-service.js';
import { writeTeam } from '../../../test/helpers/team-fixture.js';
import { teamsPerTest } from '../../../test/helpers/teams-per-test.js';

const t = teamsPerTest();
const at = '2026-12-07T02:59:00.000Z';
const fromTeamdeck = (as: string, text: string) => ({ from: as, text, timestamp: at, msgV: 1, msg_id: `m-${text}`, type: 'message', read: true });

describe('the roster never lists Teamdeck itself', () => {
  it('not from its messages, not from an inbox in its name, not after a restart that remembers the roster', async () => {
    await writeTeam(t.root, 'alpha', ['researcher'], {
      inboxes: {
        // Another Teamdeck (its own state dir) wrote as the default name; this one writes as "deck".
        researcher: [fromTeamdeck('teamdeck', 'from the other engine'), fromTeamdeck('deck', 'from this engine')],
        // A reply addressed to Teamdeck's name makes an inbox of that name in some Claude versions.
        teamdeck: [{ from: 'researcher', text: 'on it', timestamp: at, read: false }],
      },
    });
    for (let run = 0; run < 2; run++) {
      t.svc = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false, senderName: 'deck' });
      await t.svc.start();
      const names = (await t.svc.roster('alpha')).map((m) => m.name);
      expect(names, `run ${run}`).toEqual(['team-lead', 'researcher']);
      await t.svc.stop();
      t.svc = undefined;
    }
  });

  it('a member that config.json names like Teamdeck is still a member', async () => {
    await writeTeam(t.root, 'beta', ['teamdeck']);
    t.svc = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false });
    await t.svc.start();
    expect((await t.svc.roster('beta')).map((m) => m.name)).toEqual(['team-lead', 'teamdeck']);
  });
});
