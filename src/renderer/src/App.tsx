import { useEffect, useRef, useState } from 'react';
import { Compose, focusCompose } from './components/Compose';
import { EmptyState } from './components/EmptyState';
import { FeedView } from './components/FeedView';
import { ClaudeVersionNote } from './components/ClaudeVersionNote';
import { MemberHeader } from './components/Header';
import { JumpPalette } from './components/JumpPalette';
import { LaunchButton, LaunchDialog } from './components/LaunchDialog';
import { preloadMarkdown } from './components/LazyMarkdown';
import { NeedsButton, NeedsPanel } from './components/NeedsPanel';
import { SearchPanel } from './components/SearchPanel';
import { Roster } from './components/Roster';
import { SettingsDialog } from './components/SettingsDialog';
import { StatusBar } from './components/StatusBar';
import { TasksView } from './components/TasksView';
import { UsageView } from './components/UsageView';
import { TeamSwitcher } from './components/TeamSwitcher';
import { TerminalPane } from './components/LazyTerminalPane';
import { TerminalView } from './components/TerminalView';
import { ThreadView } from './components/ThreadView';
import { TimelineView } from './components/TimelineView';
import { modKey } from './lib/platform';
import { useApplyTheme } from './components/theme-hooks';
import { useActions, useDeck, useDeckStore } from './state/context';
import { EMPTY_ROSTER, currentMember, endedWhen, orderedRoster, teamOf, teamUnread } from './state/selectors';
import { shownPane, terminalOfTeam } from './state/terminal-state';

/** An ended team's line under the switcher: when, and why, in words. */
function useEndedLine(): string | undefined {
  return useDeck((s) => {
    const t = teamOf(s, s.selectedTeam);
    if (t?.state !== 'ended') return undefined;
    const when = endedWhen(t, s.now);
    const reason = t.endedReason?.trim().replace(/[.\s]+$/, '');
    return `${when.charAt(0).toUpperCase()}${when.slice(1)}${reason ? `: ${reason}` : ''}.`;
  });
}

function Sidebar({ needsOpen, onToggleNeeds, onLaunch, onOpenSettings }: { needsOpen: boolean; onToggleNeeds: () => void; onLaunch: () => void; onOpenSettings: () => void }) {
  const description = useDeck((s) => teamOf(s, s.selectedTeam)?.description);
  const ended = useEndedLine();
  const hasTeam = useDeck((s) => s.selectedTeam !== undefined);
  return (
    <aside className="flex w-56 shrink-0 flex-col lg:w-64 border-r border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-950/70">
      <div className="px-3 pt-3 pb-2">
        <NeedsButton open={needsOpen} onToggle={onToggleNeeds} />
        <TeamSwitcher />
        {ended && (
          <p data-testid="team-ended" className="mt-1.5 px-0.5 text-[11px] leading-snug text-zinc-600 dark:text-zinc-300">
            {ended}
          </p>
        )}
        {description && <p className="mt-1.5 truncate px-0.5 text-[11px] text-zinc-500 dark:text-zinc-400" title={description}>{description}</p>}
        <ClaudeVersionNote />
        <div className="mt-2">
          <LaunchButton onOpen={onLaunch} onOpenSettings={onOpenSettings} />
        </div>
      </div>
      {hasTeam ? <Roster /> : <div className="flex-1" />}
      <div className="border-t border-zinc-200 px-3 py-2 text-[11px] text-zinc-400 dark:border-zinc-800 dark:text-zinc-500">
        <kbd>{modKey()}+K</kbd> jump · <kbd>{modKey()}+F</kbd> search · <kbd>Alt+↑↓</kbd> next member · <kbd>{modKey()}+Shift+A</kbd> activity
      </div>
    </aside>
  );
}

function Main() {
  const team = useDeck((s) => s.selectedTeam);
  const view = useDeck((s) => s.view);
  const member = useDeck(currentMember);
  const pane = useDeck((s) => (s.selectedTeam && member ? shownPane(s, s.selectedTeam, member) : s.pane));
  const terminal = useDeck((s) => (s.view === 'terminal' ? s.openTerminal : terminalOfTeam(s, s.selectedTeam)?.id));
  if (view === 'terminal' && terminal) return <TerminalView id={terminal} />;
  if (!team) return <div className="flex flex-1 items-center justify-center text-sm text-zinc-500">Choose a team or a terminal in the switcher.</div>;
  if (view === 'feed') return <FeedView team={team} />;
  if (view === 'tasks') return <TasksView team={team} />;
  if (view === 'usage') return <UsageView team={team} />;
  if (!member) return <div className="flex flex-1 items-center justify-center text-sm text-zinc-500">Loading members…</div>;
  return (
    <section
      className="flex min-w-0 flex-1 flex-col"
      aria-label={pane === 'activity' ? `${member}’s activity` : pane === 'terminal' ? `${member}’s terminal` : `Conversation with ${member}`}
    >
      <MemberHeader team={team} member={member} />
      {pane === 'terminal' && terminal ? (
        // Typing goes straight into the terminal: no compose box under it.
        <TerminalPane key={terminal} id={terminal} />
      ) : (
        <>
          {pane === 'activity' ? (
            <TimelineView key={`${team}/${member}`} team={team} member={member} />
          ) : (
            <ThreadView key={`${team}/${member}`} team={team} member={member} />
          )}
          <Compose team={team} member={member} />
        </>
      )}
    </section>
  );
}

function LoadFailed() {
  const actions = useActions();
  const error = useDeck((s) => s.loadError);
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-3 p-8 text-center">
      <p className="text-sm font-medium text-zinc-900 dark:text-zinc-100">Teamdeck could not load its state.</p>
      <p className="max-w-md text-xs text-zinc-500 dark:text-zinc-400">{error}</p>
      <button type="button" className="btn-secondary" onClick={() => void actions.retryStart()}>
        Try again
      </button>
    </div>
  );
}

/** Window title: who is open, and how much is unread. */
function useDocumentTitle() {
  const title = useDeck((s) => {
    const team = s.teams.find((t) => t.id === s.selectedTeam);
    const unread = s.teams.reduce((n, t) => n + teamUnread(s.byTeam[t.id]), 0);
    const terminal = s.view === 'terminal' ? s.terminals.find((t) => t.id === s.openTerminal) : undefined;
    const where = terminal
      ? `${terminal.title} terminal`
      : !team
        ? ''
        : s.view === 'feed'
          ? `${team.name} feed`
          : `${currentMember(s) ?? ''} · ${team.name}`;
    return `${unread ? `(${unread}) ` : ''}${where ? `${where} — ` : ''}Teamdeck`;
  });
  useEffect(() => {
    document.title = title;
  }, [title]);
}

/**
 * The window. `firstScreen`: this render is the browser host's first screen (first-screen.tsx),
 * static markup shown until the page's script renders the live app over it. It is `inert` (a
 * click, focus or typing there is ignored, not taken and then lost) and says so in `data-phase`,
 * so nothing (a test, the bench) takes it for the ready app.
 */
export function App({ firstScreen = false }: { firstScreen?: boolean } = {}) {
  const store = useDeckStore();
  const phase = useDeck((s) => s.phase);
  // A terminal shown on its own needs the sidebar and main area even before any team exists.
  const hasTeams = useDeck((s) => s.teams.length > 0 || s.view === 'terminal');
  const [palette, setPalette] = useState(false);
  const [settings, setSettings] = useState(false);
  const [needs, setNeeds] = useState(false);
  const [launch, setLaunch] = useState(false);
  const [search, setSearch] = useState(false);
  const overlays = useRef({ palette, settings, needs, launch, search });
  overlays.current = { palette, settings, needs, launch, search };
  useDocumentTitle();
  useApplyTheme();
  // A clicked desktop notification of a needs-you item: the queue opens on it.
  const openNeed = useDeck((s) => s.openNeed);
  useEffect(() => {
    if (openNeed) setNeeds(true);
  }, [openNeed]);
  // Once the window has painted: the messages' markdown code, kept out of the first script.
  useEffect(() => {
    const t = setTimeout(preloadMarkdown, 0);
    return () => clearTimeout(t);
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setSettings(false);
        setLaunch(false);
        setSearch(false);
        setPalette((p) => !p);
        return;
      }
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'f') {
        if (store.getState().phase !== 'ready') return;
        e.preventDefault();
        setPalette(false);
        setSettings(false);
        setLaunch(false);
        setSearch(true);
        return;
      }
      const mod = (e.ctrlKey || e.metaKey) && !e.altKey && e.shiftKey;
      if (mod && e.key.toLowerCase() === 'l') {
        if (store.getState().phase !== 'ready') return;
        e.preventDefault();
        setPalette(false);
        setSettings(false);
        setNeeds(false);
        setLaunch(true);
        return;
      }
      if (mod && e.key.toLowerCase() === 'n') {
        e.preventDefault();
        setPalette(false);
        setSettings(false);
        setNeeds((n) => !n);
        return;
      }
      if (overlays.current.palette || overlays.current.settings || overlays.current.launch || overlays.current.search) return;
      const s = store.getState();
      if (overlays.current.needs && e.key === 'Escape') {
        e.preventDefault();
        setNeeds(false);
        return;
      }
      if (mod && e.key.toLowerCase() === 'a') {
        const team = s.selectedTeam;
        const member = team ? s.memberByTeam[team] : undefined;
        if (!team || !member) return;
        e.preventDefault();
        // From the lead's Terminal tab too: Activity, and again back to the thread.
        s.actions.setPane(s.view === 'thread' && shownPane(s, team, member) === 'activity' ? 'thread' : 'activity');
        return;
      }
      if (e.altKey && !e.ctrlKey && !e.metaKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
        const team = s.selectedTeam;
        if (!team) return;
        e.preventDefault();
        const names = orderedRoster(s.byTeam[team]?.roster ?? EMPTY_ROSTER).map((r) => r.name);
        if (names.length === 0) return;
        const at = s.view === 'thread' ? names.indexOf(s.memberByTeam[team] ?? '') : -1;
        const step = e.key === 'ArrowUp' ? -1 : 1;
        const next = at < 0 ? (step > 0 ? 0 : names.length - 1) : (at + step + names.length) % names.length;
        s.actions.openMember(team, names[next]!);
        return;
      }
      if (e.key === 'Escape' && !e.defaultPrevented) {
        // Esc in or beside a terminal belongs to the program in it (Claude's "interrupt").
        if (s.view === 'terminal' || (e.target instanceof Element && e.target.closest('[data-testid="terminal-pane"]'))) return;
        if (s.view === 'feed') s.actions.openFeed(false);
        else if (s.view === 'tasks') s.actions.openTasks(false);
        else if (s.view === 'usage') s.actions.openUsage(false);
        requestAnimationFrame(focusCompose);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);

  return (
    <div data-testid="app" data-phase={firstScreen ? 'first-screen' : phase} inert={firstScreen || undefined} className="flex h-full flex-col bg-white text-[13px] text-zinc-900 dark:bg-zinc-900 dark:text-zinc-100">
      <div className="flex min-h-0 flex-1">
        {phase === 'loading' && <div className="flex flex-1 items-center justify-center text-sm text-zinc-500">Loading teams…</div>}
        {phase === 'failed' && <LoadFailed />}
        {phase === 'ready' && !hasTeams && <EmptyState onOpenSettings={() => setSettings(true)} onLaunch={() => setLaunch(true)} />}
        {phase === 'ready' && hasTeams && (
          <>
            <Sidebar needsOpen={needs} onToggleNeeds={() => setNeeds((n) => !n)} onLaunch={() => setLaunch(true)} onOpenSettings={() => setSettings(true)} />
            <Main />
          </>
        )}
      </div>
      <StatusBar onOpenSettings={() => setSettings(true)} />
      {palette && (
        <JumpPalette
          onClose={() => {
            setPalette(false);
            requestAnimationFrame(focusCompose);
          }}
        />
      )}
      {search && (
        <SearchPanel
          onClose={() => {
            setSearch(false);
            requestAnimationFrame(focusCompose);
          }}
        />
      )}
      {settings && <SettingsDialog onClose={() => setSettings(false)} />}
      {launch && <LaunchDialog onClose={() => setLaunch(false)} />}
      {needs && phase === 'ready' && hasTeams && <NeedsPanel onClose={() => setNeeds(false)} />}
    </div>
  );
}
