import { readFile } from 'node:fs/promises';
import { expect } from 'vitest';
import { TS, corp, inboxPath, message, teamConfig } from '../build.js';
import type { CorpusCase } from '../types.js';

const BOM = '\uFEFF';

export const corpusCase: CorpusCase = {
  name: 'a UTF-8 BOM',
  expected: 'tolerant: inbox and config.json with a BOM read normally, no problem; a send is accepted, every old entry kept, and the BOM dropped so Claude\'s JSON.parse can read the file',
  setup: async (env) => {
    await corp(env, {
      config: BOM + JSON.stringify(teamConfig('corp'), null, 2),
      inboxes: { researcher: BOM + JSON.stringify([message('user', 'note from before', TS)], null, 2) },
    });
  },
  expect: [
    { readInbox: 'corp/inboxes/researcher.json', kind: 'ok', messages: 1, invalid: 0 },
    { noProblem: 'corp/inboxes/researcher.json' },
    { noProblem: 'corp/config.json' },
    { roster: 'corp', names: ['team-lead', 'researcher', 'writer'] },
    { thread: { team: 'corp', member: 'researcher' }, texts: ['note from before'] },
    { send: { team: 'corp', to: 'researcher', text: 'after the BOM' }, accepted: true },
  ],
  after: async (env) => {
    // What Claude does: a plain JSON.parse, which a BOM would break.
    const entries = JSON.parse(await readFile(inboxPath(env, 'corp', 'researcher'), 'utf8')) as Array<{ text: string }>;
    expect(entries.map((e) => e.text)).toEqual(['note from before', 'after the BOM']);
  },
  appends: ['corp/inboxes/researcher.json'],
};
