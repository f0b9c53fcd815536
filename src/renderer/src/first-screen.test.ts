// The browser host's first screen, rendered in Node as the host renders it, from start-up data
// as the host sends it (a whole snapshot and the first team's roster). The host's side, with the
// real engine's data, is src/browser-host/first-screen.test.ts and e2e/first-screen.spec.ts.
import { describe, expect, it } from 'vitest';
import { firstTeam, type HostBoot } from '../../shared/host-boot';
import { renderFirstScreen } from './first-screen';
import { currentTeam, member, snapshot, team } from './testing/host-data';

const MIN = 60_000;

/** Two running teams and an ended one; the first team's roster: a lead, members in each state, and the user's own mailbox. */
function demoBoot(): HostBoot {
  const now = Date.now();
  const snap = snapshot({
    now,
    teams: [team('analysis', { description: 'Auth review', memberCount: 4 }), currentTeam('session-7ec79863'), currentTeam('session-0a1b2c3d', { state: 'ended', endedAt: now - 60 * MIN })],
  });
  const t = firstTeam(snap.teams)!;
  const entries = [
    member('team-lead', { isLead: true, agentType: 'team-lead', lastEventAt: now - 8 * MIN }),
    member('researcher', { color: 'blue', lastEventAt: now - 2 * MIN }),
    member('implementer', { color: 'green', lastEventAt: now - 30 * MIN }),
    member('tester', { inConfig: false, state: 'terminated', lastEventAt: now - 29 * MIN }),
    member('user', { inConfig: false }),
  ];
  return { id: 'boot-1', snapshot: snap, roster: { team: t, entries } };
}

describe('renderFirstScreen', () => {
  it("renders the first team's roster with the lead open, as the window's first render does, marked as not the live app", () => {
    const boot = demoBoot();
    const html = renderFirstScreen(boot, boot.snapshot.now);
    const root = /^<div data-testid="app" data-phase="first-screen" inert=""/.exec(html);
    expect(root).not.toBeNull();
    for (const entry of boot.roster!.entries.filter((e) => e.name !== 'user')) expect(html).toContain(`data-testid="member-${entry.name}"`);
    const lead = boot.roster!.entries.find((e) => e.isLead)!.name;
    expect(html).toMatch(new RegExp(`data-testid="member-${lead}" data-selected="true" aria-current="page"`));
    // Its dots: the state of each member, as the live roster shows it.
    for (const entry of boot.roster!.entries.filter((e) => e.name !== 'user')) expect(html).toContain(`data-testid="dot-${entry.name}" data-state="`);
    expect(html).toContain(`aria-label="Conversation with ${lead}"`);
  });

  it('writes no style attribute (the page CSP drops them) and every text escaped', () => {
    const boot = demoBoot();
    const EVIL = '"><img src=x onerror=alert(1)><script>alert(2)</script>';
    const team = boot.snapshot.teams.find((t) => t.id === boot.roster!.team)!;
    const evil: HostBoot = {
      ...boot,
      snapshot: { ...boot.snapshot, teams: boot.snapshot.teams.map((t) => (t === team ? { ...t, description: EVIL, name: EVIL } : t)) },
      roster: { team: boot.roster!.team, entries: [...boot.roster!.entries, { ...boot.roster!.entries[1]!, name: EVIL, isLead: false }] },
    };
    const html = renderFirstScreen(evil, evil.snapshot.now);
    expect(html).not.toMatch(/\sstyle="/);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('without a roster (the host did not have it in time) shows the team and waits for its members', () => {
    const { roster: _, ...boot } = demoBoot();
    const html = renderFirstScreen(boot, boot.snapshot.now);
    expect(html).toContain('data-phase="first-screen"');
    expect(html).not.toContain('data-testid="member-');
    expect(html).toContain('Loading members…');
  });
});
