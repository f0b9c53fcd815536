import { memo } from 'react';
import type { RosterEntry } from '../../../shared/types';
import { useActions, useDeck } from '../state/context';
import { EMPTY_ROSTER, isTeamEnded, orderedRoster } from '../state/selectors';
import { ActivityLine } from './ActivityLine';
import { PresenceDot, useLastSeen, useMemberState } from './bits';
import { BoardIcon, FeedIcon, PulseIcon } from './icons';
import { memberSpend } from '../state/usage-slice';

const MemberRow = memo(function MemberRow({ team, entry, selected, ended }: { team: string; entry: RosterEntry; selected: boolean; ended: boolean }) {
  const { openMember } = useActions();
  const state = useMemberState(team, entry);
  const seen = useLastSeen(entry.lastEventAt);
  const unread = useDeck((s) => s.byTeam[team]?.unread[entry.name] ?? 0);
  const spend = useDeck((s) => memberSpend(s.usage.teams[team], entry.name));
  const tooltip = [
    `${entry.name}: ${state}`,
    ended ? 'the team has ended' : undefined,
    seen,
    entry.inConfig ? undefined : state === 'terminated' ? 'removed from the team config' : 'not in the team config',
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <li>
      <button
        type="button"
        data-testid={`member-${entry.name}`}
        data-selected={selected || undefined}
        aria-current={selected ? 'page' : undefined}
        title={tooltip}
        onClick={() => openMember(team, entry.name)}
        className={`group flex w-full items-start gap-2.5 rounded-md px-2.5 py-1.5 text-left outline-none focus-visible:ring-2 focus-visible:ring-indigo-500/50 ${
          selected
            ? 'bg-indigo-50 text-zinc-950 dark:bg-indigo-500/15 dark:text-white'
            : 'text-zinc-700 hover:bg-zinc-200/60 dark:text-zinc-300 dark:hover:bg-zinc-800'
        }`}
      >
        <span className="mt-[5px] flex">
          <PresenceDot name={entry.name} state={state} title={`${state} · ${seen}`} />
        </span>
        <span className="flex min-w-0 flex-1 flex-col">
          <span className="flex min-w-0 items-center gap-2.5">
            <span className={`min-w-0 truncate ${unread ? 'font-semibold' : ''} ${entry.inConfig ? '' : 'italic'} ${state === 'terminated' ? 'text-zinc-500 dark:text-zinc-500' : ''}`}>
              {entry.name}
            </span>
            {entry.isLead && (
              <span className="rounded bg-zinc-200/80 px-1 text-[10px] font-medium tracking-wide text-zinc-600 uppercase dark:bg-zinc-700/70 dark:text-zinc-300">
                lead
              </span>
            )}
            {/* In an ended team everyone is gone: the team's own line says so once, not every row. */}
            {state === 'terminated' && !ended && <span className="text-[11px] text-zinc-500 dark:text-zinc-500">Terminated</span>}
            {spend && (
              <span data-testid={`spend-${entry.name}`} title="What its replies cost (the Usage view has the detail)" className="ml-auto shrink-0 text-[11px] text-zinc-500 tabular-nums dark:text-zinc-400">
                {spend}
              </span>
            )}
          </span>
          {!ended && <ActivityLine team={team} member={entry.name} short />}
        </span>
        {unread > 0 && (
          <span
            data-testid={`unread-${entry.name}`}
            aria-label={`${unread} unread`}
            className="ml-auto min-w-[18px] rounded-full bg-indigo-600 px-1.5 text-center text-[11px] leading-[18px] font-semibold text-white dark:bg-indigo-500"
          >
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
    </li>
  );
});

export function Roster() {
  const { openFeed, openTasks } = useActions();
  const team = useDeck((s) => s.selectedTeam);
  const roster = useDeck((s) => orderedRoster((team && s.byTeam[team]?.roster) || EMPTY_ROSTER));
  const loaded = useDeck((s) => !!(team && s.byTeam[team]?.roster));
  const error = useDeck((s) => (team ? s.byTeam[team]?.rosterError : undefined));
  const selected = useDeck((s) => (team && s.view === 'thread' ? s.memberByTeam[team] : undefined));
  const feedOpen = useDeck((s) => s.view === 'feed');
  const tasksOpen = useDeck((s) => s.view === 'tasks');
  const usageOpen = useDeck((s) => s.view === 'usage');
  const { openUsage } = useActions();
  const ended = useDeck((s) => isTeamEnded(s, team));
  if (!team) return null;
  return (
    <nav aria-label="Team members" className="min-h-0 flex-1 overflow-y-auto px-2 pb-2">
      <button
        type="button"
        data-testid="open-feed"
        onClick={() => openFeed(!feedOpen)}
        aria-current={feedOpen ? 'page' : undefined}
        className={`mb-2 flex w-full items-center gap-2.5 rounded-md px-2.5 py-1.5 text-left outline-none focus-visible:ring-2 focus-visible:ring-indigo-500/50 ${
          feedOpen ? 'bg-indigo-50 dark:bg-indigo-500/15 dark:text-white' : 'text-zinc-700 hover:bg-zinc-200/60 dark:text-zinc-300 dark:hover:bg-zinc-800'
        }`}
      >
        <FeedIcon className="text-zinc-500" />
        Team feed
      </button>
      <button
        type="button"
        data-testid="open-tasks"
        onClick={() => openTasks(!tasksOpen)}
        aria-current={tasksOpen ? 'page' : undefined}
        className={`-mt-1.5 mb-2 flex w-full items-center gap-2.5 rounded-md px-2.5 py-1.5 text-left outline-none focus-visible:ring-2 focus-visible:ring-indigo-500/50 ${
          tasksOpen ? 'bg-indigo-50 dark:bg-indigo-500/15 dark:text-white' : 'text-zinc-700 hover:bg-zinc-200/60 dark:text-zinc-300 dark:hover:bg-zinc-800'
        }`}
      >
        <BoardIcon className="text-zinc-500" />
        Tasks
      </button>
      <button
        type="button"
        data-testid="open-usage"
        onClick={() => openUsage(!usageOpen)}
        aria-current={usageOpen ? 'page' : undefined}
        className={`-mt-1.5 mb-2 flex w-full items-center gap-2.5 rounded-md px-2.5 py-1.5 text-left outline-none focus-visible:ring-2 focus-visible:ring-indigo-500/50 ${
          usageOpen ? 'bg-indigo-50 dark:bg-indigo-500/15 dark:text-white' : 'text-zinc-700 hover:bg-zinc-200/60 dark:text-zinc-300 dark:hover:bg-zinc-800'
        }`}
      >
        <PulseIcon className="text-zinc-500" />
        Usage
      </button>
      <div className="flex items-baseline justify-between px-2.5 pb-1 text-[11px] font-medium tracking-wide text-zinc-500 uppercase dark:text-zinc-400">
        <span>Members</span>
        {loaded && <span className="tabular-nums">{roster.length}</span>}
      </div>
      {error && <p className="px-2.5 py-1 text-xs text-red-600 dark:text-red-400">Could not load members: {error}</p>}
      {!loaded && !error && <p className="px-2.5 py-1 text-xs text-zinc-500">Loading members…</p>}
      <ul className="space-y-px">
        {roster.map((entry) => (
          <MemberRow key={entry.name} team={team} entry={entry} selected={entry.name === selected} ended={ended} />
        ))}
      </ul>
    </nav>
  );
}
