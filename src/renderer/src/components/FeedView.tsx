import { memo, useCallback, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import { describeFrame } from '../../../shared/frame-text';
import { isFromUser, isToUser, USER, YOU } from '../../../shared/threads';
import type { ThreadMessage } from '../../../shared/types';
import { threadItems, type ThreadItem } from '../lib/thread-items';
import { undeliverableReason } from '../lib/delivery';
import { useActions, useDeck } from '../state/context';
import { FEED_FOCUS } from '../state/view-state';
import { EMPTY_MESSAGES, EMPTY_ROSTER, endedWhen, feedOf, orderedRoster, teamOf } from '../state/selectors';
import { ExportMenu } from './ExportMenu';
import { DeliveryChip, RawToggle, RelTime, SentAs, SourceMark, displayName, nameColor, senderName } from './bits';
import { BackIcon, ChevronDownIcon } from './icons';
import { Markdown } from './LazyMarkdown';
import { useFocusedRow } from './useFocusedRow';
import { DaySeparator, RowPlaceholder, SCROLL_SEEK } from './MessageRow';

const FeedRow = memo(function FeedRow({
  message: m,
  team,
  lead,
  colors,
  raw,
  onToggleRaw,
  onOpenLink,
}: {
  message: ThreadMessage;
  team: string;
  lead?: string;
  colors: Record<string, string | undefined>;
  raw: boolean;
  onToggleRaw: (id: string) => void;
  onOpenLink: (url: string) => void;
}) {
  const mine = isFromUser(m);
  // An answer is to the user whatever name it was addressed to (Teamdeck's sender name, the lead's inbox).
  const toUser = isToUser(m);
  return (
    <div data-testid={`feed-msg-${m.id}`} data-status={m.status} className="px-5 py-1.5 hover:bg-zinc-50 dark:hover:bg-zinc-800/30">
      <div className="flex min-w-0 items-baseline gap-1.5 text-[12.5px]">
        <span className={`font-semibold ${nameColor(mine ? undefined : colors[m.from])}`}>{senderName(m)}</span>
        <span className="text-zinc-400" aria-label="to">
          →
        </span>
        <span className={`font-medium ${nameColor(toUser ? undefined : colors[m.to])}`}>{toUser ? YOU : displayName(m.to)}</span>
        {m.summary && !m.frame && <span className="min-w-0 truncate text-zinc-500 dark:text-zinc-400">· {m.summary}</span>}
        {m.frame && (
          <span className="flex min-w-0 items-center gap-2 text-zinc-500 dark:text-zinc-400">
            <span className="truncate italic">{describeFrame(m.frame)}</span>
            <RawToggle raw={raw} onToggle={() => onToggleRaw(m.id)} className="shrink-0" />
          </span>
        )}
        <span className="ml-auto flex shrink-0 items-center gap-2 pl-3 text-[11px] text-zinc-400 dark:text-zinc-500">
          {m.status && <DeliveryChip status={m.status} member={m.to} reason={m.reason} />}
          {mine && <SentAs message={m} isLead={m.to === lead} team={team} />}
          {!mine && m.source !== 'user-inbox' && <SourceMark source={m.source} member={m.from} />}
          <RelTime t={m.time} />
        </span>
      </div>
      {!m.frame && (
        <div className={`max-w-3xl text-zinc-800 dark:text-zinc-200 ${m.status === 'undeliverable' ? 'opacity-60' : ''}`}>
          <Markdown text={m.text} onOpenLink={onOpenLink} />
        </div>
      )}
      {mine && m.status === 'undeliverable' && (
        <p data-testid="undeliverable-reason" className="text-[11px] text-red-700 dark:text-red-400">
          Not delivered: {undeliverableReason(m.to, m.reason)}.
        </p>
      )}
      {raw && m.frame && (
        <pre className="mt-1 max-h-72 overflow-auto rounded-md border border-zinc-200 bg-zinc-50 p-2.5 font-mono text-[11px] text-zinc-700 dark:border-zinc-800 dark:bg-zinc-950 dark:text-zinc-300">
          {JSON.stringify(m.frame.fields, null, 2)}
        </pre>
      )}
    </div>
  );
});

export function FeedView({ team }: { team: string }) {
  const actions = useActions();
  const filter = useDeck((s) => s.feedFilter[team] ?? '');
  const messages = useDeck((s) => feedOf(s.byTeam[team]?.messages ?? EMPTY_MESSAGES, filter));
  const loaded = useDeck((s) => s.byTeam[team]?.feedLoaded !== undefined);
  const error = useDeck((s) => s.byTeam[team]?.feedError);
  const teamName = useDeck((s) => teamOf(s, team)?.name ?? team);
  const ended = useDeck((s) => {
    const t = teamOf(s, team);
    return t?.state === 'ended' ? endedWhen(t, s.now) : undefined;
  });
  const lead = useDeck((s) => s.byTeam[team]?.roster?.find((r) => r.isLead)?.name);
  const back = useDeck((s) => s.memberByTeam[team]);
  const roster = useDeck((s) => orderedRoster(s.byTeam[team]?.roster ?? EMPTY_ROSTER));
  const colorsKey = useDeck(useShallow((s) => (s.byTeam[team]?.roster ?? EMPTY_ROSTER).map((r) => `${r.name}=${r.color ?? ''}`)));
  const colors = useMemo(() => Object.fromEntries(colorsKey.map((kv) => kv.split('=') as [string, string])), [colorsKey]);
  const items = useMemo(() => threadItems(messages), [messages]);
  const [rawOpen, setRawOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggleRaw = useCallback((id: string) => {
    setRawOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);

  const virtuoso = useRef<VirtuosoHandle>(null);
  const focusId = useDeck((s) => (s.focus && s.focus.team === team && s.focus.member === FEED_FOCUS ? s.focus.id : undefined));
  useFocusedRow(virtuoso, items, focusId, actions.clearFocus);

  const renderItem = useCallback(
    (_: number, item: ThreadItem) => {
      if (item.kind === 'day') return <DaySeparator time={item.time} />;
      const row = (
        <FeedRow
          message={item.message}
          team={team}
          lead={lead}
          colors={colors}
          raw={rawOpen.has(item.message.id)}
          onToggleRaw={toggleRaw}
          onOpenLink={actions.openExternal}
        />
      );
      if (item.message.id !== focusId) return row;
      return (
        <div data-testid="focused-message" className="mx-3 rounded-xl bg-amber-100/60 ring-2 ring-amber-400/70 dark:bg-amber-500/10 dark:ring-amber-400/50">
          {row}
        </div>
      );
    },
    [team, lead, colors, rawOpen, toggleRaw, actions.openExternal, focusId],
  );

  return (
    <section className="flex min-h-0 min-w-0 flex-1 flex-col" aria-label="Team feed">
      <header className="view-header">
        <div className="view-title">
          <h1 className="text-[15px] font-semibold text-zinc-950 dark:text-white">Team feed</h1>
          <p className="mt-0.5 truncate text-xs text-zinc-500 dark:text-zinc-400">
            Every message in {teamName}
            {ended ? ` (${ended}; its history stays here)` : ', including teammate-to-teammate traffic Claude later prunes'}
          </p>
        </div>
        <label className="relative shrink-0">
          <span className="sr-only">Filter by member</span>
          <select
            data-testid="feed-filter"
            value={filter}
            onChange={(e) => actions.setFeedFilter(team, e.target.value)}
            className="cursor-pointer appearance-none rounded-md border border-zinc-200 bg-white py-1 pr-7 pl-2.5 text-xs text-zinc-700 outline-none focus-visible:ring-2 focus-visible:ring-indigo-500/50 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-200"
          >
            <option value="">Everyone</option>
            <option value={USER}>you</option>
            {roster.map((r) => (
              <option key={r.name} value={r.name}>
                {r.name}
              </option>
            ))}
            {/* An inbox nobody reads (opened from the needs queue) may have no roster entry. */}
            {filter && filter !== USER && !roster.some((r) => r.name === filter) && <option value={filter}>{filter}</option>}
          </select>
          <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-2 -translate-y-1/2 text-zinc-400" width={12} height={12} />
        </label>
        <ExportMenu team={team} />
        {back && (
          <button
            type="button"
            data-testid="feed-back"
            onClick={() => actions.openFeed(false)}
            className="inline-flex shrink-0 items-center gap-1 rounded-md border border-zinc-200 px-2.5 py-1 text-xs font-medium text-zinc-700 outline-none hover:bg-zinc-100 focus-visible:ring-2 focus-visible:ring-indigo-500/50 dark:border-zinc-700 dark:text-zinc-200 dark:hover:bg-zinc-800"
          >
            <BackIcon width={12} height={12} />
            {back}
          </button>
        )}
      </header>
      <div className="relative min-h-0 flex-1" data-testid="feed" data-count={messages.length} data-filter={filter}>
        {error && !loaded ? (
          <div className="flex h-full flex-col items-center justify-center gap-2 text-sm">
            <p className="text-red-600 dark:text-red-400">Could not load the feed: {error}</p>
            <button type="button" className="btn-secondary" onClick={() => actions.retryFeed(team)}>
              Try again
            </button>
          </div>
        ) : !loaded ? (
          <div className="flex h-full items-center justify-center text-sm text-zinc-500">Loading the feed…</div>
        ) : items.length === 0 ? (
          <div className="flex h-full items-center justify-center text-sm text-zinc-500">
            {filter ? `No messages from or to ${displayName(filter)}.` : 'No messages in this team yet.'}
          </div>
        ) : (
          <Virtuoso
            ref={virtuoso}
            key={filter}
            className="thin-scroll h-full"
            data={items}
            computeItemKey={(_, item) => item.key}
            itemContent={renderItem}
            initialTopMostItemIndex={{ index: 'LAST', align: 'end' }}
            followOutput={(atBottom) => (atBottom ? 'auto' : false)}
            increaseViewportBy={{ top: 400, bottom: 400 }}
            components={{ Footer: FeedFooter, ScrollSeekPlaceholder: RowPlaceholder }}
            scrollSeekConfiguration={SCROLL_SEEK}
          />
        )}
      </div>
    </section>
  );
}

function FeedFooter() {
  return <div className="h-3" />;
}
