// `teamdeck import-status`: how far the reading of agent teams found in Claude's transcripts has
// got (docs/claude-contract.md#record). Through a running engine, its background import; without
// one, the command's own engine reads them all before it answers, so it says what it read.
import { noPositionals } from '../args.js';
import type { Command } from '../command.js';
import { openService } from '../service.js';

const MB = 1024 * 1024;

export const importStatusCommand: Command = {
  name: 'import-status',
  summary: "how far the reading of teams found in Claude's transcripts has got",
  usage: 'teamdeck import-status',
  help: ['  (--json prints {running, filesDone, filesTotal, bytesDone, bytesTotal, teamsFound, bytesRead, ms})'],
  options: {},
  async run(p, io) {
    noPositionals(p);
    const s = await openService(p.common, io, { watch: false, readOnly: true });
    try {
      const st = await s.service.importStatus();
      if (p.common.json) {
        io.out(JSON.stringify(st));
        return 0;
      }
      const mb = (n: number) => (n / MB).toFixed(1);
      io.out(
        `${st.running ? 'Reading' : 'Read'} ${st.teamsFound} team${st.teamsFound === 1 ? '' : 's'} found in Claude's transcripts: ${st.filesDone} of ${st.filesTotal} files, ${mb(st.bytesDone)} of ${mb(st.bytesTotal)} MB.`,
      );
      return 0;
    } finally {
      await s.close();
    }
  },
};
