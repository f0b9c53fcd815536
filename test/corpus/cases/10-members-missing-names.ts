import { corp, teamConfig } from '../build.js';
import type { CorpusCase } from '../types.js';

export const corpusCase: CorpusCase = {
  name: 'a config with members missing names',
  expected: 'tolerant: nameless, empty, numeric and non-object members are skipped with a config problem naming members[i]; the rest of the team works',
  setup: async (env) => {
    const config = teamConfig('corp', [{ agentType: 'general-purpose', model: 'sonnet' }, { name: '' }, { name: 7 }, { name: null }, 'researcher', 'not an object']);
    config.members[6] = 'not an object' as never;
    await corp(env, { config });
  },
  expect: [
    { problem: { file: 'corp/config.json', kind: 'config', message: /^members\[1\]: name .*; members\[2\]: name .*; members\[3\]: name .*; members\[4\]: name .*; members\[6\]: entry / } },
    { roster: 'corp', names: ['team-lead', 'researcher'] },
    { send: { team: 'corp', to: 'researcher', text: 'hello' }, accepted: true },
    { send: { team: 'corp', to: '', text: 'hello' }, refused: /^no recipient/ },
    { send: { team: 'corp', to: '7', text: 'hello' }, refused: /^team corp has no member "7"$/ },
    { send: { team: 'corp', to: 'null', text: 'hello' }, refused: /^team corp has no member "null"$/ },
  ],
};
