import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useActions, useDeck } from '../state/context';
import { endedWhen, teamGroups, teamUnread } from '../state/selectors';
import { ChevronDownIcon } from './icons';

interface Row {
  id: string;
  label: string;
}

const SEP = '\u0000';

/** Running teams first; ended ones (still browsable) in their own group below, newest first, with when they ended. */
export function TeamSwitcher() {
  const { openTeam } = useActions();
  const selected = useDeck((s) => s.selectedTeam ?? '');
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
        ...ended.map((t) => ['e', t.id, `${t.name} · ${endedWhen(t, s.now)}${unread(t.id)}`].join(SEP)),
      ];
    }),
  );
  const { running, ended } = useMemo(() => {
    const out: { running: Row[]; ended: Row[] } = { running: [], ended: [] };
    for (const k of keys) {
      const [group, id, label] = k.split(SEP) as [string, string, string];
      (group === 'e' ? out.ended : out.running).push({ id, label });
    }
    return out;
  }, [keys]);
  const options = (rows: Row[]) =>
    rows.map((r) => (
      <option key={r.id} value={r.id}>
        {r.label}
      </option>
    ));
  return (
    <label className="relative block">
      <span className="sr-only">Team</span>
      <select
        data-testid="team-switcher"
        value={selected}
        onChange={(e) => openTeam(e.target.value)}
        className="w-full cursor-pointer appearance-none truncate rounded-md border border-zinc-200 bg-white py-1.5 pr-7 pl-2.5 text-[13px] font-semibold text-zinc-900 shadow-xs outline-none hover:border-zinc-300 focus-visible:ring-2 focus-visible:ring-indigo-500/50 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-100 dark:hover:border-zinc-600"
      >
        {ended.length === 0 ? (
          options(running)
        ) : (
          <>
            {running.length > 0 && <optgroup label="Running">{options(running)}</optgroup>}
            <optgroup label="Ended">{options(ended)}</optgroup>
          </>
        )}
      </select>
      <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-2 -translate-y-1/2 text-zinc-400" />
    </label>
  );
}
