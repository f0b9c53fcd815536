import { lstat, mkdir, utimes, writeFile } from 'node:fs/promises';
import { expect } from 'vitest';
import { TS, corp, inboxPath, message } from '../build.js';
import type { CorpusCase } from '../types.js';

export const corpusCase: CorpusCase = {
  name: 'a fresh foreign lock (and an old lock file of another kind)',
  expected:
    'a fresh <inbox>.json.lock folder: queued "inbox is locked by another process", the lock is not deleted; an old O_EXCL lock *file*: queued, the file is not deleted either',
  setup: async (env) => {
    await corp(env, { inboxes: { researcher: [message('team-lead', 'r', TS)], writer: [message('team-lead', 'w', TS)] } });
    await mkdir(`${inboxPath(env, 'corp', 'researcher')}.lock`);
    const file = `${inboxPath(env, 'corp', 'writer')}.lock`;
    await writeFile(file, '4242\n');
    const old = new Date(Date.now() - 60_000);
    await utimes(file, old, old);
  },
  expect: [
    { send: { team: 'corp', to: 'researcher', text: 'while someone holds the lock' }, queued: /^inbox is locked by another process \(cannot lock inbox\)$/ },
    { send: { team: 'corp', to: 'writer', text: 'while a lock file is in the way' }, queued: /^cannot lock inbox: ENOTDIR$/ },
  ],
  after: async (env) => {
    expect((await lstat(`${inboxPath(env, 'corp', 'researcher')}.lock`)).isDirectory()).toBe(true);
    expect((await lstat(`${inboxPath(env, 'corp', 'writer')}.lock`)).isFile()).toBe(true);
  },
};
