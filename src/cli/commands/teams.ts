import { noPositionals } from '../args.js';
import type { Command } from '../command.js';
import { ago, table } from '../format.js';
import { openService } from '../service.js';
import { judgeClaudeVersion } from '../../shared/claude-versions.js';

/** The version, marked when it is outside the tested range (`*` newer, `!` older). */
function claudeColumn(version: string | undefined): string {
  if (!version) return '-';
  const kind = judgeClaudeVersion(version).kind;
  return kind === 'newer' ? `${version}*` : kind === 'older' ? `${version}!` : version;
}

export const teamsCommand: Command = {
  name: 'teams',
  summary: 'list the teams (running, and ended ones Teamdeck remembers), with member counts and problems',
  usage: 'teamdeck teams',
  help: ['  CLAUDE is the Claude Code version the lead runs: * newer than Teamdeck was tested with, ! older than it supports'],
  options: {},
  async run(p, io) {
    noPositionals(p);
    const s = await openService(p.common, io, { watch: false, readOnly: true });
    try {
      const teams = await s.service.listTeams();
      if (p.common.json) {
        io.out(JSON.stringify(teams));
        return 0;
      }
      if (teams.length === 0) {
        io.out(`No teams in ${s.teamsRoot} (${s.rootSource}).`);
        // The usual reason on a first try: the window runs on another folder (npm start's demo).
        const { runningEngines } = await import('../../engine/socket/registry.js');
        const others = (await runningEngines()).filter((e) => e.teamsRoot !== s.teamsRoot);
        for (const e of others) io.out(`Teamdeck (pid ${e.pid}) is serving ${e.teamsRoot}: npx teamdeck teams --teams-dir ${e.teamsRoot}`);
        return 0;
      }
      io.out(`Teams in ${s.teamsRoot} (${s.rootSource})\n`);
      io.out(
        table(
          ['TEAM', 'NAME', 'ERA', 'STATE', 'MEMBERS', 'PROBLEMS', 'CLAUDE'],
          teams.map((t) => [
            t.id,
            t.name,
            t.era,
            t.state === 'ended' ? `ended ${ago(t.endedAt)}` : 'running',
            String(t.memberCount),
            t.problems.length ? String(t.problems.length) : '-',
            claudeColumn(t.claudeVersion),
          ]),
        ),
      );
      const versions = teams.map((t) => (t.state === 'running' && t.claudeVersion ? judgeClaudeVersion(t.claudeVersion) : undefined)).filter((v) => v && v.words);
      if (versions.length) {
        io.out('\nClaude Code versions:');
        for (const v of new Set(versions.map((x) => x!.words))) io.out(`  ${v}`);
      }
      const problems = teams.flatMap((t) => t.problems);
      if (problems.length) {
        io.out('\nProblems:');
        for (const pr of problems) io.out(`  ${pr.file}: ${pr.message}${pr.preservedAt ? ` (copy kept at ${pr.preservedAt})` : ''}`);
      }
      return 0;
    } finally {
      await s.close();
    }
  },
};
