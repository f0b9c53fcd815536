// A member's activity view: its transcript as a readable, virtualized, read-only timeline that
// stays at the newest step while the user is there, live from `timeline` events.
import { useCallback, useMemo, useRef, useState } from 'react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import type { TimelineItem } from '../../../shared/types';
import { timelineRows, type TimelineRow as Row } from '../lib/timeline-rows';
import { useActions, useDeck } from '../state/context';
import { teamOf } from '../state/selectors';
import { ArrowDownIcon } from './icons';
import { DaySeparator } from './MessageRow';
import { TimelineRow } from './TimelineRow';

const EMPTY: readonly TimelineItem[] = Object.freeze([]) as readonly TimelineItem[];

export function TimelineView({ team, member }: { team: string; member: string }) {
  const actions = useActions();
  const items = useDeck((s) => s.byTeam[team]?.timelines[member]?.items ?? EMPTY);
  const loaded = useDeck((s) => s.byTeam[team]?.timelines[member]?.loaded !== undefined);
  const error = useDeck((s) => s.byTeam[team]?.timelines[member]?.error);
  const legacy = useDeck((s) => teamOf(s, team)?.era === 'legacy');
  const tool = useDeck((s) => {
    const a = s.byTeam[team]?.activity?.[member];
    return a && (a.kind === 'working' || a.kind === 'waiting') ? a.tool : undefined;
  });
  const rows = useMemo(() => timelineRows(items), [items]);
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback((id: string) => {
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const virtuoso = useRef<VirtuosoHandle>(null);
  const [atBottom, setAtBottom] = useState(true);

  // The last tool call is the one in flight when the member's activity names that tool.
  const last = items.at(-1);
  const runningId = last?.kind === 'tool-call' && tool && last.tool === tool.name ? last.id : undefined;
  const runningSince = tool?.since;
  const openLink = actions.openExternal;
  const renderRow = useCallback(
    (_: number, row: Row) =>
      row.kind === 'day' ? (
        <DaySeparator time={row.time} />
      ) : (
        <TimelineRow
          item={row.item}
          member={member}
          expanded={open.has(row.item.id)}
          runningSince={row.item.id === runningId ? runningSince : undefined}
          onToggle={toggle}
          onOpenLink={openLink}
        />
      ),
    [member, open, toggle, openLink, runningId, runningSince],
  );

  let body;
  if (error && !loaded) {
    body = (
      <div className="flex h-full flex-col items-center justify-center gap-2 text-sm text-zinc-500">
        <p className="text-red-600 dark:text-red-400">Could not read {member}’s transcript: {error}</p>
        <button type="button" className="btn-secondary" onClick={() => actions.retryTimeline(team, member)}>
          Try again
        </button>
      </div>
    );
  } else if (!loaded) {
    body = <div className="flex h-full items-center justify-center text-sm text-zinc-500">Reading {member}’s transcript…</div>;
  } else if (rows.length === 0) {
    body = (
      <div data-testid="timeline-empty" className="flex h-full flex-col items-center justify-center gap-1.5 px-8 text-center text-zinc-500 dark:text-zinc-400">
        <p className="text-sm font-medium text-zinc-700 dark:text-zinc-200">No transcript for {member} yet.</p>
        <p className="max-w-md text-xs leading-relaxed">
          Claude writes transcripts under <span className="font-mono">~/.claude/projects/</span>.{' '}
          {legacy
            ? 'This is a legacy team: nothing ties its members to a transcript there, so there are no steps to show.'
            : 'A member that has not started a turn has none yet, and one running in its own terminal pane may keep it where Teamdeck does not look.'}{' '}
          Its messages with you are in the Thread.
        </p>
      </div>
    );
  } else {
    body = (
      <Virtuoso
        ref={virtuoso}
        className="thin-scroll h-full"
        data={rows}
        computeItemKey={(_, row) => row.key}
        itemContent={renderRow}
        initialTopMostItemIndex={{ index: 'LAST', align: 'end' }}
        followOutput={(bottom) => (bottom ? 'auto' : false)}
        atBottomStateChange={setAtBottom}
        atBottomThreshold={60}
        increaseViewportBy={{ top: 400, bottom: 400 }}
        defaultItemHeight={44}
        components={{ Footer: TimelineFooter }}
      />
    );
  }

  return (
    <div
      role="log"
      aria-label={`${member}’s activity`}
      className="relative min-h-0 flex-1"
      data-testid="timeline"
      data-member={member}
      data-count={items.length}
    >
      {body}
      {!atBottom && rows.length > 0 && (
        <button
          type="button"
          data-testid="timeline-latest"
          onClick={() => virtuoso.current?.scrollToIndex({ index: 'LAST', align: 'end' })}
          className="absolute bottom-3 left-1/2 inline-flex -translate-x-1/2 items-center gap-1.5 rounded-full bg-zinc-800 px-3 py-1 text-xs font-medium text-white shadow-lg outline-none hover:bg-zinc-700 focus-visible:ring-2 focus-visible:ring-indigo-300 dark:bg-zinc-200 dark:text-zinc-900 dark:hover:bg-white"
        >
          <ArrowDownIcon width={12} height={12} />
          Latest
        </button>
      )}
    </div>
  );
}

function TimelineFooter() {
  return <div className="h-4" />;
}
