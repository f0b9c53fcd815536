import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeTeam } from '../../helpers/teams.js';
import { teamConfig } from '../build.js';
import type { CorpusCase } from '../types.js';

const LONG = 't'.repeat(300);

export const corpusCase: CorpusCase = {
  name: 'team names with ../, /, NUL, control characters or 300 characters',
  expected:
    'folders with control chars or a leading dot are not listed and cannot be sent to; a config name "../../outside" is only a label for its own folder; hostile team send targets are refused "no team"',
  setup: async (env) => {
    await writeTeam(env.root, 'ctl\u0007team', { config: teamConfig('ctl\u0007team') });
    await writeTeam(env.root, 'line\nbreak', { config: teamConfig('line\nbreak') });
    await writeTeam(env.root, '.hidden', { config: teamConfig('.hidden') });
    await writeTeam(env.root, 'dotty', { config: teamConfig('../../outside') });
    await mkdir(join(env.root, 'dotty', 'inboxes'));
  },
  expect: [
    { listed: 'dotty', present: true },
    { listed: 'ctl\u0007team', present: false },
    { listed: 'line\nbreak', present: false },
    { listed: '.hidden', present: false },
    { send: { team: 'ctl\u0007team', to: 'researcher', text: 'x' }, refused: /^no team "ctl\\u0007team" in / },
    { send: { team: 'line\nbreak', to: 'researcher', text: 'x' }, refused: /^no team "line\\nbreak" in / },
    { send: { team: '../../outside', to: 'researcher', text: 'to the team labelled ../../outside' }, accepted: true, inbox: 'dotty/inboxes/researcher.json' },
    { send: { team: '..', to: 'researcher', text: 'x' }, refused: /^no team "\.\." in / },
    { send: { team: '../control', to: 'helper', text: 'x' }, refused: /^no team "\.\.\/control" in / },
    { send: { team: '/etc', to: 'researcher', text: 'x' }, refused: /^no team "\/etc" in / },
    { send: { team: 'corp\u0000', to: 'researcher', text: 'x' }, refused: /^no team "corp\\u0000" in / },
    { send: { team: LONG, to: 'researcher', text: 'x' }, refused: /^no team "t{300}" in / },
    { send: { team: '', to: 'researcher', text: 'x' }, refused: /^no team "" in / },
  ],
};
