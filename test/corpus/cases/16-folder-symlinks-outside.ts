import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeTeam } from '../../helpers/teams.js';
import { TS, corp, message, teamConfig } from '../build.js';
import type { CorpusCase } from '../types.js';

export const corpusCase: CorpusCase = {
  name: 'an inboxes folder or a team folder that is a symlink pointing outside',
  expected:
    'not followed: nothing outside is listed or read; sends refused "inboxes folder ... is a symbolic link", nothing written or created outside; a symlinked team folder is not a team',
  setup: async (env) => {
    const dir = await corp(env, { inboxes: {} });
    const away = join(env.outside, 'inboxes');
    await mkdir(away);
    await writeFile(join(away, 'researcher.json'), JSON.stringify([message('user', 'secret from outside the root', TS)], null, 2));
    await writeFile(join(away, 'stranger.json'), JSON.stringify([message('stranger', 'also outside', TS)], null, 2));
    await rm(join(dir, 'inboxes'), { recursive: true });
    await symlink(away, join(dir, 'inboxes'));
    const team = join(env.outside, 'team');
    await writeTeam(env.outside, 'team', { config: teamConfig('linked'), inboxes: { researcher: [message('user', 'outside team', TS)] } });
    await symlink(team, join(env.root, 'linked'));
  },
  expect: [
    { roster: 'corp', names: ['team-lead', 'researcher', 'writer'] },
    { thread: { team: 'corp', member: 'researcher' }, texts: [] },
    { readInbox: 'corp/inboxes/researcher.json', kind: 'error', reason: /symbolic link; not followed/ },
    { send: { team: 'corp', to: 'researcher', text: 'through the folder link?' }, refused: /^the inboxes folder of team corp is a symbolic link; refusing to write through it$/ },
    { send: { team: 'corp', to: 'writer', text: 'a new file through the folder link?' }, refused: /^the inboxes folder of team corp is a symbolic link; refusing to write through it$/ },
    { listed: 'linked', present: false },
    { send: { team: 'linked', to: 'researcher', text: 'into the linked team?' }, refused: /^no team "linked" in / },
  ],
};
