import { expect } from 'vitest';
import { TS, corp, message } from '../build.js';
import type { CorpusCase } from '../types.js';

const MEGABYTE = 'x'.repeat(1_048_576);

export const corpusCase: CorpusCase = {
  name: 'a 1 MB single message',
  expected: 'the 1 MB message reads whole (problem "inbox is 1.0 MB"); a send of 65,537 bytes (or 65,538 in 2-byte chars) is refused, 65,536 accepted',
  setup: async (env) => {
    await corp(env, { inboxes: { user: [message('researcher', MEGABYTE, TS)] } });
  },
  expect: [
    { readInbox: 'corp/inboxes/user.json', kind: 'ok', messages: 1, invalid: 0 },
    { problem: { file: 'corp/inboxes/user.json', kind: 'inbox', message: /^inbox is 1\.0 MB/ } },
    {
      thread: { team: 'corp', member: 'researcher' },
      texts: [/^x+$/],
      check: (m) => expect(m[0]!.text).toHaveLength(MEGABYTE.length),
    },
    { send: { team: 'corp', to: 'researcher', text: 'y'.repeat(65_537) }, refused: /^message is 65537 bytes; the limit is 65536$/ },
    { send: { team: 'corp', to: 'researcher', text: '\u00e9'.repeat(32_769) }, refused: /^message is 65538 bytes; the limit is 65536$/ },
    { send: { team: 'corp', to: 'researcher', text: 'z'.repeat(65_536) }, accepted: true },
  ],
};
