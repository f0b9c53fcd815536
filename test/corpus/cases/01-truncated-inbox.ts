import { TS, TS2, corp, expectPreserved, message } from '../build.js';
import type { CorpusCase } from '../types.js';

const VALID = JSON.stringify([message('team-lead', 'hello', TS), message('team-lead', 'second', TS2)], null, 2);
const BYTES = Buffer.from(VALID.slice(0, VALID.length - 9));

export const corpusCase: CorpusCase = {
  name: 'truncated inbox JSON',
  expected: 'problem "unreadable: not valid JSON", bytes kept under preserved/; a send to it is queued and the file is left untouched',
  setup: async (env) => {
    await corp(env, { inboxes: { researcher: BYTES, 'team-lead': [message('researcher', 'fine here', TS)] } });
  },
  expect: [
    { problem: { file: 'corp/inboxes/researcher.json', kind: 'inbox', message: /^unreadable: not valid JSON .*its bytes were kept/ } },
    { readInbox: 'corp/inboxes/researcher.json', kind: 'corrupt', reason: /not valid JSON/ },
    { readTeam: 'corp', problem: /unreadable: not valid JSON/ },
    { roster: 'corp', names: ['team-lead', 'researcher', 'writer'] },
    { send: { team: 'corp', to: 'researcher', text: 'are you there?' }, queued: /researcher\.json is unreadable \(not valid JSON.*left untouched, bytes kept/ },
  ],
  after: async (env) => {
    await expectPreserved(env, 'corp', BYTES);
  },
};
