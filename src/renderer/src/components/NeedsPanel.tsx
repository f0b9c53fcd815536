// "Needs you": one queue across all teams of what waits on the human (permission prompts, plan
// approvals, messages Claude holds for approval, stuck messages, idle members with mail, inboxes
// nobody reads), newest first, each with how long it has waited and a button that opens where to
// act: a prompt in a lead's terminal that Teamdeck hosts opens that terminal, where answering it
// clears the item. Items leave when the host drops them.
import { memo, useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { NeedItem, NeedKind } from '../../../shared/types';
import { elapsed, exactTime } from '../lib/time';
import { modKey } from '../lib/platform';
import { useActions, useDeck } from '../state/context';
import { needActionLabel, needTarget, orderedRoster, teamOf } from '../state/selectors';
import { useTickingNow } from '../state/ticking-now';
import { focusCompose } from './Compose';
import { PermissionAnswer, PlanAnswer } from './NeedAnswer';
import { focusTerminal } from '../lib/terminal-focus';
import { BanIcon, BellIcon, ClockIcon, CloseIcon, HandIcon, MoonIcon, TrayOutIcon, WarningIcon } from './icons';

const KIND: Record<NeedKind, { label: string; icon: typeof ClockIcon; tone: string }> = {
  permission: { label: 'Permission', icon: HandIcon, tone: 'text-amber-700 dark:text-amber-400' },
  'plan-approval': { label: 'Plan approval', icon: HandIcon, tone: 'text-amber-700 dark:text-amber-400' },
  'stuck-queued': { label: 'Queued', icon: ClockIcon, tone: 'text-amber-700 dark:text-amber-400' },
  'stuck-taken': { label: 'Taken, not seen', icon: TrayOutIcon, tone: 'text-sky-700 dark:text-sky-400' },
  'idle-with-mail': { label: 'Idle with mail', icon: MoonIcon, tone: 'text-zinc-600 dark:text-zinc-300' },
  'orphan-inbox': { label: 'Nobody reads it', icon: BanIcon, tone: 'text-red-700 dark:text-red-400' },
  held: { label: 'Held by Claude', icon: HandIcon, tone: 'text-amber-700 dark:text-amber-400' },
  budget: { label: 'Budget', icon: WarningIcon, tone: 'text-red-700 dark:text-red-400' },
};

const FALLBACK = { label: 'Needs you', icon: WarningIcon, tone: 'text-zinc-600 dark:text-zinc-300' };

function Waited({ since }: { since: number }) {
  const now = useTickingNow(true);
  return (
    <span data-testid="need-waited" title={`since ${exactTime(since)}`} className="shrink-0 text-[11px] text-zinc-500 tabular-nums dark:text-zinc-400">
      waiting {elapsed(now - since)}
    </span>
  );
}

/** The orphan inbox's "Send to…": the team's members, one click away from a compose box to them. */
function SendToPicker({ team, inbox, count, onPick, onRead }: { team: string; inbox: string; count: number; onPick: (member: string) => void; onRead: () => void }) {
  const actions = useActions();
  const roster = useDeck((s) => s.byTeam[team]?.roster);
  useEffect(() => {
    actions.loadRoster(team);
  }, [actions, team]);
  const members = roster ? orderedRoster(roster).filter((r) => r.state !== 'terminated' && r.name !== inbox) : undefined;
  return (
    <div data-testid="send-to" className="mt-2 rounded-md border border-zinc-200 p-2 dark:border-zinc-700">
      <p className="mb-1.5 text-[11px] text-zinc-500 dark:text-zinc-400">
        Who was it meant for? Teamdeck opens your compose box to them, for you to write what should reach them.{' '}
        <button type="button" data-testid="send-to-read" onClick={onRead} className="md-link">
          Read the {count === 1 ? 'stranded message' : `${count} stranded messages`} in the feed
        </button>
      </p>
      {!members ? (
        <p className="text-xs text-zinc-500">Loading members…</p>
      ) : members.length === 0 ? (
        <p className="text-xs text-zinc-500">Nobody on this team can take a message now.</p>
      ) : (
        <div className="flex flex-wrap gap-1.5">
          {members.map((m) => (
            <button key={m.name} type="button" data-testid={`send-to-${m.name}`} onClick={() => onPick(m.name)} className="btn-secondary !px-2 !py-0.5 !text-xs">
              {m.name}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

const NeedRow = memo(function NeedRow({ need, onDone, opened }: { need: NeedItem; onDone: () => void; opened: boolean }) {
  const actions = useActions();
  const teamName = useDeck((s) => teamOf(s, need.team)?.name ?? need.team);
  const target = useDeck(useShallow((s) => needTarget(s, need)));
  const [picking, setPicking] = useState(false);
  const kind = KIND[need.kind] ?? FALLBACK;
  const Icon = kind.icon;

  const openThread = (team: string, member: string) => {
    actions.openMember(team, member);
    actions.setPane('thread');
    onDone();
    requestAnimationFrame(focusCompose);
  };
  const teamKnown = useDeck((s) => teamOf(s, need.team) !== undefined);
  const act = () => {
    if (target.kind === 'terminal') {
      // The lead's Terminal tab when its team is listed; else the terminal on its own.
      if (teamKnown) actions.openTeamTerminal(target.team);
      else actions.openTerminal(target.terminal);
      onDone();
      focusTerminal(target.terminal);
    } else if (target.kind === 'pick') setPicking((p) => !p);
    else if (target.kind === 'usage') {
      actions.openTeam(target.team);
      actions.openUsage(true, 'team');
      onDone();
    }
    else if (target.kind === 'message') {
      actions.openMessage(target.team, target.member, target.id);
      onDone();
      requestAnimationFrame(focusCompose);
    } else openThread(target.team, target.member);
  };

  return (
    <li
      data-testid="need"
      data-kind={need.kind}
      data-id={need.id}
      data-opened={opened || undefined}
      className={`rounded-lg border border-zinc-200 bg-white px-3 py-2.5 dark:border-zinc-700/80 dark:bg-zinc-800/50 ${opened ? 'ring-2 ring-indigo-500/60' : ''}`}
    >
      <div className="flex min-w-0 items-center gap-1.5 text-[11px]">
        <Icon width={12} height={12} className={`shrink-0 ${kind.tone}`} />
        <span className={`shrink-0 font-semibold ${kind.tone}`}>{kind.label}</span>
        <span className="min-w-0 truncate text-zinc-500 dark:text-zinc-400">
          · {teamName}
          {need.member ? ` · ${need.member}` : ''}
        </span>
        <span className="ml-auto" />
        <Waited since={need.since} />
      </div>
      <p data-testid="need-title" className="mt-1 font-medium break-words text-zinc-900 dark:text-zinc-100">
        {need.title}
      </p>
      {need.detail && <p className="mt-0.5 text-xs break-words text-zinc-500 dark:text-zinc-400">{need.detail}</p>}
      {need.kind === 'permission' && need.answer?.available && <PermissionAnswer need={need} />}
      {need.kind === 'plan-approval' && <PlanAnswer need={need} />}
      <div className="mt-2 flex items-center gap-2">
        <button type="button" data-testid="need-action" aria-expanded={target.kind === 'pick' ? picking : undefined} onClick={act} className="btn-secondary shrink-0 !px-2.5 !py-1 !text-xs whitespace-nowrap">
          {needActionLabel(target)}
        </button>
        {(need.kind === 'permission' || need.kind === 'held') && (
          <span className="text-[11px] text-zinc-500 dark:text-zinc-400">
            {need.answer?.available
              ? 'Or answer it in the lead’s terminal; the item clears once it is answered.'
              : target.kind === 'terminal'
                ? 'Answer it in the lead’s terminal; the item clears once you have.'
                : `Teamdeck cannot answer it for you${need.answer?.reason ? ` (${need.answer.reason})` : ''}: the prompt is in the lead’s terminal.`}
          </span>
        )}
      </div>
      {picking && target.kind === 'pick' && (
        <SendToPicker
          team={target.team}
          inbox={need.orphan?.inbox ?? ''}
          count={need.orphan?.messages ?? 0}
          onPick={(m) => openThread(target.team, m)}
          onRead={() => {
            // The feed keeps what was written to the inbox nobody reads: narrowed to it.
            actions.openTeam(target.team);
            actions.setFeedFilter(target.team, need.orphan?.inbox ?? '');
            actions.openFeed(true);
            onDone();
          }}
        />
      )}
    </li>
  );
});

export function NeedsPanel({ onClose }: { onClose: () => void }) {
  const actions = useActions();
  const needs = useDeck((s) => s.needs);
  const loaded = useDeck((s) => s.needsLoaded !== undefined);
  const error = useDeck((s) => s.needsError);
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => panel.current?.focus(), []);
  const openNeed = useDeck((s) => s.openNeed);
  const opened = openNeed && needs.some((n) => n.id === openNeed.id) ? openNeed : undefined;
  // The item a notification was clicked for: in view, its first button focused (Allow for a prompt).
  useEffect(() => {
    if (!opened) return;
    const row = [...(panel.current?.querySelectorAll<HTMLElement>('[data-testid="need"]') ?? [])].find((el) => el.dataset.id === opened.id);
    row?.scrollIntoView({ block: 'nearest' });
    (row?.querySelector<HTMLElement>('[data-testid="need-allow"], button') ?? row)?.focus();
  }, [opened]);

  return (
    <div className="fixed inset-0 bottom-7 z-40 bg-zinc-950/10 dark:bg-black/30" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={panel}
        tabIndex={-1}
        role="dialog"
        aria-label="Needs you"
        data-testid="needs-panel"
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
          }
        }}
        className="absolute top-0 bottom-0 left-64 flex w-[min(440px,calc(100vw-17rem))] flex-col border-r border-zinc-200 bg-zinc-50 shadow-2xl outline-none dark:border-zinc-700 dark:bg-zinc-900"
      >
        <header className="flex items-center gap-2 border-b border-zinc-200 px-4 py-2.5 dark:border-zinc-800">
          <BellIcon className="text-zinc-500" />
          <h2 className="text-[15px] font-semibold text-zinc-950 dark:text-white">Needs you</h2>
          <span className="text-xs text-zinc-500 tabular-nums">{needs.length > 0 ? `${needs.length} across all teams` : ''}</span>
          <button type="button" aria-label="Close" data-testid="needs-close" onClick={onClose} className="ml-auto rounded p-1 text-zinc-500 outline-none hover:bg-zinc-200 focus-visible:ring-2 focus-visible:ring-indigo-500/50 dark:hover:bg-zinc-800">
            <CloseIcon width={13} height={13} />
          </button>
        </header>
        <div className="thin-scroll min-h-0 flex-1 overflow-y-auto p-3">
          {error && !loaded ? (
            <div className="flex flex-col items-center gap-2 py-10 text-center text-sm">
              <p className="text-red-600 dark:text-red-400">Could not load what the teams need: {error}</p>
              <button type="button" className="btn-secondary" onClick={() => actions.retryNeeds()}>
                Try again
              </button>
            </div>
          ) : !loaded ? (
            <p className="py-10 text-center text-sm text-zinc-500">Loading…</p>
          ) : needs.length === 0 ? (
            <div data-testid="needs-empty" className="flex flex-col items-center gap-1.5 px-4 py-12 text-center text-zinc-500 dark:text-zinc-400">
              <p className="text-sm font-medium text-zinc-700 dark:text-zinc-200">Nothing needs you right now.</p>
              <p className="text-xs leading-relaxed">
                Permission prompts, plans waiting for approval, messages that are stuck, members that went idle with mail and inboxes nobody reads show up here,
                from every team, as soon as Teamdeck sees them.
              </p>
            </div>
          ) : (
            <ul className="space-y-2">
              {needs.map((n) => (
                <NeedRow key={n.id} need={n} onDone={onClose} opened={opened?.id === n.id} />
              ))}
            </ul>
          )}
        </div>
        <footer className="border-t border-zinc-200 px-4 py-1.5 text-[11px] text-zinc-400 dark:border-zinc-800">
          <kbd>{modKey()}+Shift+N</kbd> opens and closes · <kbd>Esc</kbd> closes
        </footer>
      </div>
    </div>
  );
}

/** The sidebar's "Needs you" button, with how many items wait. */
export function NeedsButton({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  const count = useDeck((s) => s.needs.length);
  return (
    <button
      type="button"
      data-testid="needs-button"
      aria-expanded={open}
      aria-label={count ? `Needs you: ${count}` : 'Needs you: nothing'}
      title={`${modKey()}+Shift+N`}
      onClick={onToggle}
      className={`mb-2 flex w-full items-center gap-2 rounded-md border px-2.5 py-1.5 text-left text-[13px] font-medium outline-none focus-visible:ring-2 focus-visible:ring-indigo-500/50 ${
        count
          ? 'border-amber-300 bg-amber-50 text-amber-900 hover:bg-amber-100 dark:border-amber-500/40 dark:bg-amber-500/10 dark:text-amber-200 dark:hover:bg-amber-500/15'
          : 'border-zinc-200 bg-white text-zinc-600 hover:bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-300 dark:hover:bg-zinc-700'
      } ${open ? 'ring-2 ring-indigo-500/40' : ''}`}
    >
      <BellIcon width={13} height={13} className="shrink-0" />
      Needs you
      {count > 0 ? (
        <span data-testid="needs-count" className="ml-auto min-w-[18px] rounded-full bg-amber-500 px-1.5 text-center text-[11px] leading-[18px] font-semibold text-white tabular-nums dark:bg-amber-500">
          {count > 99 ? '99+' : count}
        </span>
      ) : (
        <span className="ml-auto text-[11px] font-normal text-zinc-400">nothing</span>
      )}
    </button>
  );
}
