import { useState } from 'react';
import type { TeamProblem } from '../../../shared/types';
import { useDeck } from '../state/context';
import { allProblems } from '../state/selectors';
import { ClockIcon, EyeIcon, GearIcon, WarningIcon } from './icons';

/** One sentence per problem: what is wrong, which file, and that its bytes are safe when they are. */
export function problemText(p: TeamProblem): string {
  const msg = p.message.replace(/[.\s]+$/, '');
  const kept = p.preservedAt ? ` Its bytes were kept at ${p.preservedAt}.` : '';
  switch (p.kind) {
    case 'inbox':
      return `Unreadable inbox ${p.file}: ${msg}.${kept}`;
    case 'config':
      return `Unreadable team config ${p.file}: ${msg}.${kept}`;
    case 'watch':
      return `Watching failed${p.file ? ` for ${p.file}` : ''}: ${msg}. Changes may show late.`;
    case 'journal':
      return `Journal problem ${p.file}: ${msg}.${kept}`;
    case 'prices':
      return `Prices problem: ${msg}.`;
  }
}

export function StatusBar({ onOpenSettings }: { onOpenSettings: () => void }) {
  const root = useDeck((s) => s.teamsRoot);
  const source = useDeck((s) => s.rootSource);
  const phase = useDeck((s) => s.phase);
  const teamCount = useDeck((s) => s.teams.length);
  const endedCount = useDeck((s) => s.teams.filter((t) => t.state === 'ended').length);
  const watching = useDeck((s) => s.watching);
  const queued = useDeck((s) => s.queuedCount);
  const problems = useDeck(allProblems);
  const [open, setOpen] = useState(false);
  const first = problems[0];

  return (
    <footer
      data-testid="status-bar"
      className="relative flex h-7 shrink-0 items-center gap-3 border-t border-zinc-200 bg-zinc-50 px-3 text-[11.5px] text-zinc-600 dark:border-zinc-800 dark:bg-zinc-950 dark:text-zinc-400"
    >
      {phase === 'ready' && (
        <>
          <span className="flex max-w-[40%] min-w-0 shrink-0 items-center gap-1.5" title={`Teams root: ${root} (${source})`}>
            <EyeIcon width={12} height={12} className="shrink-0" />
            <span className="truncate font-mono text-[11px]">{root}</span>
          </span>
          <span data-testid="watch-status" className={`shrink-0 ${watching ? '' : 'font-medium text-amber-700 dark:text-amber-400'}`}>
            {endedCount > 0 ? `${teamCount - endedCount} running · ${endedCount} ended` : `${teamCount} ${teamCount === 1 ? 'team' : 'teams'}`} ·{' '}
            {watching ? 'watching' : 'not watching'}
          </span>
        </>
      )}
      {first && (
        <button
          type="button"
          data-testid="problems"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
          className="flex min-w-0 flex-1 items-center gap-1.5 rounded px-1.5 py-0.5 text-left font-medium text-amber-800 outline-none hover:bg-amber-100 focus-visible:ring-2 focus-visible:ring-amber-500/50 dark:text-amber-300 dark:hover:bg-amber-500/10"
          title={problems.map(problemText).join('\n')}
        >
          <WarningIcon width={12} height={12} className="shrink-0" />
          <span className="truncate">{problemText(first)}</span>
          {problems.length > 1 && <span className="shrink-0">(+{problems.length - 1} more)</span>}
        </button>
      )}
      {!first && <span className="ml-auto" />}
      {queued > 0 && (
        <span
          data-testid="queued-count"
          className="flex shrink-0 items-center gap-1 font-medium text-amber-700 dark:text-amber-400"
          title="Messages Teamdeck holds durably and keeps retrying until their inbox takes them"
        >
          <ClockIcon width={12} height={12} />
          {queued} queued · will retry
        </span>
      )}
      <button
        type="button"
        data-testid="open-settings"
        onClick={onOpenSettings}
        aria-label="Settings"
        title="Settings"
        className="rounded p-1 text-zinc-500 outline-none hover:bg-zinc-200 hover:text-zinc-800 focus-visible:ring-2 focus-visible:ring-indigo-500/50 dark:hover:bg-zinc-800 dark:hover:text-zinc-200"
      >
        <GearIcon width={13} height={13} />
      </button>
      {open && problems.length > 0 && (
        <div
          role="dialog"
          aria-label="Problems"
          className="absolute bottom-8 left-3 z-40 max-h-72 w-[min(640px,calc(100vw-24px))] overflow-y-auto rounded-lg border border-zinc-200 bg-white p-2 shadow-xl dark:border-zinc-700 dark:bg-zinc-900"
        >
          <ul className="space-y-1">
            {problems.map((p) => (
              <li key={`${p.kind}:${p.file}`} data-testid="problem" className="flex gap-2 rounded-md px-2 py-1.5 text-xs text-zinc-700 dark:text-zinc-300">
                <WarningIcon width={13} height={13} className="mt-px shrink-0 text-amber-600 dark:text-amber-400" />
                <span className="break-words">{problemText(p)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </footer>
  );
}
