import { UsageError } from '../args.js';
import type { Command } from '../command.js';
import { openService } from '../service.js';
import type { AnswerChoice, LeadAction } from '../../shared/types.js';

/** One line about what was pressed, for the person at the command line. */
export function actionLine(a: LeadAction): string {
  return `${a.what} · ${a.keys.length} key${a.keys.length === 1 ? '' : 's'} in ${a.where}`;
}

export const answerCommand: Command = {
  name: 'answer',
  summary: "answer a permission prompt from `teamdeck needs` in the lead's terminal (allow, allow always, deny)",
  usage: 'teamdeck answer NEED-ID --allow|--allow-always|--deny [--reason TEXT]',
  help: [
    '  NEED-ID         a permission item\'s id (`teamdeck needs --json`)',
    '  --allow         "Yes", this once',
    '  --allow-always  "Yes, and always allow …" (as the dialog offers it)',
    '  --deny          "No"; with --reason TEXT, typed into Claude\'s "tell Claude what to do',
    '                  differently" input: the asking model gets it after "The user said:"',
    '',
    "Teamdeck reads the lead's screen first (the terminal it hosts, or the user's tmux pane the",
    'lead runs in) and presses keys only when it shows exactly this prompt (tool, command or path,',
    'the member that asks). Exit 0 when the dialog took the answer; 2, with the reason, when',
    'refused (no such item, already answered, the screen shows something else): nothing typed.',
  ],
  options: { allow: { type: 'boolean' }, 'allow-always': { type: 'boolean' }, deny: { type: 'boolean' }, reason: { type: 'string' } },
  positionals: true,
  async run(p, io) {
    if (p.positionals.length !== 1) throw new UsageError('give one NEED-ID (from `teamdeck needs --json`)');
    const choices = (['allow', 'allow-always', 'deny'] as const).filter((c) => p.values[c] === true);
    if (choices.length !== 1) throw new UsageError('give exactly one of --allow, --allow-always, --deny');
    const choice: AnswerChoice = choices[0]!;
    const reason = typeof p.values.reason === 'string' ? p.values.reason : undefined;
    if (reason !== undefined && choice !== 'deny') throw new UsageError('--reason goes only with --deny');
    const s = await openService(p.common, io, { watch: false, readOnly: false, terminals: true });
    try {
      const a = await s.service.answer({ need: p.positionals[0]!, choice, ...(reason !== undefined ? { reason } : {}) });
      io.out(p.common.json ? JSON.stringify(a) : actionLine(a));
      return 0;
    } finally {
      await s.close();
    }
  },
};
