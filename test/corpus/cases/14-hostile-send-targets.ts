import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { corp } from '../build.js';
import type { CorpusCase, Expectation } from '../types.js';

// Names that are not a member's exact name. Several sanitize to a real member's inbox
// ("team/lead" -> team-lead.json), so only an exact name may pick the target.
const TARGETS = [
  '../team-lead',
  '../../outside/x',
  '/etc/passwd',
  'team/lead',
  'team\\lead',
  'team\u0000lead',
  'team-lead\u0000',
  'team\nlead',
  'team\u001b[31mlead',
  './researcher',
  'researcher/',
  '..',
  'Researcher',
  'x'.repeat(300),
];

export const corpusCase: CorpusCase = {
  name: 'hostile send targets (../, /, NUL, control characters, 300 characters)',
  expected: 'every target that is not a member\'s exact name is refused "team corp has no member"; "user" is refused as the user\'s own inbox; nothing is created',
  setup: async (env) => {
    await corp(env, { inboxes: {} });
  },
  expect: [
    ...TARGETS.map((to): Expectation => ({ send: { team: 'corp', to, text: 'who gets this?' }, refused: /^team corp has no member ".*"$/s })),
    { send: { team: 'corp', to: 'user', text: 'x' }, refused: /that is the user's own inbox/ },
  ],
  after: async (env) => {
    expect(await readdir(join(env.root, 'corp', 'inboxes'))).toEqual([]);
  },
};
