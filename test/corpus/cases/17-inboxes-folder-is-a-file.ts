import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { corp } from '../build.js';
import type { CorpusCase } from '../types.js';

export const corpusCase: CorpusCase = {
  name: 'an inboxes folder that is a file',
  expected: 'the team still lists from its config; a send is refused "the inboxes folder of team corp is not a folder", the file is untouched, other teams fine',
  setup: async (env) => {
    const dir = await corp(env, { inboxes: {} });
    await rm(join(dir, 'inboxes'), { recursive: true });
    await writeFile(join(dir, 'inboxes'), 'someone wrote a file where the folder should be\n');
  },
  expect: [
    { listed: 'corp', present: true },
    { roster: 'corp', names: ['team-lead', 'researcher', 'writer'] },
    { readInbox: 'corp/inboxes/researcher.json', kind: 'error', reason: /ENOTDIR/ },
    { send: { team: 'corp', to: 'researcher', text: 'hello' }, refused: /^the inboxes folder of team corp is not a folder$/ },
  ],
};
