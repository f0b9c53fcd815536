// The browser host's first screen, rendered in Node as the host renders it, from start-up data
// taken from the dev API (a whole snapshot and the first team's roster, as the host sends them).
import { afterEach, describe, expect, it } from 'vitest';
import { firstTeam, type HostBoot } from '../../shared/host-boot';
import { createFakeApi, type FakeApi } from './dev/fake-api';
import { renderFirstScreen } from './first-screen';

const fakes: FakeApi[] = [];
afterEach(() => {
  for (const f of fakes.splice(0)) f.stopTimers();
});

async function demoBoot(): Promise<HostBoot> {
  const api = createFakeApi({ stepMs: 0 });
  fakes.push(api);
  const snap = await api.getSnapshot();
  if (!snap.ok) throw new Error(snap.error.message);
  const team = firstTeam(snap.value.teams)!;
  const roster = await api.getRoster(team);
  if (!roster.ok) throw new Error(roster.error.message);
  return { id: 'boot-1', snapshot: snap.value, roster: { team, entries: roster.value } };
}

describe('renderFirstScreen', () => {
  it("renders the first team's roster with the lead open, as the window's first render does, marked as not the live app", async () => {
    const boot = await demoBoot();
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

  it('writes no style attribute (the page CSP drops them) and every text escaped', async () => {
    const boot = await demoBoot();
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

  it('without a roster (the host did not have it in time) shows the team and waits for its members', async () => {
    const { roster: _, ...boot } = await demoBoot();
    const html = renderFirstScreen(boot, boot.snapshot.now);
    expect(html).toContain('data-phase="first-screen"');
    expect(html).not.toContain('data-testid="member-');
    expect(html).toContain('Loading members…');
  });
});
