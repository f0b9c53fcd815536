import { noPositionals, stringOpt } from '../args.js';
import type { Command } from '../command.js';
import { messageJson, messageLine } from '../format.js';
import { findTeam, openService } from '../service.js';

export const tailCommand: Command = {
  name: 'tail',
  summary: 'print every new message in any inbox of a team as it appears, until Ctrl-C',
  usage: 'teamdeck tail [--team T]',
  help: ['  --team T        team folder name or team name (default: every team)'],
  options: { team: { type: 'string' } },
  async run(p, io) {
    noPositionals(p);
    const teamArg = stringOpt(p, 'team');
    const s = await openService(p.common, io, { watch: true, readOnly: true });
    try {
      const team = teamArg === undefined ? undefined : await findTeam(s.service, teamArg);
      const off = s.service.onEvent((e) => {
        if (e.type !== 'message' || (team && e.team !== team.id)) return;
        io.out(p.common.json ? JSON.stringify(messageJson(e.message)) : messageLine(e.message, { team: team ? undefined : e.team }));
      });
      io.err(`tailing ${team ? `team ${team.id}` : 'every team'} in ${s.teamsRoot}; Ctrl-C to stop`);
      const how = await io.untilStopped(s.lost);
      off();
      if (how === 'cancelled') {
        io.err(`teamdeck tail: the engine (pid ${s.remote?.pid}) that owns the state dir stopped`);
        return 1;
      }
      return 0;
    } finally {
      await s.close();
    }
  },
};
