// What a member is doing, under its name: the full line in the thread header, a short one in the
// roster. Only the line itself re-renders as its counter ticks.
import { memo } from 'react';
import type { ActivityKind } from '../../../shared/types';
import { activityLine, activityTicks } from '../lib/activity';
import { useDeck } from '../state/context';
import { teamOf } from '../state/selectors';
import { useTickingNow } from '../state/ticking-now';
import { HandIcon, MoonIcon, PowerIcon, QuestionIcon, ToolIcon } from './icons';

const KIND_ICON: Record<ActivityKind, typeof ToolIcon> = {
  working: ToolIcon,
  waiting: HandIcon,
  idle: MoonIcon,
  'shut-down': PowerIcon,
  unknown: QuestionIcon,
};

const KIND_TEXT: Record<ActivityKind, string> = {
  working: 'text-emerald-700 dark:text-emerald-400',
  waiting: 'text-amber-700 dark:text-amber-400',
  idle: 'text-zinc-500 dark:text-zinc-400',
  'shut-down': 'text-zinc-500 dark:text-zinc-400',
  unknown: 'text-zinc-400 italic dark:text-zinc-500',
};

export const ActivityLine = memo(function ActivityLine({ team, member, short = false }: { team: string; member: string; short?: boolean }) {
  const a = useDeck((s) => s.byTeam[team]?.activity?.[member]);
  const loaded = useDeck((s) => s.byTeam[team]?.activity !== undefined);
  const error = useDeck((s) => s.byTeam[team]?.activityError);
  const era = useDeck((s) => teamOf(s, team)?.era);
  const now = useTickingNow(activityTicks(a));
  if (!loaded) {
    if (!error || short) return null;
    return (
      <p data-testid="activity-line" data-kind="error" className="truncate text-xs text-zinc-400 dark:text-zinc-500" title={error}>
        activity unavailable: {error}
      </p>
    );
  }
  const line = activityLine(a, now, { era, short });
  // The roster says "Terminated" already, and says nothing where nothing is known.
  if (short && (line.kind === 'unknown' || line.kind === 'shut-down')) return null;
  const Icon = KIND_ICON[line.kind];
  return (
    <p
      data-testid={short ? `roster-activity-${member}` : 'activity-line'}
      data-kind={line.kind}
      aria-label={`${member}: ${line.full}`}
      title={line.title || undefined}
      className={`flex min-w-0 items-center gap-1 ${short ? 'text-[11px] leading-4' : 'text-xs'} ${KIND_TEXT[line.kind]}`}
    >
      <Icon width={short ? 10 : 12} height={short ? 10 : 12} className="shrink-0" />
      <span className="min-w-0 truncate">{line.text}</span>
      {line.elapsed && (
        <span data-testid="activity-elapsed" className="shrink-0 tabular-nums">
          · {line.elapsed}
        </span>
      )}
    </p>
  );
});
