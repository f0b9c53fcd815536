// Small shared pieces: presence dot, relative time, delivery chip, member colour.
import { memo, useState } from 'react';
import { isFromUser, USER } from '../../../shared/threads';
import type { AnswerSource, DeliveryStatus, MemberState, RosterEntry, ThreadMessage } from '../../../shared/types';
import { DELIVERY_WORD, deliveryHint, isDeliveryStatus } from '../lib/delivery';
import { channelHint, channelMark } from '../lib/channels';
import { sentAsHint, sourceHint, sourceLabel } from '../lib/provenance';
import { exactTime, lastSeen, relativeTime } from '../lib/time';
import { useDeck } from '../state/context';
import { memberState, teamOf } from '../state/selectors';
import { BanIcon, CheckIcon, ClockIcon, DoubleCheckIcon, ReplyIcon, TrayOutIcon } from './icons';

/** A member's dot state in `team`: every member of an ended team shows as gone. */
export function useMemberState(team: string | undefined, entry: Pick<RosterEntry, 'state' | 'lastEventAt'> | undefined): MemberState {
  return useDeck((s) => memberState(s, team, entry));
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
  testid = `dot-${name}`,
}: {
  name: string;
  state: MemberState;
  title?: string;
  testid?: string;
}) {
  return (
    <span
      role="img"
      aria-label={`${name}, ${state}`}
      title={title}
      data-testid={testid}
      data-state={state}
      // Sized by a class, not a style attribute: the host's first screen is markup under a
      // CSP that allows no inline styles (first-screen.tsx).
      className={`inline-block size-2 shrink-0 rounded-full ${DOT[state]}`}
    />
  );
}

export const STATE_LABEL: Record<MemberState, string> = { active: 'Active', idle: 'Idle', terminated: 'Terminated' };
export const STATE_TEXT: Record<MemberState, string> = {
  active: 'text-emerald-700 dark:text-emerald-400',
  idle: 'text-amber-700 dark:text-amber-400',
  terminated: 'text-zinc-500 dark:text-zinc-400',
};

/**
 * Relative time that re-ages with the app clock; the exact time is in the tooltip, formatted once
 * the pointer or the focus comes to it: the page's first date formatter costs tens of
 * milliseconds (the locale's data is loaded), which the first paint need not wait for.
 */
export const RelTime = memo(function RelTime({ t, className }: { t: number; className?: string }) {
  const text = useDeck((s) => relativeTime(t, s.now));
  const [asked, setAsked] = useState(false);
  const ask = () => setAsked(true);
  return (
    <time dateTime={t ? new Date(t).toISOString() : undefined} title={asked ? exactTime(t) : undefined} onPointerEnter={ask} onFocus={ask} className={className}>
      {text}
    </time>
  );
});

const CHIP: Record<DeliveryStatus, string> = {
  queued: 'text-amber-700 dark:text-amber-400',
  accepted: 'text-zinc-500 dark:text-zinc-400',
  taken: 'text-zinc-600 dark:text-zinc-300',
  seen: 'text-sky-700 dark:text-sky-400',
  replied: 'text-emerald-700 dark:text-emerald-400',
  undeliverable: 'text-red-700 dark:text-red-400',
};

const CHIP_ICON: Record<DeliveryStatus, typeof ClockIcon> = {
  queued: ClockIcon,
  accepted: CheckIcon,
  taken: TrayOutIcon,
  seen: DoubleCheckIcon,
  replied: ReplyIcon,
  undeliverable: BanIcon,
};

/** The state of a sent message in a word and an icon; the tooltip says what it does and does not mean. */
export function DeliveryChip({ status, member, reason }: { status: DeliveryStatus; member: string; reason?: string }) {
  // A state this build does not know (a newer host) shows nothing rather than a wrong word.
  if (!isDeliveryStatus(status)) return null;
  const Icon = CHIP_ICON[status];
  return (
    <span
      className={`inline-flex items-center gap-1 font-medium ${CHIP[status]}`}
      title={deliveryHint(status, member, reason)}
      data-testid="delivery"
      data-status={status}
    >
      <Icon width={12} height={12} />
      {DELIVERY_WORD[status]}
      {status === 'queued' && <span className="font-normal opacity-80">· will retry</span>}
    </span>
  );
}

/**
 * How a sent message went, beside it: "typed as you" (the lead's terminal), "as another session"
 * (the messaging socket), or the sender name an inbox message was written under ("as teamdeck"),
 * with how the model sees it on hover.
 */
export function SentAs({ message, isLead, team }: { message: Pick<ThreadMessage, 'to' | 'sentAs' | 'channel'>; isLead: boolean; team: string }) {
  const era = useDeck((s) => teamOf(s, team)?.era);
  const mark = channelMark(message);
  if (!mark) return null;
  const hint = channelHint(message.channel, message.to, isLead) ?? (message.sentAs ? sentAsHint({ member: message.to, sentAs: message.sentAs, isLead, era }) : undefined);
  return (
    <span data-testid="sent-as" data-channel={message.channel ?? 'inbox'} className="text-zinc-400 dark:text-zinc-500" title={hint}>
      {mark}
    </span>
  );
}

/** "from its transcript" under a member's answer; nothing for the usual path. */
export function SourceMark({ source, member }: { source: AnswerSource | undefined; member: string }) {
  const label = sourceLabel(source);
  if (!label) return null;
  return (
    <span data-testid="answer-source" data-source={source} className="text-zinc-400 italic dark:text-zinc-500" title={sourceHint(source, member)}>
      {label}
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
  return name === USER ? 'you' : name;
}

/** Who wrote a message, as the reader thinks of it: the user's own sends are "you" under any sender name. */
export function senderName(m: Pick<ThreadMessage, 'from' | 'sentAs'>): string {
  return isFromUser(m) ? 'you' : displayName(m.from);
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
