// A doubled message in the soak's account says what its member's inbox held: the observer's
// samples of the real file tell two entries at once (a writer's de-duplication failed) from one
// entry written again after a prune, and both from a file that only ever held one copy.
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeHistory, inboxHistory } from '../bench/soak-claude/inbox-history.js';
import { startObserver, type Observer } from './claude/harness/observer.js';
import { delay } from './claude/harness/wait.js';

const TEXT = 'soak-msg 5 for tester: check the build';
const entry = (id: string, text = TEXT) => ({ from: 'teamdeck', text, timestamp: '2026-01-01T00:00:00.000Z', msgV: 1, msg_id: id, type: 'message', read: false });

let dir: string | undefined;
let obs: Observer | undefined;
afterEach(() => {
  obs?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
  obs = undefined;
});

/** Writes each state of tester's inbox (as Claude and Teamdeck do: a temp file renamed over it), long enough apart to be sampled. */
async function run(states: unknown[][]): Promise<Observer> {
  dir = mkdtempSync(join(tmpdir(), 'teamdeck-inbox-history-'));
  const inboxes = join(dir, 'teams', 't1', 'inboxes');
  mkdirSync(inboxes, { recursive: true });
  obs = startObserver(dir, 5);
  for (const [i, s] of states.entries()) {
    writeFileSync(join(inboxes, `tester.json.tmp.${i}`), JSON.stringify(s, null, 2));
    renameSync(join(inboxes, `tester.json.tmp.${i}`), join(inboxes, 'tester.json'));
    await delay(60);
  }
  return obs;
}

describe('inboxHistory', () => {
  it('finds two entries with the text in one state of the file, with their ids', async () => {
    const o = await run([[entry('a')], [entry('a'), entry('b')], []]);
    const h = inboxHistory(o, 't1', 'tester', TEXT);
    expect(h).toMatchObject({ mostAtOnce: 2, idsAtOnce: ['a', 'b'], appearances: 1 });
    expect(describeHistory(h)).toContain('held 2 copies at once (ids a, b)');
  });

  it('tells one entry written again after a prune from two at once', async () => {
    const o = await run([[entry('a')], [], [entry('x', 'other'), entry('a')], []]);
    const h = inboxHistory(o, 't1', 'tester', TEXT);
    expect(h).toMatchObject({ mostAtOnce: 1, idsAtOnce: ['a'], appearances: 2 });
    expect(describeHistory(h)).toContain('never held two copies at once');
  });

  it('says so when the inbox held the message once', async () => {
    const o = await run([[entry('a')], [entry('a'), entry('x', 'other')], []]);
    expect(inboxHistory(o, 't1', 'tester', TEXT)).toMatchObject({ mostAtOnce: 1, appearances: 1 });
    expect(inboxHistory(o, 't1', 'writer', TEXT).states).toBe(0);
  });
});
