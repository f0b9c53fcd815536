import type { KeyboardEvent, ReactNode } from 'react';
import { modKey } from '../lib/platform';
import { useActions, useDeck } from '../state/context';
import { currentEntry, isTeamEnded, openTaskCount } from '../state/selectors';
import { hasTerminalTab, shownPane, type ShownPane } from '../state/terminal-state';
import { ActivityLine } from './ActivityLine';
import { StopButton } from './StopButton';
import { ExportMenu } from './ExportMenu';
import { PresenceDot, RelTime, STATE_LABEL, STATE_TEXT, useLastSeen, useMemberState } from './bits';
import { BoardIcon, FeedIcon } from './icons';

const HEADER_BUTTON =
  'inline-flex shrink-0 items-center gap-1.5 rounded-md border border-zinc-200 px-2.5 py-1 text-xs font-medium text-zinc-700 outline-none hover:bg-zinc-100 focus-visible:ring-2 focus-visible:ring-indigo-500/50 dark:border-zinc-700 dark:text-zinc-200 dark:hover:bg-zinc-800';

/**
 * Thread | Activity: the member's messages with the user, or its transcript as a timeline; for
 * the lead of a team Teamdeck launched, also its Terminal (the choice is kept per team).
 * Arrow keys move between the tabs.
 */
function PaneToggle({ team, member }: { team: string; member: string }) {
  const { setPane, setLeadTerminal } = useActions();
  const pane = useDeck((s) => shownPane(s, team, member));
  const withTerminal = useDeck((s) => hasTerminalTab(s, team, member));
  const tabs: [ShownPane, string][] = [
    ['thread', 'Thread'],
    ['activity', 'Activity'],
    ...(withTerminal ? ([['terminal', 'Terminal']] as [ShownPane, string][]) : []),
  ];
  const choose = (value: ShownPane) => (value === 'terminal' ? setLeadTerminal(team, true) : setPane(value));
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    const at = tabs.findIndex(([v]) => v === pane);
    const next = tabs[(at + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length]![0];
    choose(next);
    requestAnimationFrame(() => document.querySelector<HTMLButtonElement>(`[data-testid="pane-${next}"]`)?.focus());
  };
  const tab = (value: ShownPane, label: string) => (
    <button
      key={value}
      type="button"
      role="tab"
      aria-selected={pane === value}
      tabIndex={pane === value ? 0 : -1}
      data-testid={`pane-${value}`}
      onClick={() => choose(value)}
      className={`rounded px-2 py-0.5 text-xs font-medium outline-none focus-visible:ring-2 focus-visible:ring-indigo-500/50 ${
        pane === value
          ? 'bg-white text-zinc-900 shadow-xs dark:bg-zinc-700 dark:text-white'
          : 'text-zinc-500 hover:text-zinc-800 dark:text-zinc-400 dark:hover:text-zinc-200'
      }`}
    >
      {label}
    </button>
  );
  return (
    <div
      role="tablist"
      aria-label={withTerminal ? `${member}: thread, activity or terminal` : `${member}: thread or activity`}
      title={`${modKey()}+Shift+A switches to Activity · ← → move between tabs`}
      onKeyDown={onKeyDown}
      className="flex shrink-0 items-center gap-0.5 rounded-md bg-zinc-100 p-0.5 dark:bg-zinc-800"
    >
      {tabs.map(([value, label]) => tab(value, label))}
    </div>
  );
}

export function MemberHeader({ team, member }: { team: string; member: string }) {
  const { openFeed, openTasks } = useActions();
  const openTasksCount = useDeck((s) => openTaskCount(s.byTeam[team]?.tasks));
  const entry = useDeck(currentEntry);
  const state = useMemberState(team, entry);
  const teamEnded = useDeck((s) => isTeamEnded(s, team));
  const seen = useLastSeen(entry?.lastEventAt);
  // The lead's agent type is its name ("team-lead · team-lead" said nothing twice).
  const kind = [entry?.model, entry?.agentType !== member ? entry?.agentType : undefined].filter(Boolean).join(' · ');
  const meta: ReactNode[] = [];
  if (entry?.joinedAt)
    meta.push(
      <span>
        joined <RelTime t={entry.joinedAt} />
      </span>,
    );
  meta.push(<span>{seen}</span>);
  if (entry && !entry.inConfig) meta.push(<span>{state === 'terminated' ? 'removed from the team config' : 'not in the team config'}</span>);
  // Last: the one fact long enough to be cut, and then it is cut at its end, with the rest in full.
  if (entry?.cwd)
    meta.push(
      <span title={entry.cwd}>
        cwd <span className="font-mono text-[11px] text-zinc-600 dark:text-zinc-300">{entry.cwd}</span>
      </span>,
    );
  return (
    <header data-testid="member-header" className="view-header">
      <div className="view-title">
        <div className="flex min-w-0 items-center gap-2">
          <h1 className="max-w-full shrink-0 truncate text-[15px] font-semibold text-zinc-950 dark:text-white">{member}</h1>
          {entry?.isLead && (
            <span className="rounded bg-zinc-200/80 px-1 text-[10px] font-medium tracking-wide text-zinc-600 uppercase dark:bg-zinc-700/70 dark:text-zinc-300">
              lead
            </span>
          )}
          <span className="flex shrink-0 items-center gap-1.5" title={seen}>
            <PresenceDot name={member} state={state} testid="header-dot" />
            <span className={`text-xs font-medium ${STATE_TEXT[state]}`}>{teamEnded ? 'Team ended' : STATE_LABEL[state]}</span>
          </span>
          {kind && <span className="min-w-0 truncate text-xs text-zinc-500 dark:text-zinc-400">· {kind}</span>}
        </div>
        <div className="mt-0.5 flex min-w-0 items-center gap-2">
          {/* The activity keeps its words (up to most of the row); Stop's reason gives way first. */}
          <div className="min-w-0 max-w-[70%] shrink-0">
            <ActivityLine team={team} member={member} />
          </div>
          <StopButton team={team} member={member} />
        </div>
        <div data-testid="member-meta" className="dot-list mt-0.5 text-xs text-zinc-500 dark:text-zinc-400">
          <div className="dot-list-items">
            {meta.map((part, i) => (
              <span key={i}>{part}</span>
            ))}
          </div>
        </div>
      </div>
      <PaneToggle team={team} member={member} />
      <button type="button" data-testid="feed-button" onClick={() => openFeed(true)} title={`Every message in ${team}`} className={HEADER_BUTTON}>
        <FeedIcon width={12} height={12} />
        Feed
      </button>
      <button type="button" data-testid="tasks-button" onClick={() => openTasks(true)} title={`The task board of ${team}`} className={HEADER_BUTTON}>
        <BoardIcon width={12} height={12} />
        Tasks
        {openTasksCount > 0 && (
          <span aria-label={`${openTasksCount} open`} className="rounded-full bg-zinc-200 px-1.5 text-[10px] leading-4 tabular-nums dark:bg-zinc-700">
            {openTasksCount}
          </span>
        )}
      </button>
      <ExportMenu team={team} member={member} />
    </header>
  );
}
