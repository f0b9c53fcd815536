import { requireOpt, stringOpt, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { openService } from '../service.js';
import { CHANNEL_KINDS, type ChannelKind } from '../../shared/types.js';

export const sendCommand: Command = {
  name: 'send',
  summary: 'send the user\'s message to a member (durably: accepted, or queued for retry)',
  usage: 'teamdeck send --team T --to M [--summary S] [--via terminal|inbox|socket] TEXT...   (TEXT "-" reads stdin)',
  help: [
    '  --team T        team folder name or team name',
    '  --to M          the member (or team-lead)',
    '  --summary S     a short preview, as Claude shows it',
    '  --via CHANNEL   terminal: typed into the lead\'s terminal that Teamdeck hosts (as you);',
    '                  inbox: a teammate message as Teamdeck; socket: as another session.',
    '                  Default: the member\'s preferred channel (`teamdeck channels`).',
    '',
    'Prints the message id and "accepted" (it is in the inbox) or "queued" (Teamdeck holds it',
    'and the app or `teamdeck watch` will deliver it). With --json: {"id":"...","status":"..."}.',
    'Exit 0 when accepted or queued, 2 when refused (nothing written: an ended team, a member',
    'that shut down, bad input) or undeliverable, 1 on an internal error.',
    'On current-era teams the message is written as Teamdeck\'s own sender name (`teamdeck`):',
    'Claude rates messages from `user` or `team-lead` written by other processes as forged.',
  ],
  options: { team: { type: 'string' }, to: { type: 'string' }, summary: { type: 'string' }, via: { type: 'string' } },
  positionals: true,
  async run(p, io) {
    const team = requireOpt(p, 'team');
    const to = requireOpt(p, 'to');
    const summary = stringOpt(p, 'summary');
    const via = stringOpt(p, 'via');
    if (via !== undefined && !(CHANNEL_KINDS as readonly string[]).includes(via)) throw new UsageError(`--via must be one of ${CHANNEL_KINDS.join(', ')}`);
    if (p.positionals.length === 0) throw new UsageError('the message TEXT is missing');
    const text = p.positionals.length === 1 && p.positionals[0] === '-' ? await io.readStdin() : p.positionals.join(' ');
    const s = await openService(p.common, io, { watch: false, readOnly: false, terminals: true });
    try {
      const r = await s.service.send({ team, to, text, ...(summary !== undefined ? { summary } : {}), ...(via ? { channel: via as ChannelKind } : {}) });
      if (r.status === 'undeliverable') {
        // Journaled, but the team ended or the member shut down before it could be written.
        if (p.common.json) io.out(JSON.stringify({ id: r.id, status: r.status }));
        io.err(`teamdeck send: undeliverable: ${r.reason ?? 'no one can read it'}`);
        return 2;
      }
      if (p.common.json) {
        io.out(JSON.stringify({ id: r.id, status: r.status }));
        if (r.status === 'queued' && r.reason) io.err(`queued: ${r.reason}`);
      } else if (r.status === 'accepted') {
        io.out(`accepted  ${r.id}  (${via === 'terminal' ? "typed into the lead's terminal" : via === 'socket' ? "sent to the session's socket" : `in ${to}'s inbox`})`);
      } else {
        io.out(`queued    ${r.id}`);
        io.err(`queued: ${r.reason ?? 'the inbox did not admit it yet'}; it is kept in ${s.service.stateDir} and the app or \`teamdeck watch\` will deliver it`);
      }
      return 0;
    } finally {
      await s.close();
    }
  },
};
