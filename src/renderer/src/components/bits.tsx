// Small shared pieces: presence dot, relative time, delivery chip, member colour.
import { memo } from 'react';
import type { DeliveryStatus, MemberState, RosterEntry } from '../../../shared/types';
import { DELIVERY_WORD, deliveryHint } from '../lib/delivery';
import { displayState } from '../lib/presence';
import { exactTime, lastSeen, relativeTime } from '../lib/time';
import { useDeck } from '../state/context';
import { CheckIcon, ClockIcon, DoubleCheckIcon, ReplyIcon } from './icons';

export function useMemberState(entry: Pick<RosterEntry, 'state' | 'lastEventAt'> | undefined): MemberState {
  return useDeck((s) => (entry ? displayState(entry, s.now, s.settings.idleMinutes) : 'idle'));
}

export function useLastSeen(t: number | undefined): string {
  return useDeck((s) => lastSeen(t, s.now));
}

const DOT: Record<MemberState, string> = {
  active: 'bg-emerald-500 ring-2 ring-emerald-500/20',
  idle: 'bg-amber-400 ring-2 ring-amber-400/20',
  terminated: 'border-[1.5px] border-zinc-400 bg-transparent dark:border-zinc-500',
};

export function PresenceDot({
  name,
  state,
  title,
  size = 8,
  testid = `dot-${name}`,
}: {
  name: string;
  state: MemberState;
  title?: string;
  size?: number;
  testid?: string;
}) {
  return (
    <span
      role="img"
      aria-label={`${name}, ${state}`}
      title={title}
      data-testid={testid}
      data-state={state}
      className={`inline-block shrink-0 rounded-full ${DOT[state]}`}
      style={{ width: size, height: size }}
    />
  );
}

export const STATE_LABEL: Record<MemberState, string> = { active: 'Active', idle: 'Idle', terminated: 'Terminated' };
export const STATE_TEXT: Record<MemberState, string> = {
  active: 'text-emerald-700 dark:text-emerald-400',
  idle: 'text-amber-700 dark:text-amber-400',
  terminated: 'text-zinc-500 dark:text-zinc-400',
};

/** Relative time that re-ages with the app clock; the exact time is in the tooltip. */
export const RelTime = memo(function RelTime({ t, className }: { t: number; className?: string }) {
  const text = useDeck((s) => relativeTime(t, s.now));
  return (
    <time dateTime={t ? new Date(t).toISOString() : undefined} title={exactTime(t)} className={className}>
      {text}
    </time>
  );
});

const CHIP: Record<DeliveryStatus, string> = {
  queued: 'text-amber-700 dark:text-amber-400',
  accepted: 'text-zinc-500 dark:text-zinc-400',
  read: 'text-sky-700 dark:text-sky-400',
  replied: 'text-emerald-700 dark:text-emerald-400',
};

const CHIP_ICON: Record<DeliveryStatus, typeof ClockIcon> = {
  queued: ClockIcon,
  accepted: CheckIcon,
  read: DoubleCheckIcon,
  replied: ReplyIcon,
};

export function DeliveryChip({ status, reason }: { status: DeliveryStatus; reason?: string }) {
  const Icon = CHIP_ICON[status];
  return (
    <span
      className={`inline-flex items-center gap-1 font-medium ${CHIP[status]}`}
      title={deliveryHint(status, reason)}
      data-testid="delivery"
      data-status={status}
    >
      <Icon width={12} height={12} />
      {DELIVERY_WORD[status]}
      {status === 'queued' && <span className="font-normal opacity-80">· will retry</span>}
    </span>
  );
}

const NAME_COLOR: Record<string, string> = {
  red: 'text-red-600 dark:text-red-400',
  blue: 'text-blue-600 dark:text-blue-400',
  green: 'text-emerald-600 dark:text-emerald-400',
  yellow: 'text-yellow-600 dark:text-yellow-400',
  purple: 'text-violet-600 dark:text-violet-400',
  orange: 'text-orange-600 dark:text-orange-400',
  pink: 'text-pink-600 dark:text-pink-400',
  cyan: 'text-cyan-600 dark:text-cyan-400',
};

export function nameColor(color: string | undefined): string {
  return (color && NAME_COLOR[color]) || 'text-zinc-800 dark:text-zinc-200';
}

export function displayName(name: string): string {
  return name === 'user' ? 'you' : name;
}

/** The "show raw" / "hide raw" switch beside a protocol event, in threads and in the feed. */
export function RawToggle({ raw, onToggle, className = '' }: { raw: boolean; onToggle: () => void; className?: string }) {
  return (
    <button
      type="button"
      aria-expanded={raw}
      onClick={onToggle}
      className={`rounded px-1 text-[11px] text-zinc-400 outline-none hover:bg-zinc-100 hover:text-zinc-700 focus-visible:ring-2 focus-visible:ring-indigo-500/50 dark:hover:bg-zinc-800 dark:hover:text-zinc-200 ${className}`}
    >
      {raw ? 'hide raw' : 'show raw'}
    </button>
  );
}
