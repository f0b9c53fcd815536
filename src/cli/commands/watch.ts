import { noPositionals, stringOpt } from '../args.js';
import type { Command } from '../command.js';
import { localTime } from '../format.js';
import { findTeam, openService } from '../service.js';

export const watchCommand: Command = {
  name: 'watch',
  summary: 'run the engine (history, retries of queued messages) and print delivery events, until Ctrl-C',
  usage: 'teamdeck watch [--team T]',
  help: [
    '  --team T        only print events of this team (the engine still serves every team)',
    '',
    'While it runs, other teamdeck commands on the same state dir (send, thread, roster, teams,',
    'tail) go through this engine over its socket in the state dir.',
  ],
  options: { team: { type: 'string' } },
  async run(p, io) {
    noPositionals(p);
    const teamArg = stringOpt(p, 'team');
    const s = await openService(p.common, io, { watch: true, readOnly: false, owner: true, terminals: true, rootMayBeMissing: true });
    let socket: { close(): Promise<void> } | undefined;
    try {
      // Other commands (`teamdeck send` from a script) reach this engine through its socket.
      const { serveEngineSocket } = await import('../../engine/socket/server.js');
      socket = await serveEngineSocket(s.service).catch((e: Error) => {
        io.err(`note: other teamdeck commands cannot reach this engine: ${e.message}`);
        return undefined;
      });
      const team = teamArg === undefined ? undefined : await findTeam(s.service, teamArg);
      const stamp = () => localTime(new Date().toISOString());
      const off = s.service.onEvent((e) => {
        if (e.type === 'delivery') {
          if (team && e.team !== team.id) return;
          io.out(p.common.json ? JSON.stringify(e) : `${stamp()}  ${e.team}  ${e.to}  ${e.id}  ${e.status}${e.reason ? `  (${e.reason})` : ''}`);
        } else if (e.type === 'problem') {
          io.out(p.common.json ? JSON.stringify(e) : `${stamp()}  problem  ${e.problem.file}: ${e.problem.message}`);
        } else if (e.type === 'import-status') {
          const st = e.status;
          io.out(p.common.json ? JSON.stringify(e) : `${stamp()}  import  ${st.filesDone}/${st.filesTotal} files of ${st.teamsFound} teams found in transcripts${st.running ? '' : ', done'}`);
        } else if (e.type === 'queued-count') {
          io.out(p.common.json ? JSON.stringify(e) : `${stamp()}  queued  ${e.count} message${e.count === 1 ? '' : 's'} waiting`);
        }
      });
      const queued = s.service.queuedCount();
      io.err(
        `watching ${team ? `team ${team.id} in ` : ''}${s.teamsRoot} with state in ${s.service.stateDir}; ${queued} message${queued === 1 ? '' : 's'} queued; Ctrl-C to stop`,
      );
      await io.untilStopped();
      off();
      return 0;
    } finally {
      await socket?.close();
      await s.close();
    }
  },
};
