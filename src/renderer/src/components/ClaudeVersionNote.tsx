// The Claude Code version the selected team's lead runs, under the team switcher: quiet when it
// was tested (or newer, with a note saying so), a clear warning with what will not work when it
// is older than Teamdeck supports. The judgement is shared/claude-versions.ts, the same as
// `teamdeck teams` and `teamdeck doctor` use.
import { judgeClaudeVersion } from '../../../shared/claude-versions';
import { useDeck } from '../state/context';
import { teamOf } from '../state/selectors';

export function ClaudeVersionNote() {
  const version = useDeck((s) => teamOf(s, s.selectedTeam)?.claudeVersion);
  if (!version) return null;
  const v = judgeClaudeVersion(version);
  if (v.kind === 'older') {
    return (
      <div
        data-testid="claude-version"
        data-kind="older"
        role="status"
        className="mt-1.5 rounded-md border border-amber-300 bg-amber-50 px-2 py-1.5 text-[11px] leading-snug text-amber-900 dark:border-amber-500/40 dark:bg-amber-500/10 dark:text-amber-200"
      >
        <p className="font-medium">Claude Code {v.version} is older than Teamdeck supports.</p>
        <p className="mt-0.5">May not work: {v.wontWork!.join('; ')}.</p>
        <p className="mt-0.5">Update it with <code className="font-mono">claude update</code>.</p>
      </div>
    );
  }
  return (
    <p data-testid="claude-version" data-kind={v.kind} className="mt-1.5 px-0.5 text-[11px] leading-snug text-zinc-500 dark:text-zinc-400" title={v.words || `Claude Code ${v.version}: tested with Teamdeck`}>
      {v.words || `Claude Code ${v.version}`}
    </p>
  );
}
