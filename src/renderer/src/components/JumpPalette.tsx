import { useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useActions, useDeck } from '../state/context';
import { memberState, orderedRoster, teamGroups } from '../state/selectors';
import { PresenceDot } from './bits';
import { SearchIcon } from './icons';
import { useListKeys } from './useListKeys';

interface Choice {
  team: string;
  teamName: string;
  member: string;
  state: 'active' | 'idle' | 'terminated';
  isLead: boolean;
  teamEnded: boolean;
}

/** Letters of the query in order, anywhere in the name: "rsr" finds "researcher". */
export function matches(query: string, text: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  const t = text.toLowerCase();
  let i = 0;
  for (const ch of t) if (ch === q[i]) i++;
  return i >= q.length;
}

export function JumpPalette({ onClose }: { onClose: () => void }) {
  const actions = useActions();
  const [query, setQuery] = useState('');
  // Rows as strings so the selector stays shallow-comparable while dots tick.
  const rows = useDeck(
    useShallow((s) => {
      // The open team first, then running teams, then ended ones, newest first.
      const { running, ended } = teamGroups(s.teams);
      const teams = [...running, ...ended].sort((a, b) => (a.id === s.selectedTeam ? -1 : b.id === s.selectedTeam ? 1 : 0));
      return teams.flatMap((t) =>
        orderedRoster(s.byTeam[t.id]?.roster ?? []).map((r) =>
          [t.id, t.name, r.name, memberState(s, t.id, r), r.isLead ? '1' : '', t.state === 'ended' ? '1' : ''].join('\u0000'),
        ),
      );
    }),
  );
  const multiTeam = useDeck((s) => s.teams.length > 1);
  const choices = useMemo<Choice[]>(
    () =>
      rows.map((row) => {
        const [team, teamName, member, state, lead, ended] = row.split('\u0000') as [string, string, string, Choice['state'], string, string];
        return { team, teamName, member, state, isLead: lead === '1', teamEnded: ended === '1' };
      }),
    [rows],
  );
  const shown = useMemo(() => choices.filter((c) => matches(query, c.member) || matches(query, `${c.teamName} ${c.member}`)), [choices, query]);

  const choose = (c: Choice | undefined) => {
    if (!c) return;
    actions.openMember(c.team, c.member);
    onClose();
  };
  const { current, setActive, onKeyDown } = useListKeys(shown, { choose, close: onClose });

  return (
    <div
      className="fixed inset-0 z-50 flex items-start justify-center bg-zinc-950/30 pt-[14vh] backdrop-blur-[1px] dark:bg-black/50"
      onMouseDown={(e) => e.target === e.currentTarget && onClose()}
    >
      <div
        role="dialog"
        aria-modal="true"
        aria-label="Jump to a member"
        data-testid="jump-palette"
        className="w-[min(460px,calc(100vw-32px))] overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-2xl dark:border-zinc-700 dark:bg-zinc-900"
      >
        <div className="flex items-center gap-2 border-b border-zinc-200 px-3 dark:border-zinc-800">
          <SearchIcon className="text-zinc-400" />
          <input
            autoFocus
            data-testid="palette-input"
            role="combobox"
            aria-expanded="true"
            aria-controls="palette-list"
            aria-activedescendant={shown[current] ? `palette-${current}` : undefined}
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setActive(0);
            }}
            onKeyDown={onKeyDown}
            placeholder="Jump to a member…"
            className="h-11 flex-1 bg-transparent text-sm text-zinc-900 outline-none placeholder:text-zinc-400 dark:text-zinc-100"
          />
        </div>
        <ul id="palette-list" role="listbox" className="max-h-80 overflow-y-auto p-1.5">
          {shown.length === 0 && <li className="px-3 py-2 text-sm text-zinc-500">No member matches “{query}”.</li>}
          {shown.map((c, i) => (
            <li
              key={`${c.team}/${c.member}`}
              id={`palette-${i}`}
              role="option"
              aria-selected={i === current}
              data-testid={`palette-${c.member}`}
              onMouseMove={() => setActive(i)}
              onClick={() => choose(c)}
              className={`flex cursor-pointer items-center gap-2.5 rounded-md px-2.5 py-1.5 text-sm ${
                i === current ? 'bg-indigo-50 text-zinc-950 dark:bg-indigo-500/20 dark:text-white' : 'text-zinc-700 dark:text-zinc-300'
              }`}
            >
              <PresenceDot name={c.member} state={c.state} testid={`palette-dot-${c.member}`} />
              <span className="font-medium">{c.member}</span>
              {c.isLead && <span className="text-[11px] text-zinc-500">lead</span>}
              {c.state === 'terminated' && !c.teamEnded && <span className="text-[11px] text-zinc-500">Terminated</span>}
              {multiTeam && (
                <span className="ml-auto text-xs text-zinc-400">
                  {c.teamName}
                  {c.teamEnded ? ' · ended' : ''}
                </span>
              )}
              {!multiTeam && c.teamEnded && <span className="ml-auto text-xs text-zinc-400">team ended</span>}
            </li>
          ))}
        </ul>
        <div className="border-t border-zinc-200 px-3 py-1.5 text-[11px] text-zinc-400 dark:border-zinc-800">
          ↑↓ to choose · Enter to open · Esc to close
        </div>
      </div>
    </div>
  );
}
