import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import { isFromUser } from '../../../shared/threads';
import { threadItems, type ThreadItem } from '../lib/thread-items';
import { useActions, useDeck } from '../state/context';
import { EMPTY_MESSAGES, isTeamEnded, threadOf } from '../state/selectors';
import { ArrowDownIcon } from './icons';
import { Bubble, DaySeparator, FrameEvent, ROW_HEIGHT_GUESS, RowPlaceholder, SCROLL_SEEK } from './MessageRow';
import { useFocusedRow } from './useFocusedRow';

function useToggleSet(): [ReadonlySet<string>, (id: string) => void] {
  const [set, setSet] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback((id: string) => {
    setSet((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  return [set, toggle];
}

export function ThreadView({ team, member }: { team: string; member: string }) {
  const actions = useActions();
  const messages = useDeck((s) => threadOf(s.byTeam[team]?.messages ?? EMPTY_MESSAGES, member));
  const loaded = useDeck((s) => s.byTeam[team]?.threadLoaded[member] !== undefined);
  const error = useDeck((s) => s.byTeam[team]?.threadError[member]);
  const lead = useDeck((s) => s.byTeam[team]?.roster?.find((r) => r.isLead)?.name);
  const ended = useDeck((s) => isTeamEnded(s, team));
  const items = useMemo(() => threadItems(messages), [messages]);
  const [rawOpen, toggleRaw] = useToggleSet();
  // A message opened from the needs queue: brought into view and marked for a moment.
  const focusId = useDeck((s) => (s.focus && s.focus.team === team && s.focus.member === member ? s.focus.id : undefined));

  const virtuoso = useRef<VirtuosoHandle>(null);
  const atBottom = useRef(true);
  const [showPill, setShowPill] = useState(false);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const lastKey = items.at(-1)?.key;
  const prevLastKey = useRef(lastKey);

  const markViewed = useCallback(() => {
    if (atBottom.current && document.visibilityState === 'visible') actions.markViewed(team, member);
  }, [actions, team, member]);

  // Something new at the end while the user reads older messages: offer a way down instead of yanking them.
  useEffect(() => {
    if (prevLastKey.current !== undefined && lastKey !== prevLastKey.current && !atBottom.current) {
      const last = itemsRef.current.at(-1);
      const mine = last?.kind === 'message' && isFromUser(last.message);
      if (!mine) setShowPill(true);
    }
    prevLastKey.current = lastKey;
    markViewed();
  }, [lastKey, markViewed]);

  useEffect(() => {
    const onVisible = () => markViewed();
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('focus', onVisible);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('focus', onVisible);
    };
  }, [markViewed]);

  const followOutput = useCallback((isAtBottom: boolean) => {
    if (isAtBottom) return 'auto' as const;
    // The user's own message always brings the view down, wherever they were.
    const last = itemsRef.current.at(-1);
    return last?.kind === 'message' && isFromUser(last.message) ? ('auto' as const) : false;
  }, []);

  const onAtBottom = useCallback(
    (bottom: boolean) => {
      atBottom.current = bottom;
      if (bottom) {
        setShowPill(false);
        markViewed();
      }
    },
    [markViewed],
  );

  // Rows taller than the height guess (markdown, long text) are measured only after the list
  // has opened at its end, which can leave the view a few rows short of the last message. Until
  // the user first touches the list, every change in its height brings the end back into view.
  const opening = useRef(true);
  const onHeightChanged = useCallback(() => {
    if (opening.current) virtuoso.current?.scrollToIndex({ index: 'LAST', align: 'end' });
  }, []);
  const userTookOver = useCallback(() => {
    opening.current = false;
  }, []);

  useFocusedRow(virtuoso, items, focusId, actions.clearFocus, userTookOver);

  const openLink = actions.openExternal;
  const renderItem = useCallback(
    (_: number, item: ThreadItem) => {
      if (item.kind === 'day') return <DaySeparator time={item.time} />;
      const m = item.message;
      if (m.id === focusId) {
        return (
          <div data-testid="focused-message" className="mx-3 rounded-xl bg-amber-100/60 ring-2 ring-amber-400/70 dark:bg-amber-500/10 dark:ring-amber-400/50">
            {m.frame ? (
              <FrameEvent message={m} owner={member} lead={lead} raw={rawOpen.has(m.id)} onToggleRaw={toggleRaw} testid={`msg-${m.id}`} />
            ) : (
              <Bubble message={m} team={team} lead={lead} grouped={false} showTime onOpenLink={openLink} />
            )}
          </div>
        );
      }
      if (m.frame) return <FrameEvent message={m} owner={member} lead={lead} raw={rawOpen.has(m.id)} onToggleRaw={toggleRaw} testid={`msg-${m.id}`} />;
      return <Bubble message={m} team={team} lead={lead} grouped={item.grouped} showTime={item.groupEnd} onOpenLink={openLink} />;
    },
    [team, member, lead, rawOpen, toggleRaw, openLink, focusId],
  );

  if (error && !loaded) {
    return (
      <div className="flex flex-1 flex-col items-center justify-center gap-2 text-sm text-zinc-500">
        <p className="text-red-600 dark:text-red-400">Could not load the thread: {error}</p>
        <button type="button" className="btn-secondary" onClick={() => actions.retryThread(team, member)}>
          Try again
        </button>
      </div>
    );
  }
  if (!loaded) return <div className="flex flex-1 items-center justify-center text-sm text-zinc-500">Loading messages…</div>;

  return (
    <div
      role="log"
      aria-label={`Messages with ${member}`}
      className="relative min-h-0 flex-1"
      data-testid="thread"
      data-member={member}
      data-count={messages.length}
      onWheel={userTookOver}
      onPointerDown={userTookOver}
      onTouchStart={userTookOver}
      onKeyDown={userTookOver}
    >
      {items.length === 0 ? (
        <div className="flex h-full flex-col items-center justify-center gap-1 text-center text-zinc-500 dark:text-zinc-400">
          <p className="text-sm">No messages with {member} yet.</p>
          <p className="text-xs">
            {ended ? 'This team has ended; nothing was said between you before it did.' : 'What you send lands in their inbox; they pick it up at their next poll.'}
          </p>
        </div>
      ) : (
        <Virtuoso
          ref={virtuoso}
          className="thin-scroll h-full"
          data={items}
          computeItemKey={(_, item) => item.key}
          itemContent={renderItem}
          initialTopMostItemIndex={{ index: 'LAST', align: 'end' }}
          alignToBottom
          followOutput={followOutput}
          atBottomStateChange={onAtBottom}
          totalListHeightChanged={onHeightChanged}
          atBottomThreshold={60}
          increaseViewportBy={{ top: 400, bottom: 400 }}
          // A typical row's height: the list opens at its end in one pass, without first
          // rendering a probe row to guess it.
          defaultItemHeight={ROW_HEIGHT_GUESS}
          components={{ Footer: ThreadFooter, ScrollSeekPlaceholder: RowPlaceholder }}
          scrollSeekConfiguration={SCROLL_SEEK}
        />
      )}
      {showPill && (
        <button
          type="button"
          data-testid="new-messages"
          onClick={() => {
            setShowPill(false);
            virtuoso.current?.scrollToIndex({ index: 'LAST', align: 'end' });
          }}
          className="absolute bottom-3 left-1/2 inline-flex -translate-x-1/2 items-center gap-1.5 rounded-full bg-indigo-600 px-3 py-1 text-xs font-medium text-white shadow-lg shadow-indigo-900/20 outline-none hover:bg-indigo-500 focus-visible:ring-2 focus-visible:ring-indigo-300"
        >
          <ArrowDownIcon width={12} height={12} />
          New messages
        </button>
      )}
    </div>
  );
}

function ThreadFooter() {
  return <div className="h-4" />;
}
