import { noPositionals, requireOpt } from '../args.js';
import type { Command } from '../command.js';
import { table } from '../format.js';
import { withTeam } from '../service.js';

export const tasksCommand: Command = {
  name: 'tasks',
  summary: "a team's task list as Claude keeps it (pending, in progress, completed; owner; blocked by)",
  usage: 'teamdeck tasks --team T',
  help: ['  --team T        team folder name or team name', '  (--json prints the TaskBoard)'],
  options: { team: { type: 'string' } },
  async run(p, io) {
    noPositionals(p);
    const teamArg = requireOpt(p, 'team');
    return withTeam(p.common, io, teamArg, async (s, team) => {
      const board = await s.service.tasks(team.id);
      if (p.common.json) {
        io.out(JSON.stringify(board));
        return 0;
      }
      if (!board.exists || board.tasks.length === 0) {
        io.out(
          `${board.exists ? 'No tasks in' : 'No task list at'} tasks/${board.list} for ${team.id}. ` +
            "Claude's task tools are off by default (CLAUDE_CODE_ENABLE_TODO_TOOLS=1 turns them on).",
        );
      } else {
        io.out(
          table(
            ['ID', 'STATUS', 'OWNER', 'SUBJECT', 'BLOCKED BY'],
            board.tasks.map((t) => [t.id, t.status === 'in_progress' ? `in progress${t.activeForm ? ` (${t.activeForm})` : ''}` : t.status, t.owner ?? '-', t.subject, t.blockedBy.length ? t.blockedBy.join(', ') : '-']),
          ),
        );
      }
      if (board.problems.length) {
        io.out('\nProblems:');
        for (const pr of board.problems) io.out(`  ${pr.file}: ${pr.message}`);
      }
      return 0;
    });
  },
};
