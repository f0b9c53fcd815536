import { noPositionals, requireOpt } from '../args.js';
import type { Command } from '../command.js';
import { openService } from '../service.js';
import { actionLine } from './answer.js';

export const interruptCommand: Command = {
  name: 'interrupt',
  summary: "stop a member's turn in flight (the lead: Esc in its terminal; the lead stays alive)",
  usage: 'teamdeck interrupt --team T --member M',
  help: [
    '  --team T        team folder name or team name',
    '  --member M      the member whose turn to stop',
    '',
    "For the lead: Esc in its terminal (the one Teamdeck hosts, or the user's tmux pane), only",
    "while its status line offers \"esc to interrupt\" and no dialog is open. Claude's lead terminal",
    "has no safe key for one in-process teammate's turn: that is refused, saying so.",
    'Exit 0 once the turn was seen to stop; 2, with the reason, when refused (nothing typed).',
  ],
  options: { team: { type: 'string' }, member: { type: 'string' } },
  async run(p, io) {
    noPositionals(p);
    const team = requireOpt(p, 'team');
    const member = requireOpt(p, 'member');
    const s = await openService(p.common, io, { watch: false, readOnly: false, terminals: true });
    try {
      const a = await s.service.interrupt(team, member);
      io.out(p.common.json ? JSON.stringify(a) : actionLine(a));
      return 0;
    } finally {
      await s.close();
    }
  },
};
