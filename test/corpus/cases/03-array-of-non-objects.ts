import { corp } from '../build.js';
import type { CorpusCase } from '../types.js';

export const corpusCase: CorpusCase = {
  name: 'an array of non-objects',
  expected: 'tolerant: 0 messages, problem "6 entries are not messages and were skipped"; a send is accepted and every old entry is kept',
  setup: async (env) => {
    await corp(env, { inboxes: { researcher: '[1, "two", null, true, [], [{"from": "x"}]]\n' } });
  },
  expect: [
    { readInbox: 'corp/inboxes/researcher.json', kind: 'ok', messages: 0, invalid: 6 },
    { problem: { file: 'corp/inboxes/researcher.json', kind: 'inbox', message: /^6 entries are not messages and were skipped/ } },
    { send: { team: 'corp', to: 'researcher', text: 'next to the junk' }, accepted: true },
  ],
  appends: ['corp/inboxes/researcher.json'],
};
