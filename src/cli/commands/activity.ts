import type { MemberActivity, TeamEra } from '../../shared/types.js';
import { noPositionals, requireOpt } from '../args.js';
import type { Command } from '../command.js';
import { duration } from '../format.js';
import { withTeam } from '../service.js';

/** "working · Bash: npm test · 42 s": what the member does, in words, and for how long. */
export function activityLine(a: MemberActivity, now: number, era: TeamEra): string {
  const since = a.since ? duration(now - a.since) : undefined;
  const parts: string[] = [a.kind === 'shut-down' ? 'shut down' : a.kind];
  switch (a.kind) {
    case 'working':
      parts.push(a.tool ? `${a.tool.name}${a.tool.summary ? `: ${a.tool.summary}` : ''}` : 'thinking');
      break;
    case 'waiting':
      parts.push(`for ${a.waitingFor ?? 'an answer'}`);
      if (a.tool) parts.push(`${a.tool.name}${a.tool.summary ? `: ${a.tool.summary}` : ''}`);
      break;
    case 'unknown':
      parts.push(era === 'legacy' ? 'a legacy team: no transcript or sessions file tells' : 'no transcript or sessions file found for it');
      break;
  }
  if (since && a.kind !== 'unknown') parts.push(since);
  return parts.join(' · ');
}

export const activityCommand: Command = {
  name: 'activity',
  summary: 'what every member of a team is doing now (working on which tool, waiting, idle, shut down)',
  usage: 'teamdeck activity --team T',
  help: ['  --team T        team folder name or team name', '  (--json prints the MemberActivity list)'],
  options: { team: { type: 'string' } },
  async run(p, io) {
    noPositionals(p);
    const teamArg = requireOpt(p, 'team');
    return withTeam(p.common, io, teamArg, async (s, team) => {
      const activity = await s.service.activity(team.id);
      if (p.common.json) {
        io.out(JSON.stringify(activity));
        return 0;
      }
      const now = Date.now();
      const width = Math.max(0, ...activity.map((a) => a.member.length));
      for (const a of activity) {
        io.out(`${a.member.padEnd(width)}  ${activityLine(a, now, team.era)}`);
        if (a.lastText && a.kind !== 'unknown') io.out(`${' '.repeat(width)}  last said: ${a.lastText}`);
      }
      if (activity.length === 0) io.out(`No members in ${team.id}.`);
      return 0;
    });
  },
};
