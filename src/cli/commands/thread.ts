import { noPositionals, requireOpt } from '../args.js';
import type { Command } from '../command.js';
import { messageJson, messageLine } from '../format.js';
import { withTeam } from '../service.js';

export const threadCommand: Command = {
  name: 'thread',
  summary: 'messages between the user and one member, oldest first',
  usage: 'teamdeck thread --team T --with M',
  help: ['  --team T        team folder name or team name', '  --with M        the member'],
  options: { team: { type: 'string' }, with: { type: 'string' } },
  async run(p, io) {
    noPositionals(p);
    const teamArg = requireOpt(p, 'team');
    const member = requireOpt(p, 'with');
    return withTeam(p.common, io, teamArg, async (s, team) => {
      const messages = await s.service.thread(team.id, member);
      if (p.common.json) {
        io.out(JSON.stringify(messages.map(messageJson)));
        return 0;
      }
      if (messages.length === 0) {
        io.out(`No messages between user and ${member} in ${team.id}.`);
        return 0;
      }
      for (const m of messages) io.out(messageLine(m));
      return 0;
    });
  },
};
