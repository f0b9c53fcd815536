import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LeadAction } from '../../shared/types.js';
import { ACTIONS_FILE, appendAction, readActions } from './actions-log.js';

const action = (n: number): LeadAction => ({ id: `a${n}`, team: 't', member: 'worker', kind: 'answer', what: `allowed ${n}`, at: n, via: 'cli', where: 'tmux pane %1', keys: [{ key: 'Enter', at: n }], confirmed: true });

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the record of keys pressed in a lead terminal', () => {
  it('appends and reads back in order, leaving a torn or foreign line out', async () => {
    dir = await mkdtemp(join(tmpdir(), 'teamdeck-actions-'));
    expect(await readActions(dir)).toEqual([]);
    await appendAction(dir, action(1));
    await appendFile(join(dir, ACTIONS_FILE), '{"id":"x","kind":"other"}\n{"id":"torn');
    await appendFile(join(dir, ACTIONS_FILE), '\n');
    await appendAction(dir, action(2));
    expect((await readActions(dir)).map((a) => a.id)).toEqual(['a1', 'a2']);
  });
});
