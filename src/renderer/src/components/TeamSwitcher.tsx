import { useShallow } from 'zustand/react/shallow';
import { useActions, useDeck } from '../state/context';
import { teamUnread } from '../state/selectors';
import { ChevronDownIcon } from './icons';

export function TeamSwitcher() {
  const { openTeam } = useActions();
  const selected = useDeck((s) => s.selectedTeam ?? '');
  const teams = useDeck(useShallow((s) => s.teams.map((t) => `${t.id}\u0000${t.name}\u0000${teamUnread(s.byTeam[t.id])}`)));
  return (
    <label className="relative block">
      <span className="sr-only">Team</span>
      <select
        data-testid="team-switcher"
        value={selected}
        onChange={(e) => openTeam(e.target.value)}
        className="w-full cursor-pointer appearance-none rounded-md border border-zinc-200 bg-white py-1.5 pr-7 pl-2.5 text-[13px] font-semibold text-zinc-900 shadow-xs outline-none hover:border-zinc-300 focus-visible:ring-2 focus-visible:ring-indigo-500/50 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-100 dark:hover:border-zinc-600"
      >
        {teams.map((row) => {
          const [id, name, unread] = row.split('\u0000') as [string, string, string];
          return (
            <option key={id} value={id}>
              {name}
              {unread !== '0' ? ` (${unread} unread)` : ''}
            </option>
          );
        })}
      </select>
      <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-2 -translate-y-1/2 text-zinc-400" />
    </label>
  );
}
