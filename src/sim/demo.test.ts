import { afterEach, beforeEach, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDemoTeam } from './demo.js';
import { readTeam } from '../main/core/claude/team-reader.js';
import { memberState, presenceFacts } from '../main/core/presence.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'teamdeck-demo-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

it('seeds a demo team in which all three member states show', async () => {
  const now = Date.now();
  const demo = await createDemoTeam({ teamsDir: root, now: () => now });
  expect(demo).toMatchObject({ team: 'demo', created: true, running: ['researcher', 'implementer'] });
  const snap = await readTeam(root, 'demo');
  expect(snap.summary.problems).toEqual([]);
  expect(snap.members.map((m) => m.name)).toEqual(['team-lead', 'researcher', 'implementer', 'tester']);
  const facts = presenceFacts(snap.messages);
  const state = (name: string) => memberState(facts.get(name) ?? { terminated: false }, now);
  expect(state('researcher')).toBe('active');
  expect(state('implementer')).toBe('idle');
  expect(state('tester')).toBe('terminated');
  expect(new Set(snap.members.map((m) => m.model))).toEqual(new Set([undefined, 'opus', 'sonnet', 'haiku']));

  // A second call leaves an existing demo alone.
  expect((await createDemoTeam({ teamsDir: root })).created).toBe(false);
  expect((await readTeam(root, 'demo')).messages).toHaveLength(snap.messages.length);
});
