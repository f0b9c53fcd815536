import { TS, corp, expectPreserved, message, teamConfig } from '../build.js';
import type { CorpusCase } from '../types.js';

const DEPTH = 100_000;
const OPEN = '['.repeat(DEPTH);
const NESTED = OPEN + ']'.repeat(DEPTH);
const OBJECTS = '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH);

/** JSON texts with the nest spliced in (building the nest as a value would overflow JSON.stringify). */
function deepConfig(): string {
  const text = JSON.stringify(teamConfig('corp', ['researcher', 'writer', { deep: true }], { deep: '@@DEEP@@' }));
  return text.replace('{"deep":true}', NESTED).replace('"@@DEEP@@"', NESTED);
}
function deepFieldInbox(): string {
  return JSON.stringify([message('researcher', 'still readable', TS, { extra: '@@DEEP@@' })], null, 2).replace('"@@DEEP@@"', NESTED);
}

export const corpusCase: CorpusCase = {
  name: 'deeply nested JSON (100,000 levels)',
  expected: 'no stack overflow: unterminated nesting is "unreadable: not valid JSON", nested objects "a JSON object instead of an array", a closed nest is 1 skipped entry (send accepted), a nested config member is skipped',
  setup: async (env) => {
    await corp(env, {
      config: deepConfig(),
      inboxes: { researcher: OPEN, writer: NESTED, user: OBJECTS, 'team-lead': deepFieldInbox() },
    });
  },
  expect: [
    { readInbox: 'corp/inboxes/researcher.json', kind: 'corrupt', reason: /not valid JSON/ },
    { readInbox: 'corp/inboxes/writer.json', kind: 'ok', messages: 0, invalid: 1 },
    { readInbox: 'corp/inboxes/user.json', kind: 'corrupt', reason: /a JSON object instead of an array/ },
    { readInbox: 'corp/inboxes/team-lead.json', kind: 'ok', messages: 1, invalid: 0 },
    { readTeam: 'corp', problem: /unreadable: not valid JSON/ },
    { problem: { file: 'corp/inboxes/researcher.json', kind: 'inbox', message: /^unreadable: not valid JSON/ } },
    { problem: { file: 'corp/inboxes/user.json', kind: 'inbox', message: /^unreadable: a JSON object instead of an array/ } },
    { problem: { file: 'corp/inboxes/writer.json', kind: 'inbox', message: /^1 entries are not messages/ } },
    { problem: { file: 'corp/config.json', kind: 'config', message: /^members\[3\]: entry / } },
    { roster: 'corp', names: ['team-lead', 'researcher', 'writer'] },
    { send: { team: 'corp', to: 'researcher', text: 'into the unterminated nest' }, queued: /unreadable \(not valid JSON/ },
    { send: { team: 'corp', to: 'writer', text: 'next to the closed nest' }, accepted: true },
  ],
  after: async (env) => {
    await expectPreserved(env, 'corp', Buffer.from(OPEN));
    await expectPreserved(env, 'corp', Buffer.from(OBJECTS));
  },
  appends: ['corp/inboxes/writer.json'],
};
