import type { ReactNode } from 'react';
import { useActions, useDeck } from '../state/context';
import { currentEntry, isTeamEnded } from '../state/selectors';
import { PresenceDot, RelTime, STATE_LABEL, STATE_TEXT, useLastSeen, useMemberState } from './bits';
import { FeedIcon } from './icons';

export function MemberHeader({ team, member }: { team: string; member: string }) {
  const { openFeed } = useActions();
  const entry = useDeck(currentEntry);
  const state = useMemberState(team, entry);
  const teamEnded = useDeck((s) => isTeamEnded(s, team));
  const seen = useLastSeen(entry?.lastEventAt);
  const kind = [entry?.model, entry?.agentType].filter(Boolean).join(' · ');
  const meta: ReactNode[] = [];
  if (entry?.cwd)
    meta.push(
      <span className="min-w-0 truncate" title={entry.cwd}>
        cwd <span className="font-mono text-[11px] text-zinc-600 dark:text-zinc-300">{entry.cwd}</span>
      </span>,
    );
  if (entry?.joinedAt)
    meta.push(
      <span>
        joined <RelTime t={entry.joinedAt} />
      </span>,
    );
  meta.push(<span>{seen}</span>);
  if (entry && !entry.inConfig) meta.push(<span>{state === 'terminated' ? 'removed from the team config' : 'not in the team config'}</span>);
  return (
    <header data-testid="member-header" className="flex items-center gap-3 border-b border-zinc-200 px-5 py-2.5 dark:border-zinc-800">
      <div className="min-w-0 flex-1">
        <div className="flex min-w-0 items-center gap-2">
          <h1 className="truncate text-[15px] font-semibold text-zinc-950 dark:text-white">{member}</h1>
          {entry?.isLead && (
            <span className="rounded bg-zinc-200/80 px-1 text-[10px] font-medium tracking-wide text-zinc-600 uppercase dark:bg-zinc-700/70 dark:text-zinc-300">
              lead
            </span>
          )}
          <span className="flex items-center gap-1.5" title={seen}>
            <PresenceDot name={member} state={state} testid="header-dot" />
            <span className={`text-xs font-medium ${STATE_TEXT[state]}`}>{teamEnded ? 'Team ended' : STATE_LABEL[state]}</span>
          </span>
          {kind && <span className="truncate text-xs text-zinc-500 dark:text-zinc-400">· {kind}</span>}
        </div>
        <div className="mt-0.5 flex min-w-0 items-center gap-1.5 text-xs text-zinc-500 dark:text-zinc-400">
          {meta.map((part, i) => (
            <span key={i} className={`flex items-center gap-1.5 ${i === 0 && entry?.cwd ? 'min-w-0' : 'shrink-0'}`}>
              {i > 0 && <span aria-hidden="true">·</span>}
              {part}
            </span>
          ))}
        </div>
      </div>
      <button
        type="button"
        data-testid="feed-button"
        onClick={() => openFeed(true)}
        title={`Every message in ${team}`}
        className="inline-flex shrink-0 items-center gap-1.5 rounded-md border border-zinc-200 px-2.5 py-1 text-xs font-medium text-zinc-700 outline-none hover:bg-zinc-100 focus-visible:ring-2 focus-visible:ring-indigo-500/50 dark:border-zinc-700 dark:text-zinc-200 dark:hover:bg-zinc-800"
      >
        <FeedIcon width={12} height={12} />
        Feed
      </button>
    </header>
  );
}
