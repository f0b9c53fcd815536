import { TS, corp, message } from '../build.js';
import type { CorpusCase } from '../types.js';

export const corpusCase: CorpusCase = {
  name: 'entries with missing or ill-typed fields',
  expected: 'tolerant: the one well-formed entry is shown, problem "4 entries are not messages"; a send is accepted and the odd entries are kept',
  setup: async (env) => {
    await corp(env, {
      inboxes: {
        researcher: [
          { from: 42, text: 'from is a number', timestamp: TS, read: false },
          { from: 'team-lead', timestamp: TS, read: false },
          { from: 'team-lead', text: 'timestamp is null', timestamp: null, read: false },
          { from: 'team-lead', text: { nested: true }, timestamp: TS },
          message('user', 'the one good entry', TS, { read: 'yes', summary: 7, color: ['blue'] }),
        ],
      },
    });
  },
  expect: [
    { readInbox: 'corp/inboxes/researcher.json', kind: 'ok', messages: 1, invalid: 4 },
    { problem: { file: 'corp/inboxes/researcher.json', kind: 'inbox', message: /^4 entries are not messages and were skipped/ } },
    {
      thread: { team: 'corp', member: 'researcher' },
      texts: ['the one good entry'],
      check: (m) => {
        if (m[0]!.read !== false || 'summary' in m[0]! || 'color' in m[0]!) throw new Error(`ill-typed fields leaked into the reading: ${JSON.stringify(m[0])}`);
      },
    },
    { send: { team: 'corp', to: 'researcher', text: 'after the odd entries' }, accepted: true },
    { thread: { team: 'corp', member: 'researcher' }, texts: ['the one good entry', 'after the odd entries'] },
  ],
  appends: ['corp/inboxes/researcher.json'],
};
