import { TS, corp, expectPreserved } from '../build.js';
import type { CorpusCase } from '../types.js';

const BAD_BYTES = Buffer.concat([Buffer.from('[{"from":"team-lead","text":"caf'), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), Buffer.from(`","timestamp":"${TS}","read":false}]`)]);
// An overlong encoding of "/" (C0 AF): a classic way to smuggle a path separator past a lax decoder.
const OVERLONG = Buffer.concat([Buffer.from('[{"from":"team-lead","text":"..'), Buffer.from([0xc0, 0xaf]), Buffer.from(`x","timestamp":"${TS}","read":false}]`)]);

export const corpusCase: CorpusCase = {
  name: 'invalid UTF-8',
  expected: 'problem "unreadable: not valid UTF-8" (also for an overlong "/"), bytes kept; a send to it is queued, file untouched',
  setup: async (env) => {
    await corp(env, { inboxes: { researcher: BAD_BYTES, writer: OVERLONG } });
  },
  expect: [
    { readInbox: 'corp/inboxes/researcher.json', kind: 'corrupt', reason: /not valid UTF-8/ },
    { readInbox: 'corp/inboxes/writer.json', kind: 'corrupt', reason: /not valid UTF-8/ },
    { problem: { file: 'corp/inboxes/researcher.json', kind: 'inbox', message: /^unreadable: not valid UTF-8/ } },
    { problem: { file: 'corp/inboxes/writer.json', kind: 'inbox', message: /^unreadable: not valid UTF-8/ } },
    { send: { team: 'corp', to: 'writer', text: 'hello' }, queued: /unreadable \(not valid UTF-8\); left untouched, bytes kept/ },
  ],
  after: async (env) => {
    await expectPreserved(env, 'corp', BAD_BYTES);
    await expectPreserved(env, 'corp', OVERLONG);
  },
};
