import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TS, corp, inboxPath, message } from '../build.js';
import type { CorpusCase } from '../types.js';

export const corpusCase: CorpusCase = {
  name: 'an inbox that is a symlink pointing outside the teams root',
  expected: 'not followed: problem "is a symbolic link; not followed", nothing from outside is shown; sends refused "symbolic link", nothing written through (dangling links too)',
  setup: async (env) => {
    await corp(env, { inboxes: {} });
    const victim = join(env.outside, 'victim.json');
    await writeFile(victim, JSON.stringify([message('researcher', 'secret from outside the root', TS)], null, 2));
    await symlink(victim, inboxPath(env, 'corp', 'researcher'));
    await symlink(victim, inboxPath(env, 'corp', 'user'));
    // Dangling: a write through it would create a file outside.
    await symlink(join(env.outside, 'created-through-link.json'), inboxPath(env, 'corp', 'writer'));
  },
  expect: [
    { readInbox: 'corp/inboxes/researcher.json', kind: 'error', reason: /symbolic link; not followed/ },
    { readInbox: 'corp/inboxes/writer.json', kind: 'error', reason: /symbolic link; not followed/ },
    { problem: { file: 'corp/inboxes/researcher.json', kind: 'inbox', message: /^is a symbolic link; not followed$/ } },
    { problem: { file: 'corp/inboxes/user.json', kind: 'inbox', message: /^is a symbolic link; not followed$/ } },
    { thread: { team: 'corp', member: 'researcher' }, texts: [] },
    { send: { team: 'corp', to: 'researcher', text: 'through the link?' }, refused: /^inbox of researcher is a symbolic link; refusing to write through it$/ },
    { send: { team: 'corp', to: 'writer', text: 'through the dangling link?' }, refused: /^inbox of writer is a symbolic link; refusing to write through it$/ },
  ],
};
