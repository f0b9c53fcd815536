import { TS, corp, expectPreserved, message } from '../build.js';
import type { CorpusCase } from '../types.js';

const BYTES = Buffer.from(JSON.stringify({ messages: [message('team-lead', 'hello', TS)] }, null, 2));

export const corpusCase: CorpusCase = {
  name: 'an object instead of an array',
  expected: 'problem "unreadable: a JSON object instead of an array", bytes kept; a send to it is queued, file untouched',
  setup: async (env) => {
    await corp(env, { inboxes: { researcher: BYTES } });
  },
  expect: [
    { problem: { file: 'corp/inboxes/researcher.json', kind: 'inbox', message: /^unreadable: a JSON object instead of an array/ } },
    { readInbox: 'corp/inboxes/researcher.json', kind: 'corrupt', reason: /a JSON object instead of an array/ },
    { send: { team: 'corp', to: 'researcher', text: 'hello?' }, queued: /unreadable \(a JSON object instead of an array\); left untouched/ },
  ],
  after: async (env) => {
    await expectPreserved(env, 'corp', BYTES);
  },
};
