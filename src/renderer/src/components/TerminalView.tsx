// A hosted terminal on its own, for a lead whose session team has not appeared yet (just
// launched) or has ended: what runs there, in which folder and how, above the terminal itself.
import { useActions, useDeck } from '../state/context';
import { teamOfTerminal } from '../state/terminal-state';
import type { TerminalState } from '../../../shared/types';
import { PERMISSION_WORDS } from '../lib/launch';
import { RelTime } from './bits';
import { TerminalIcon } from './icons';
import { TerminalPane } from './LazyTerminalPane';

export const TERMINAL_STATE_WORDS: Record<TerminalState, string> = { starting: 'starting', running: 'running', exited: 'exited' };

export function TerminalView({ id }: { id: string }) {
  const actions = useActions();
  const info = useDeck((s) => s.terminals.find((t) => t.id === id));
  const team = useDeck((s) => {
    const t = s.terminals.find((x) => x.id === id);
    return t ? teamOfTerminal(s, t)?.id : undefined;
  });
  const state = info?.state;
  return (
    <section className="flex min-w-0 flex-1 flex-col" aria-label={`Terminal: ${info?.title ?? id}`} data-testid="terminal-view">
      <header className="view-header">
        <TerminalIcon width={16} height={16} className="shrink-0 text-zinc-500" />
        <div className="view-title">
          <div className="flex min-w-0 items-center gap-2">
            <h1 className="truncate text-[15px] font-semibold text-zinc-950 dark:text-white">{info?.title ?? 'Terminal'}</h1>
            {state && (
              <span
                data-testid="terminal-state"
                className={`rounded px-1 text-[10px] font-medium tracking-wide uppercase ${
                  state === 'running'
                    ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300'
                    : state === 'starting'
                      ? 'bg-amber-100 text-amber-800 dark:bg-amber-500/15 dark:text-amber-300'
                      : 'bg-zinc-200/80 text-zinc-600 dark:bg-zinc-700/70 dark:text-zinc-300'
                }`}
              >
                {TERMINAL_STATE_WORDS[state]}
              </span>
            )}
          </div>
          {info && (
            <div className="mt-0.5 flex min-w-0 items-center gap-1.5 text-xs text-zinc-500 dark:text-zinc-400">
              <span className="min-w-0 truncate" title={info.cwd}>
                cwd <span className="font-mono text-[11px] text-zinc-600 dark:text-zinc-300">{info.cwd}</span>
              </span>
              <span aria-hidden="true">·</span>
              <span className="shrink-0">
                started <RelTime t={info.startedAt} />
              </span>
              {info.permissionMode && (
                <>
                  <span aria-hidden="true">·</span>
                  <span className="shrink-0">{PERMISSION_WORDS[info.permissionMode] ?? info.permissionMode}</span>
                </>
              )}
              <span aria-hidden="true">·</span>
              <span className="shrink-0">{info.backend === 'tmux' ? 'in tmux' : 'in a pty'}</span>
              {!team && state !== 'exited' && (
                <>
                  <span aria-hidden="true">·</span>
                  <span className="shrink-0">its team appears when Claude makes one</span>
                </>
              )}
            </div>
          )}
        </div>
        {team && (
          <button type="button" data-testid="terminal-open-team" className="btn-secondary shrink-0 !px-2.5 !py-1 !text-xs" onClick={() => actions.openTeam(team)}>
            Open {team}
          </button>
        )}
      </header>
      <TerminalPane key={id} id={id} />
    </section>
  );
}
