// A team's task list as a board: pending, in progress, completed; each card with its owner and
// what blocks it, the description on expand; task files that do not parse listed by name. Live
// from `tasks` events.
import { memo, useCallback, useState } from 'react';
import type { TaskBoard, TaskItem, TaskStatus } from '../../../shared/types';
import { useActions, useDeck } from '../state/context';
import { endedWhen, openBlockers, taskColumns, teamOf } from '../state/selectors';
import { nameColor } from './bits';
import { BackIcon, ChevronRightIcon, WarningIcon } from './icons';
import { Markdown } from './LazyMarkdown';

const COLUMNS: { status: TaskStatus; label: string; dot: string }[] = [
  { status: 'pending', label: 'Pending', dot: 'border-[1.5px] border-zinc-400 dark:border-zinc-500' },
  { status: 'in_progress', label: 'In progress', dot: 'bg-sky-500' },
  { status: 'completed', label: 'Completed', dot: 'bg-emerald-500' },
];

const TaskCard = memo(function TaskCard({
  task,
  board,
  ownerColor,
  open,
  onToggle,
  onOpenOwner,
  onOpenLink,
}: {
  task: TaskItem;
  board: TaskBoard;
  ownerColor?: string;
  open: boolean;
  onToggle: (id: string) => void;
  onOpenOwner: (name: string) => void;
  onOpenLink: (url: string) => void;
}) {
  const waiting = openBlockers(task, board);
  const done = task.blockedBy.filter((id) => !waiting.includes(id));
  const ids = (list: string[]) => list.map((id) => `#${id}`).join(', ');
  return (
    <li
      data-testid={`task-${task.id}`}
      data-status={task.status}
      data-blocked={waiting.length > 0 || undefined}
      className={`rounded-lg border bg-white shadow-xs dark:bg-zinc-800/60 ${
        waiting.length > 0 ? 'border-amber-300 dark:border-amber-500/40' : 'border-zinc-200 dark:border-zinc-700/80'
      }`}
    >
      <button
        type="button"
        aria-expanded={open}
        onClick={() => onToggle(task.id)}
        className="flex w-full items-start gap-1.5 rounded-lg px-3 pt-2 pb-1 text-left outline-none focus-visible:ring-2 focus-visible:ring-indigo-500/50"
      >
        <ChevronRightIcon width={11} height={11} className={`mt-1 shrink-0 text-zinc-400 transition-transform ${open ? 'rotate-90' : ''}`} />
        <span className="shrink-0 font-mono text-[11px] leading-5 text-zinc-400 dark:text-zinc-500">#{task.id}</span>
        <span className={`min-w-0 font-medium break-words ${task.status === 'completed' ? 'text-zinc-500 dark:text-zinc-400' : 'text-zinc-900 dark:text-zinc-100'}`}>
          {task.subject}
        </span>
      </button>
      <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5 px-3 pb-2 pl-[30px] text-[11px] text-zinc-500 dark:text-zinc-400">
        {task.status === 'in_progress' && task.activeForm && <span className="w-full text-sky-700 italic dark:text-sky-400">{task.activeForm}…</span>}
        {task.owner ? (
          <button type="button" onClick={() => onOpenOwner(task.owner!)} title={`Open ${task.owner}`} className={`rounded font-medium hover:underline ${nameColor(ownerColor)}`}>
            @{task.owner}
          </button>
        ) : (
          <span className="italic">no owner</span>
        )}
        {waiting.length > 0 && (
          <span data-testid="task-blocked-by" className="font-medium text-amber-700 dark:text-amber-400">
            blocked by {ids(waiting)}
          </span>
        )}
        {done.length > 0 && <span title="These blockers are completed">after {ids(done)} (done)</span>}
        {task.blocks.length > 0 && <span data-testid="task-blocks">blocks {ids(task.blocks)}</span>}
        {task.status !== 'pending' && task.status !== 'in_progress' && task.status !== 'completed' && <span>{String(task.status)}</span>}
      </div>
      {open && (
        <div data-testid="task-description" className="border-t border-zinc-100 px-3 py-2 text-zinc-700 dark:border-zinc-700/60 dark:text-zinc-300">
          {task.description ? <Markdown text={task.description} onOpenLink={onOpenLink} /> : <p className="text-xs text-zinc-400 italic">No description.</p>}
        </div>
      )}
    </li>
  );
});

/** Where this team's tasks are: the engine's word for it (a demo's are not under ~/.claude). */
function listFolder(board: TaskBoard): string {
  return board.folder ?? `~/.claude/tasks/${board.list}`;
}

function EmptyBoard({ board }: { board: TaskBoard }) {
  return (
    <div data-testid="tasks-empty" className="flex h-full flex-col items-center justify-center gap-1.5 px-8 text-center text-zinc-500 dark:text-zinc-400">
      <p className="text-sm font-medium text-zinc-700 dark:text-zinc-200">{board.exists ? 'No tasks in this team’s list yet.' : 'This team has no task list.'}</p>
      <p className="max-w-lg text-xs leading-relaxed">
        That is usual: Claude Code 2.1.332 turns its task tools off by default, so most teams never write one. Start{' '}
        <span className="font-mono">claude</span> with <span className="font-mono">CLAUDE_CODE_ENABLE_TODO_TOOLS=1</span> to turn them on; the team’s tasks
        then show here as it creates them, from <span className="font-mono">{listFolder(board)}/</span>.
      </p>
    </div>
  );
}

export function TasksView({ team }: { team: string }) {
  const actions = useActions();
  const board = useDeck((s) => s.byTeam[team]?.tasks);
  const error = useDeck((s) => s.byTeam[team]?.tasksError);
  const teamName = useDeck((s) => teamOf(s, team)?.name ?? team);
  const ended = useDeck((s) => {
    const t = teamOf(s, team);
    return t?.state === 'ended' ? endedWhen(t, s.now) : undefined;
  });
  const back = useDeck((s) => s.memberByTeam[team]);
  const roster = useDeck((s) => s.byTeam[team]?.roster);
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback((id: string) => {
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const openOwner = useCallback((name: string) => actions.openMember(team, name), [actions, team]);
  const columns = board ? taskColumns(board) : undefined;

  return (
    <section className="flex min-h-0 min-w-0 flex-1 flex-col" aria-label="Task board">
      <header className="view-header">
        <div className="view-title">
          <h1 className="text-[15px] font-semibold text-zinc-950 dark:text-white">Tasks</h1>
          <p className="mt-0.5 truncate text-xs text-zinc-500 dark:text-zinc-400">
            The task list of {teamName}
            {board ? <span className="font-mono"> · {listFolder(board)}/</span> : null}
            {ended ? ` (${ended})` : ''}
          </p>
        </div>
        {back && (
          <button
            type="button"
            data-testid="tasks-back"
            onClick={() => actions.openTasks(false)}
            className="inline-flex shrink-0 items-center gap-1 rounded-md border border-zinc-200 px-2.5 py-1 text-xs font-medium text-zinc-700 outline-none hover:bg-zinc-100 focus-visible:ring-2 focus-visible:ring-indigo-500/50 dark:border-zinc-700 dark:text-zinc-200 dark:hover:bg-zinc-800"
          >
            <BackIcon width={12} height={12} />
            {back}
          </button>
        )}
      </header>
      {board && board.problems.length > 0 && (
        <ul data-testid="task-problems" className="space-y-0.5 border-b border-amber-200 bg-amber-50 px-5 py-2 text-xs text-amber-900 dark:border-amber-500/20 dark:bg-amber-500/10 dark:text-amber-200">
          {board.problems.map((p) => (
            <li key={p.file} data-testid="task-problem" className="flex items-start gap-1.5">
              <WarningIcon width={12} height={12} className="mt-0.5 shrink-0" />
              <span className="break-words">
                <span className="font-mono font-medium">{p.file.split('/').pop()}</span>: {p.message.replace(/[.\s]+$/, '')}; the other tasks still show.{' '}
                <span className="font-mono opacity-75">{listFolder(board)}/{p.file.split('/').pop()}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
      <div className="relative min-h-0 flex-1" data-testid="tasks" data-count={board?.tasks.length ?? 0}>
        {error && !board ? (
          <div className="flex h-full flex-col items-center justify-center gap-2 text-sm">
            <p className="text-red-600 dark:text-red-400">Could not read the task list: {error}</p>
            <button type="button" className="btn-secondary" onClick={() => actions.retryTasks(team)}>
              Try again
            </button>
          </div>
        ) : !board || !columns ? (
          <div className="flex h-full items-center justify-center text-sm text-zinc-500">Reading the task list…</div>
        ) : board.tasks.length === 0 ? (
          <EmptyBoard board={board} />
        ) : (
          <div className="grid h-full grid-cols-3 gap-3 p-4">
            {COLUMNS.map((c) => {
              const list = c.status === 'pending' ? [...columns.pending, ...columns.other] : columns[c.status];
              return (
                <div key={c.status} data-testid={`tasks-column-${c.status}`} className="flex min-h-0 flex-col rounded-xl bg-zinc-50 dark:bg-zinc-950/50">
                  <h2 className="flex items-center gap-2 px-3 pt-2.5 pb-2 text-[11px] font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-300">
                    <span className={`inline-block h-2 w-2 rounded-full ${c.dot}`} aria-hidden="true" />
                    {c.label}
                    <span className="ml-auto font-normal tabular-nums text-zinc-400">{list.length}</span>
                  </h2>
                  <ul className="thin-scroll min-h-0 flex-1 space-y-2 overflow-y-auto px-2 pb-2">
                    {list.length === 0 && <li className="px-1 py-2 text-xs text-zinc-400 italic">None.</li>}
                    {list.map((t) => (
                      <TaskCard
                        key={t.id}
                        task={t}
                        board={board}
                        ownerColor={roster?.find((r) => r.name === t.owner)?.color}
                        open={open.has(t.id)}
                        onToggle={toggle}
                        onOpenOwner={openOwner}
                        onOpenLink={actions.openExternal}
                      />
                    ))}
                  </ul>
                </div>
              );
            })}
          </div>
        )}
      </div>
    </section>
  );
}
