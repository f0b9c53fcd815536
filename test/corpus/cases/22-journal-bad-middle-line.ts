import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { TS, corp } from '../build.js';
import type { CaseEnv, CorpusCase } from '../types.js';

const AT = Date.parse(TS);
const JOURNAL =
  JSON.stringify({ t: 'queued', id: 'm-1', to: 'researcher', from: 'user', text: 'first', timestamp: TS, at: AT }) +
  '\n' +
  'this line is not JSON\n' +
  JSON.stringify({ t: 'delivered', id: 'm-1', to: 'researcher', at: AT + 5 }) +
  '\n';
// Also bad in the middle, and its last line has no newline: refusing it must not "repair" the tail first.
const JOURNAL_TORN = JOURNAL + '{"t":"queued","id":"m-9"';
const segment = (env: CaseEnv, team: string) => join(env.stateDir, 'journal', team, 'seg-00000000.jsonl');

export const corpusCase: CorpusCase = {
  name: 'a journal with a bad middle line',
  expected:
    'the team is held back with problem "seg-00000000.jsonl:2: malformed journal line", sends to it are refused naming that problem, the journal is not modified (even with a torn tail), other teams work',
  setup: async (env) => {
    await corp(env);
    await corp(env, {}, 'corp2');
    await mkdir(join(env.stateDir, 'journal', 'corp'), { recursive: true });
    await mkdir(join(env.stateDir, 'journal', 'corp2'), { recursive: true });
    await writeFile(segment(env, 'corp'), JOURNAL);
    await writeFile(segment(env, 'corp2'), JOURNAL_TORN);
  },
  expect: [
    { problem: { file: 'journal/corp', kind: 'journal', message: /seg-00000000\.jsonl:2: malformed journal line \(/ } },
    { problem: { file: 'journal/corp2', kind: 'journal', message: /seg-00000000\.jsonl:2: malformed journal line \(/ } },
    { listed: 'corp', present: false },
    { send: { team: 'corp', to: 'researcher', text: 'hello' }, refused: /^team corp is unavailable: .*seg-00000000\.jsonl:2: malformed journal line/ },
    { send: { team: 'corp2', to: 'researcher', text: 'hello' }, refused: /^team corp2 is unavailable: .*seg-00000000\.jsonl:2: malformed journal line/ },
  ],
  afterStop: async (env) => {
    expect(await readFile(segment(env, 'corp'), 'utf8')).toBe(JOURNAL);
    expect(await readFile(segment(env, 'corp2'), 'utf8')).toBe(JOURNAL_TORN);
  },
};
