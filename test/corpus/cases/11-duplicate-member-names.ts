import { readFile } from 'node:fs/promises';
import { expect } from 'vitest';
import { corp, inboxPath, teamConfig } from '../build.js';
import type { CorpusCase } from '../types.js';

export const corpusCase: CorpusCase = {
  name: 'duplicate member names',
  expected: 'tolerant: the first "researcher" wins, problem "members[2]: duplicate member name", one roster entry; a send is written once',
  setup: async (env) => {
    await corp(env, {
      config: teamConfig('corp', [
        { name: 'researcher', agentType: 'general-purpose', color: 'blue' },
        { name: 'researcher', agentType: 'Explore', color: 'red' },
        'writer',
        { name: 'writer', color: 'green' },
      ]),
    });
  },
  expect: [
    { problem: { file: 'corp/config.json', kind: 'config', message: /^members\[2\]: duplicate member name "researcher"; members\[4\]: duplicate member name "writer"$/ } },
    { roster: 'corp', names: ['team-lead', 'researcher', 'writer'] },
    { send: { team: 'corp', to: 'researcher', text: 'only once' }, accepted: true },
  ],
  after: async (ctx) => {
    const roster = await ctx.svc.roster('corp');
    expect(roster.find((m) => m.name === 'researcher')?.color).toBe('blue');
    const entries = JSON.parse(await readFile(inboxPath(ctx, 'corp', 'researcher'), 'utf8')) as unknown[];
    expect(entries).toHaveLength(1);
  },
};
