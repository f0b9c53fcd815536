import { afterEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { claudeAppend } from '../../sim/claude-inbox.js';
import { watchTeamsRoot, type RootWatcher, type WatchTarget } from './root-watcher.js';

let base: string;
let watcher: RootWatcher | undefined;
afterEach(async () => {
  await watcher?.close();
  watcher = undefined;
  await rm(base, { recursive: true, force: true });
});

async function setup(): Promise<{ root: string; inbox: string; hints: WatchTarget[] }> {
  base = await mkdtemp(join(tmpdir(), 'teamdeck-watch-'));
  const root = join(base, 'teams');
  await mkdir(join(root, 'alpha', 'inboxes'), { recursive: true });
  const inbox = join(root, 'alpha', 'inboxes', 'user.json');
  await writeFile(inbox, '[]');
  const hints: WatchTarget[] = [];
  watcher = watchTeamsRoot(root, (t) => hints.push(t), () => {});
  await watcher.ready;
  await sleep(50);
  return { root, inbox, hints };
}

const inboxHints = (hints: WatchTarget[]) => hints.filter((h) => h.kind === 'inbox' && h.owner === 'user').length;

async function until(check: () => boolean, ms = 2_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await sleep(5);
  return check();
}

describe('watchTeamsRoot', () => {
  it('reports every rename-over write of an inbox, however close together (no wait for the rescan)', async () => {
    const { inbox, hints } = await setup();
    let missed = 0;
    for (let i = 0; i < 60; i++) {
      const before = inboxHints(hints);
      await claudeAppend(inbox, { from: 'researcher', text: `answer ${i}`, timestamp: new Date().toISOString(), read: false });
      // Well under the service's 2 s rescan: a hint must come from a watcher.
      if (!(await until(() => inboxHints(hints) > before, 500))) missed++;
      await sleep(10 + (i % 7) * 9);
    }
    expect(missed).toBe(0);
  });

  it('passes on one hint per change, not one per raw event, so an unchanged file is not read again', async () => {
    const { inbox, hints } = await setup();
    for (let i = 0; i < 10; i++) {
      await claudeAppend(inbox, { from: 'researcher', text: `answer ${i}`, timestamp: new Date().toISOString(), read: false });
      await until(() => inboxHints(hints) > i, 1_000);
      await sleep(40);
    }
    await sleep(200);
    expect(inboxHints(hints)).toBe(10);
  });

  it('watches the inboxes folder of a team that appears later', async () => {
    const { root, hints } = await setup();
    await mkdir(join(root, 'beta', 'inboxes'), { recursive: true });
    await sleep(300);
    for (let i = 0; i < 5; i++) {
      const before = hints.filter((h) => h.kind === 'inbox' && h.team === 'beta').length;
      await claudeAppend(join(root, 'beta', 'inboxes', 'team-lead.json'), { from: 'tester', text: `report ${i}`, timestamp: new Date().toISOString(), read: false });
      expect(await until(() => hints.filter((h) => h.kind === 'inbox' && h.team === 'beta').length > before, 500)).toBe(true);
    }
  });
});
