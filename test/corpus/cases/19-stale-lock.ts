import { lstat, mkdir, utimes } from 'node:fs/promises';
import { expect } from 'vitest';
import { TS, corp, inboxPath, message } from '../build.js';
import type { CorpusCase } from '../types.js';

export const corpusCase: CorpusCase = {
  name: 'a stale lock left by a dead process',
  expected: 'a <inbox>.json.lock folder older than 10 s is taken over (proper-lockfile\'s rule); the send is accepted, old entries kept, the lock released',
  setup: async (env) => {
    await corp(env, { inboxes: { researcher: [message('team-lead', 'before the crash', TS)] } });
    const lock = `${inboxPath(env, 'corp', 'researcher')}.lock`;
    await mkdir(lock);
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
  },
  expect: [{ send: { team: 'corp', to: 'researcher', text: 'after the stale lock' }, accepted: true }],
  after: async (env) => {
    await expect(lstat(`${inboxPath(env, 'corp', 'researcher')}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  },
  appends: ['corp/inboxes/researcher.json'],
  mayRemove: ['corp/inboxes/researcher.json.lock'],
};
