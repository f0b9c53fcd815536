// Ctrl/Cmd+F: search every team's history (running and ended) or the open team's, newest first.
// Each hit shows its team, thread, time and the text around the matches, highlighted with <mark>
// elements built from the engine's ranges (message text is never HTML). Up/Down choose, Enter
// or a click opens the thread scrolled to the message (teammates' traffic opens the feed).
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { SearchHit, SearchResult } from '../../../shared/contract';
import { useActions, useDeck } from '../state/context';
import { pointInTime } from '../lib/time';
import { SearchIcon } from './icons';
import { useListKeys } from './useListKeys';

/** The snippet as text nodes and <mark> elements: ranges outside the text, or overlapping, are dropped. */
export function highlighted(text: string, ranges: [number, number][]): ReactNode[] {
  const out: ReactNode[] = [];
  let at = 0;
  for (const [a, b] of ranges) {
    if (a < at || b > text.length || b <= a) continue;
    if (a > at) out.push(text.slice(at, a));
    out.push(
      <mark key={a} className="rounded-sm bg-amber-200/80 px-0.5 text-inherit dark:bg-amber-400/30">
        {text.slice(a, b)}
      </mark>,
    );
    at = b;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

function who(h: SearchHit): string {
  if (h.direction === 'you') return `you → ${h.to}`;
  if (h.direction === 'member') return `${h.from} → you`;
  return `${h.from} → ${h.to}`;
}

type Scope = 'all' | 'team';
type State = { kind: 'idle' } | { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'done'; query: string; result: SearchResult };

const DEBOUNCE_MS = 150;

export function SearchPanel({ onClose }: { onClose: () => void }) {
  const actions = useActions();
  const selectedTeam = useDeck((s) => s.selectedTeam);
  const teamName = useDeck((s) => s.teams.find((t) => t.id === s.selectedTeam)?.name);
  const now = useDeck((s) => s.now);
  const [query, setQuery] = useState('');
  const [scope, setScope] = useState<Scope>('all');
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [again, setAgain] = useState(0);
  const asked = useRef(0);
  const list = useRef<HTMLUListElement>(null);

  const open = (h: SearchHit | undefined) => {
    if (!h) return;
    if (h.member) actions.openMessage(h.team, h.member, h.messageId);
    else actions.openFeedMessage(h.team, h.messageId);
    onClose();
  };

  const hits = useMemo(() => (state.kind === 'done' ? state.result.hits : []), [state]);
  const { current, setActive, onKeyDown } = useListKeys(hits, { choose: open, close: onClose });

  const team = scope === 'team' ? selectedTeam : undefined;
  useEffect(() => {
    const q = query.trim();
    if (q === '') {
      setState({ kind: 'idle' });
      return;
    }
    const n = ++asked.current;
    const t = setTimeout(() => {
      setState((s) => (s.kind === 'done' ? s : { kind: 'loading' }));
      void actions.search({ query: q, limit: 50, ...(team ? { team } : {}) }).then((r) => {
        if (n !== asked.current) return;
        setActive(0);
        setState('error' in r ? { kind: 'error', message: r.error } : { kind: 'done', query: q, result: r.result });
      });
    }, DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [query, team, actions, again, setActive]);

  // While the index is being built, ask again now and then: the hits grow with it.
  const building = state.kind === 'done' && state.result.building;
  useEffect(() => {
    if (!building) return;
    const t = setTimeout(() => setAgain((n) => n + 1), 1_000);
    return () => clearTimeout(t);
  }, [building, state]);

  useEffect(() => {
    list.current?.querySelector(`#search-hit-${current}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [current]);

  return (
    <div
      className="fixed inset-0 z-50 flex items-start justify-center bg-zinc-950/30 pt-[10vh] backdrop-blur-[1px] dark:bg-black/50"
      onMouseDown={(e) => e.target === e.currentTarget && onClose()}
    >
      <div
        role="dialog"
        aria-modal="true"
        aria-label="Search messages"
        data-testid="search-panel"
        className="flex max-h-[75vh] w-[min(680px,calc(100vw-32px))] flex-col overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-2xl dark:border-zinc-700 dark:bg-zinc-900"
      >
        <div className="flex items-center gap-2 border-b border-zinc-200 px-3 dark:border-zinc-800">
          <SearchIcon className="text-zinc-400" />
          <input
            autoFocus
            data-testid="search-input"
            role="combobox"
            aria-expanded="true"
            aria-controls="search-list"
            aria-activedescendant={hits[current] ? `search-hit-${current}` : undefined}
            value={query}
            maxLength={1_000}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={onKeyDown}
            placeholder='Search messages: words, "a phrase", prefix*'
            className="h-11 flex-1 bg-transparent text-sm text-zinc-900 outline-none placeholder:text-zinc-400 dark:text-zinc-100"
          />
          <select
            data-testid="search-scope"
            aria-label="Which teams"
            value={scope}
            onChange={(e) => setScope(e.target.value as Scope)}
            className="rounded-md border border-zinc-200 bg-white py-1 pr-6 pl-2 text-xs text-zinc-700 outline-none focus-visible:ring-2 focus-visible:ring-indigo-500/50 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-200"
          >
            <option value="all">All teams</option>
            <option value="team" disabled={!selectedTeam}>
              {teamName ? `Only ${teamName}` : 'This team'}
            </option>
          </select>
        </div>
        {state.kind === 'done' && state.result.building && (
          <p data-testid="search-building" className="border-b border-zinc-200 px-3 py-1.5 text-[11px] text-amber-700 dark:border-zinc-800 dark:text-amber-300">
            Building the index… {Math.round((state.result.progress ?? 0) * 100)}%: these are the messages indexed so far.
          </p>
        )}
        <ul id="search-list" ref={list} role="listbox" data-testid="search-results" className="min-h-0 flex-1 overflow-y-auto p-1.5">
          {state.kind === 'idle' && <li className="px-3 py-2 text-sm text-zinc-500">Type words or a “phrase” to search every team’s messages.</li>}
          {state.kind === 'loading' && <li className="px-3 py-2 text-sm text-zinc-500">Searching…</li>}
          {state.kind === 'error' && (
            <li role="alert" data-testid="search-error" className="px-3 py-2 text-sm text-red-600 dark:text-red-400">
              {state.message}
            </li>
          )}
          {state.kind === 'done' && hits.length === 0 && (
            <li data-testid="search-empty" className="px-3 py-2 text-sm text-zinc-500">
              No messages match “{state.query}”{team && teamName ? ` in ${teamName}` : ''}.
            </li>
          )}
          {hits.map((h, i) => (
            <li
              key={`${h.team}/${h.messageId}`}
              id={`search-hit-${i}`}
              role="option"
              aria-selected={i === current}
              data-testid="search-hit"
              data-message-id={h.messageId}
              onMouseMove={() => setActive(i)}
              onClick={() => open(h)}
              className={`cursor-pointer rounded-md px-2.5 py-1.5 ${i === current ? 'bg-indigo-50 dark:bg-indigo-500/20' : ''}`}
            >
              <div className="flex items-baseline gap-2 text-[11px] text-zinc-500 dark:text-zinc-400">
                <span className="font-medium text-zinc-700 dark:text-zinc-200">{h.teamName}</span>
                <span>{h.member ? who(h) : `${who(h)} · feed`}</span>
                <span className="ml-auto shrink-0" title={new Date(h.time).toLocaleString()}>
                  {pointInTime(h.time, now)}
                </span>
              </div>
              <p className="mt-0.5 line-clamp-2 text-[13px] break-words text-zinc-800 dark:text-zinc-200">{highlighted(h.snippet.text, h.snippet.ranges)}</p>
            </li>
          ))}
          {state.kind === 'done' && state.result.more && <li className="px-3 py-1.5 text-[11px] text-zinc-400">Newest {hits.length} shown; add words to narrow it down.</li>}
        </ul>
        <div className="border-t border-zinc-200 px-3 py-1.5 text-[11px] text-zinc-400 dark:border-zinc-800">↑↓ to choose · Enter to open · Esc to close</div>
      </div>
    </div>
  );
}
