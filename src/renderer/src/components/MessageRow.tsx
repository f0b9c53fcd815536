// Rows shared by the thread and the feed: chat bubbles, one-line protocol events, day separators.
import { memo } from 'react';
import { describeFrame } from '../../../shared/frame-text';
import { isFromUser, USER } from '../../../shared/threads';
import type { ThreadMessage } from '../../../shared/types';
import { undeliverableReason } from '../lib/delivery';
import { dayLabel, exactTime } from '../lib/time';
import { useDeck } from '../state/context';
import { DeliveryChip, RawToggle, RelTime, SentAs, SourceMark, displayName } from './bits';
import { Markdown } from './LazyMarkdown';

/**
 * Rows flung past faster than about 15,000 px/s (a dragged scrollbar, a hard fling) are drawn
 * as placeholders of their size instead of rendered messages, as chat apps do: rendering
 * markdown for every row passed would make those frames long. At reading speed, and as soon as
 * the list slows down, the real rows render. Velocity is in pixels per 100 ms.
 */
export const SCROLL_SEEK = {
  enter: (velocity: number) => Math.abs(velocity) > 1_500,
  exit: (velocity: number) => Math.abs(velocity) < 200,
};

/** About the height of a message row with a couple of lines, in pixels. */
export const ROW_HEIGHT_GUESS = 80;

export function RowPlaceholder({ height }: { height: number }) {
  return (
    <div style={{ height }} className="px-5 py-1.5" aria-hidden="true">
      <div className="h-full rounded-2xl bg-zinc-100/70 dark:bg-zinc-800/40" />
    </div>
  );
}

export function DaySeparator({ time }: { time: number }) {
  const label = useDeck((s) => dayLabel(time, s.now));
  return (
    <div role="separator" aria-label={label} className="flex items-center gap-3 px-5 pt-5 pb-2">
      <div className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
      <span className="text-[11px] font-medium text-zinc-500 dark:text-zinc-400" title={exactTime(time)}>
        {label}
      </span>
      <div className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
    </div>
  );
}

interface EventProps {
  message: ThreadMessage;
  /** Whose thread this is: their own events need no name. */
  owner?: string;
  /** Events addressed to the lead (idle, shutdown approved) read fine without naming it. */
  lead?: string;
  raw: boolean;
  onToggleRaw: (id: string) => void;
  testid: string;
}

export const FrameEvent = memo(function FrameEvent({ message, owner, lead, raw, onToggleRaw, testid }: EventProps) {
  const frame = message.frame!;
  const who =
    message.from !== owner
      ? `${displayName(message.from)} → ${displayName(message.to)} · `
      : message.to !== USER && message.to !== lead && message.to !== owner
        ? `→ ${displayName(message.to)} · `
        : '';
  return (
    <div className="px-5 py-1" data-testid={testid} data-frame={frame.type}>
      <div className="flex items-center gap-3 text-[12px] text-zinc-500 dark:text-zinc-400">
        <div className="h-px flex-1 bg-zinc-200/80 dark:bg-zinc-800" />
        <span className="max-w-[70%] truncate" title={`${frame.type} · ${exactTime(message.time)}`}>
          {who}
          {describeFrame(frame)} · <RelTime t={message.time} />
        </span>
        <RawToggle raw={raw} onToggle={() => onToggleRaw(message.id)} />
        <div className="h-px flex-1 bg-zinc-200/80 dark:bg-zinc-800" />
      </div>
      {raw && (
        <pre className="mx-auto mt-1.5 mb-1 max-h-72 max-w-[680px] overflow-auto rounded-md border border-zinc-200 bg-zinc-50 p-2.5 font-mono text-[11px] leading-relaxed text-zinc-700 dark:border-zinc-800 dark:bg-zinc-950 dark:text-zinc-300">
          {JSON.stringify(frame.fields, null, 2)}
        </pre>
      )}
    </div>
  );
});

interface BubbleProps {
  message: ThreadMessage;
  team: string;
  /** The team's lead: a message to it is framed differently for its model. */
  lead?: string;
  grouped: boolean;
  /** Show the time under this bubble (the last of a group); sent messages always show their state. */
  showTime: boolean;
  onOpenLink: (url: string) => void;
}

export const Bubble = memo(function Bubble({ message: m, team, lead, grouped, showTime, onOpenLink }: BubbleProps) {
  const mine = isFromUser(m);
  const undeliverable = mine && m.status === 'undeliverable';
  const source = !mine && m.source !== undefined && m.source !== 'user-inbox';
  return (
    <div
      data-testid={`msg-${m.id}`}
      data-from={m.from}
      data-status={m.status}
      className={`flex px-5 ${grouped ? 'pt-1' : 'pt-3'} ${mine ? 'justify-end' : 'justify-start'}`}
    >
      <div className={`flex max-w-[min(720px,80%)] min-w-0 flex-col ${mine ? 'items-end' : 'items-start'}`}>
        {m.summary && (
          <div className="mb-0.5 px-1 text-[11px] font-medium text-zinc-500 dark:text-zinc-400" title="Summary">
            {m.summary}
          </div>
        )}
        <div
          title={exactTime(m.time)}
          className={`max-w-full min-w-0 rounded-2xl px-3.5 py-2 leading-relaxed break-words ${
            mine
              ? 'bubble-mine rounded-br-md bg-indigo-600 text-white dark:bg-indigo-500/90'
              : 'rounded-bl-md bg-zinc-100 text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100'
          } ${undeliverable ? 'opacity-60' : ''}`}
        >
          <Markdown text={m.text} onOpenLink={onOpenLink} />
        </div>
        {(showTime || (mine && (m.status || m.sentAs || m.channel)) || source) && (
          <div className={`mt-1 flex flex-wrap items-center gap-x-2 px-1 text-[11px] text-zinc-400 dark:text-zinc-500 ${mine ? 'justify-end' : ''}`}>
            {mine && m.status && <DeliveryChip status={m.status} member={m.to} reason={m.reason} />}
            {mine && <SentAs message={m} isLead={m.to === lead} team={team} />}
            {source && <SourceMark source={m.source} member={m.from} />}
            {showTime && <RelTime t={m.time} />}
          </div>
        )}
        {undeliverable && (
          <p data-testid="undeliverable-reason" className="mt-0.5 px-1 text-right text-[11px] text-red-700 dark:text-red-400">
            Not delivered: {undeliverableReason(m.to, m.reason)}.
          </p>
        )}
      </div>
    </div>
  );
});
