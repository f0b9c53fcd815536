import { provenRangeWords } from '../../shared/claude-versions.js';
import type { DoctorLevel, DoctorReport } from '../../shared/types.js';
import { noPositionals } from '../args.js';
import type { Command } from '../command.js';
import { openService } from '../service.js';

const MARK: Record<DoctorLevel, string> = { ok: 'ok     ', note: 'note   ', warning: 'WARNING', problem: 'PROBLEM' };

/** 1 when a finding is a problem (nothing will work until it is fixed), else 0: scripts can test the exit code. */
export function doctorExitCode(r: Pick<DoctorReport, 'findings'>): number {
  return r.findings.some((f) => f.level === 'problem') ? 1 : 0;
}

export const doctorCommand: Command = {
  name: 'doctor',
  summary: 'check the claude Teamdeck launches and its version, the tested versions, tmux, the folders and the engine; says what to do',
  usage: 'teamdeck doctor',
  help: ['  (--json prints the DoctorReport: claude {path, version, verdict}, provenRange, findings, ...)', '  The running engine answers when there is one, so this says what the app would.', '  Exit 1 when a finding is a problem (a folder that cannot be read or written), else 0.'],
  options: {},
  async run(p, io) {
    noPositionals(p);
    const s = await openService(p.common, io, { watch: false, readOnly: true });
    try {
      const r = await s.service.doctor();
      if (p.common.json) {
        io.out(JSON.stringify(r));
        return doctorExitCode(r);
      }
      const claude = r.claude.path ? `${r.claude.path}${r.claude.version ? `, version ${r.claude.version}` : ''}` : `not found (${r.claude.error ?? 'unknown'})`;
      io.out(`Claude Code: ${claude}`);
      io.out(`Teamdeck was tested with Claude Code ${provenRangeWords()}\n`);
      for (const f of r.findings) {
        io.out(`${MARK[f.level]}  ${f.summary}`);
        if (f.fix) io.out(`         ${f.fix}`);
      }
      return doctorExitCode(r);
    } finally {
      await s.close();
    }
  },
};
