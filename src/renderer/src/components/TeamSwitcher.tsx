import { useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useActions, useDeck } from '../state/context';
import { pointInTime } from '../lib/time';
import { endedWhen, teamGroups, teamOf, teamUnread } from '../state/selectors';
import { sortTerminals } from '../state/terminal-state';
import type { TerminalInfo } from '../../../shared/types';
import { ChevronDownIcon } from './icons';

interface Row {
  id: string;
  label: string;
}

const SEP = '\u0000';
/** Option values for hosted terminals; team ids never start with it (they are folder names). */
export const TERMINAL_OPTION = 'terminal:';

function terminalLabel(t: TerminalInfo, now: number): string {
  if (t.state === 'exited') return `${t.title} · exited${t.exitedAt ? ` ${pointInTime(t.exitedAt, now)}` : ''}`;
  return `${t.title} · ${t.state}`;
}

/** How long after the window's first frame the Ended group is filled in. */
const ENDED_AFTER_MS = 250;

/**
 * False for the window's first frame and a moment after, then true: the Ended group (hundreds
 * of options, each with a date formatted, and a select whose options Blink lays out one by one)
 * comes after the first paint, which does not wait for it. A profile of the scale fixture's
 * start had them at about 150 ms of the page's main thread before the first roster row was
 * painted. Not at the very next task: the first frame's own follow-up work (the socket's first
 * answers) goes first.
 */
function usePastFirstPaint(): boolean {
  const [past, setPast] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => setPast(true), ENDED_AFTER_MS)));
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, []);
  return past;
}

/**
 * Running teams first; ended ones (still browsable) in their own group below, newest first, with
 * when they ended; then the terminals Teamdeck hosts (running and exited), so a lead whose team
 * has not appeared yet, or has ended, can be opened.
 */
export function TeamSwitcher() {
  const { openTeam, openTerminal } = useActions();
  const allEnded = usePastFirstPaint();
  const selected = useDeck((s) => (s.view === 'terminal' && s.openTerminal ? `${TERMINAL_OPTION}${s.openTerminal}` : (s.selectedTeam ?? '')));
  // Rows as strings, so the selector stays shallow-comparable while the clock ticks.
  const keys = useDeck(
    useShallow((s) => {
      const { running, ended } = teamGroups(s.teams);
      const unread = (id: string) => {
        const n = teamUnread(s.byTeam[id]);
        return n ? ` (${n} unread)` : '';
      };
      return [
        ...running.map((t) => ['r', t.id, `${t.name}${unread(t.id)}`].join(SEP)),
        // Before the first paint, only the ended team on screen (the select must hold its value).
        ...(allEnded ? ended : ended.filter((t) => t.id === s.selectedTeam)).map((t) => ['e', t.id, `${t.name} · ${endedWhen(t, s.now)}${unread(t.id)}`].join(SEP)),
        ...sortTerminals(s.terminals).map((t) => ['t', `${TERMINAL_OPTION}${t.id}`, terminalLabel(t, s.now)].join(SEP)),
      ];
    }),
  );
  const rows = useMemo(() => {
    const out: { running: Row[]; ended: Row[]; terminals: Row[] } = { running: [], ended: [], terminals: [] };
    for (const k of keys) {
      const [group, id, label] = k.split(SEP) as [string, string, string];
      (group === 'e' ? out.ended : group === 't' ? out.terminals : out.running).push({ id, label });
    }
    return out;
  }, [keys]);
  const { running, ended } = rows;
  const terminals = rows.terminals.length;
  const current = useDeck((s) => {
    if (s.view === 'terminal') {
      const t = s.terminals.find((x) => x.id === s.openTerminal);
      return `${t?.title ?? 'Terminal'}${SEP}terminal`;
    }
    const t = teamOf(s, s.selectedTeam);
    return t ? `${t.name}${SEP}${t.state === 'ended' ? 'ended' : ''}` : '';
  });
  const [currentName, currentMark] = current.split(SEP) as [string, string | undefined];
  const options = (rows: Row[]) =>
    rows.map((r) => (
      <option key={r.id} value={r.id}>
        {r.label}
      </option>
    ));
  // The native select keeps the keyboard, the screen reader and the open list; over it, the
  // closed state shows just the team's name and an "ended" mark, which a long option label
  // ("session-1a2b3c4d · ended yesterday 18:20") would truncate.
  return (
    <label className="relative flex w-full items-center gap-1.5 rounded-md border border-zinc-200 bg-white py-1.5 pr-7 pl-2.5 shadow-xs focus-within:ring-2 focus-within:ring-indigo-500/50 hover:border-zinc-300 dark:border-zinc-700 dark:bg-zinc-800 dark:hover:border-zinc-600">
      <span className="sr-only">Team</span>
      <span aria-hidden="true" className="min-w-0 truncate text-[13px] font-semibold text-zinc-900 dark:text-zinc-100">
        {currentName}
      </span>
      {currentMark && (
        <span
          aria-hidden="true"
          className="shrink-0 rounded bg-zinc-200/80 px-1 text-[10px] font-medium tracking-wide text-zinc-600 uppercase dark:bg-zinc-700/70 dark:text-zinc-300"
        >
          {currentMark}
        </span>
      )}
      <select
        data-testid="team-switcher"
        value={selected}
        onChange={(e) => {
          const v = e.target.value;
          if (v.startsWith(TERMINAL_OPTION)) openTerminal(v.slice(TERMINAL_OPTION.length));
          else openTeam(v);
        }}
        className="absolute inset-0 h-full w-full cursor-pointer appearance-none opacity-0 outline-none"
      >
        {/* Nothing selected yet (a terminal's team still to come): the select shows no team. */}
        {selected === '' && <option value="">Choose a team or terminal</option>}
        {ended.length === 0 && terminals === 0 ? (
          options(running)
        ) : (
          <>
            {running.length > 0 && <optgroup label="Running">{options(running)}</optgroup>}
            {ended.length > 0 && <optgroup label="Ended">{options(ended)}</optgroup>}
            {terminals > 0 && <optgroup label="Terminals">{options(rows.terminals)}</optgroup>}
          </>
        )}
      </select>
      <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-2 -translate-y-1/2 text-zinc-400" />
    </label>
  );
}
