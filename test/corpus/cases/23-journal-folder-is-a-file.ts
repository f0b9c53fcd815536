import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { corp } from '../build.js';
import type { CorpusCase } from '../types.js';

const BYTES = 'not a folder\n';

export const corpusCase: CorpusCase = {
  name: 'a journal folder that is a file',
  expected: 'the service still starts and serves the other teams; problem on journal/corp; sends to corp are refused naming it; the file is untouched',
  setup: async (env) => {
    await corp(env);
    await mkdir(join(env.stateDir, 'journal'), { recursive: true });
    await writeFile(join(env.stateDir, 'journal', 'corp'), BYTES);
  },
  expect: [
    { problem: { file: 'journal/corp', kind: 'journal', message: /EEXIST|ENOTDIR/ } },
    { listed: 'corp', present: false },
    { send: { team: 'corp', to: 'researcher', text: 'hello' }, refused: /^team corp is unavailable: .*(EEXIST|ENOTDIR)/ },
  ],
  afterStop: async (env) => {
    expect(await readFile(join(env.stateDir, 'journal', 'corp'), 'utf8')).toBe(BYTES);
  },
};
