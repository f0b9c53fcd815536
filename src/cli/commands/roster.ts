import { noPositionals, requireOpt } from '../args.js';
import type { Command } from '../command.js';
import { ago, table } from '../format.js';
import { withTeam } from '../service.js';
import { stateWithActivity } from '../../shared/member-state.js';

export const rosterCommand: Command = {
  name: 'roster',
  summary: "a team's members with their state (active, idle, terminated)",
  usage: 'teamdeck roster --team T',
  help: ['  --team T        team folder name or team name'],
  options: { team: { type: 'string' } },
  async run(p, io) {
    noPositionals(p);
    const teamArg = requireOpt(p, 'team');
    return withTeam(p.common, io, teamArg, async (s, team) => {
      const roster = await s.service.roster(team.id);
      if (p.common.json) {
        io.out(JSON.stringify(roster));
        return 0;
      }
      const now = Date.now();
      // The state the window shows: what the activity line says, where it has evidence.
      const activity = new Map((await s.service.activity(team.id).catch(() => [])).map((a) => [a.member, a]));
      io.out(`${team.name} (${team.id}) in ${s.teamsRoot}\n`);
      io.out(
        table(
          ['MEMBER', 'ROLE', 'STATE', 'LAST EVENT', 'MODEL', 'TYPE', 'COLOR'],
          roster.map((m) => [
            m.name,
            m.isLead ? 'lead' : m.inConfig ? 'member' : 'member (not in config)',
            stateWithActivity(m.state, activity.get(m.name)),
            ago(m.lastEventAt, now),
            m.model ?? '-',
            m.agentType ?? '-',
            m.color ?? '-',
          ]),
        ),
      );
      return 0;
    });
  },
};
