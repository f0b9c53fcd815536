import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { corp, teamConfig } from '../build.js';
import type { CorpusCase } from '../types.js';

const LONG = 'x'.repeat(300);
const NAMES = ['../escape', '../../../outside/pwn', 'a/b', 'nul\u0000byte', 'bell\u0007\nnewline', '..', LONG];

export const corpusCase: CorpusCase = {
  name: 'member names with ../, /, NUL, control characters or 300 characters in the config',
  expected:
    'listed as written; a send by exact name lands in the inbox Claude derives (every unsafe char -> "-") inside the team folder; the 300-char name is refused as too long for a file name',
  setup: async (env) => {
    await corp(env, { config: teamConfig('corp', [...NAMES, 'researcher']) });
  },
  expect: [
    { roster: 'corp', names: ['team-lead', ...NAMES, 'researcher'] },
    { send: { team: 'corp', to: '../escape', text: 'm1' }, accepted: true, inbox: 'corp/inboxes/---escape.json' },
    { send: { team: 'corp', to: '../../../outside/pwn', text: 'm2' }, accepted: true, inbox: 'corp/inboxes/---------outside-pwn.json' },
    { send: { team: 'corp', to: 'a/b', text: 'm3' }, accepted: true, inbox: 'corp/inboxes/a-b.json' },
    { send: { team: 'corp', to: 'nul\u0000byte', text: 'm4' }, accepted: true, inbox: 'corp/inboxes/nul-byte.json' },
    { send: { team: 'corp', to: 'bell\u0007\nnewline', text: 'm5' }, accepted: true, inbox: 'corp/inboxes/bell--newline.json' },
    { send: { team: 'corp', to: '..', text: 'm6' }, accepted: true, inbox: 'corp/inboxes/--.json' },
    { send: { team: 'corp', to: LONG, text: 'm7' }, refused: /^refused: member "x{40}"… is too long for an inbox file name \(300 characters; at most 237\)$/ },
  ],
  after: async (env) => {
    expect((await readdir(join(env.root, 'corp', 'inboxes'))).sort()).toEqual(['---------outside-pwn.json', '---escape.json', '--.json', 'a-b.json', 'bell--newline.json', 'nul-byte.json']);
    expect(await readdir(env.root)).toEqual(expect.arrayContaining(['control', 'corp']));
    expect((await readdir(env.root)).length).toBe(2);
  },
};
