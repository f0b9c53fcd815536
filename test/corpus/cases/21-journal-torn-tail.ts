import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { userInboxEntry } from '../../../src/engine/claude/inbox-writer.js';
import { TS, corp } from '../build.js';
import type { CaseEnv, CorpusCase } from '../types.js';

const AT = Date.parse(TS);
const HISTORY =
  JSON.stringify({ t: 'queued', id: 'm-1', to: 'researcher', from: 'user', text: 'sent before the crash', timestamp: TS, at: AT }) +
  '\n' +
  JSON.stringify({ t: 'delivered', id: 'm-1', to: 'researcher', at: AT + 5 }) +
  '\n';
const TORN = '{"t":"queued","id":"m-2","to":"resea';
const segment = (env: CaseEnv) => join(env.stateDir, 'journal', 'corp', 'seg-00000000.jsonl');

export const corpusCase: CorpusCase = {
  name: 'a journal with a torn tail',
  expected: `the service starts, problem "recovered from a crash: cut ${TORN.length} bytes", the torn bytes are gone, earlier history intact and shown; sends work`,
  setup: async (env) => {
    await corp(env, { inboxes: { researcher: [userInboxEntry('m-1', 'sent before the crash', TS)] } });
    await mkdir(join(env.stateDir, 'journal', 'corp'), { recursive: true });
    await writeFile(segment(env), HISTORY + TORN);
  },
  expect: [
    { problem: { file: 'journal/corp', kind: 'journal', message: new RegExp(`^recovered from a crash: cut ${TORN.length} bytes of an unfinished journal line$`) } },
    { listed: 'corp', present: true },
    { thread: { team: 'corp', member: 'researcher' }, texts: ['sent before the crash'], check: (m) => expect(m[0]!.status).toBe('accepted') },
    { send: { team: 'corp', to: 'researcher', text: 'after the crash' }, accepted: true },
  ],
  afterStop: async (env) => {
    const text = await readFile(segment(env), 'utf8');
    expect(text.startsWith(HISTORY)).toBe(true);
    expect(text).not.toContain(TORN);
    for (const line of text.trimEnd().split('\n')) JSON.parse(line);
  },
  appends: ['corp/inboxes/researcher.json'],
};
