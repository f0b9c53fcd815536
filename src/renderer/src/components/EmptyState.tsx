import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useActions, useDeck } from '../state/context';
import { sortTerminals } from '../state/terminal-state';
import { LaunchButton } from './LaunchDialog';
import { TerminalIcon } from './icons';

/** Terminals Teamdeck hosts whose teams are not listed (yet, or any more): one click opens each. */
function HostedTerminals() {
  const actions = useActions();
  const rows = useDeck(useShallow((s) => sortTerminals(s.terminals).map((t) => `${t.id}\u0000${t.title} · ${t.state}`)));
  if (rows.length === 0) return null;
  return (
    <div className="mt-5">
      <h2 className="text-xs font-medium tracking-wide text-zinc-500 uppercase dark:text-zinc-400">Terminals Teamdeck hosts</h2>
      <ul className="mt-1.5 space-y-1">
        {rows.map((r) => {
          const [id, label] = r.split('\u0000') as [string, string];
          return (
            <li key={id}>
              <button type="button" data-testid={`open-terminal-${id}`} onClick={() => actions.openTerminal(id)} className="inline-flex items-center gap-1.5 text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400">
                <TerminalIcon width={13} height={13} />
                {label}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export function EmptyState({ onOpenSettings, onLaunch }: { onOpenSettings: () => void; onLaunch: () => void }) {
  const actions = useActions();
  const root = useDeck((s) => s.teamsRoot);
  const source = useDeck((s) => s.rootSource);
  const alsoLooked = useDeck((s) => s.alsoLooked);
  const canStartDemo = useDeck((s) => s.canStartDemo);
  const canLaunch = useDeck((s) => s.launch.available);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const startDemo = async () => {
    setBusy(true);
    setError(undefined);
    const err = await actions.startDemo();
    setBusy(false);
    if (err) setError(err);
  };

  return (
    <div data-testid="empty-state" className="flex flex-1 items-center justify-center overflow-y-auto p-8">
      <div className="w-full max-w-lg">
        <div className="mb-5 flex h-10 w-10 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600 dark:bg-indigo-500/15 dark:text-indigo-300">
          <svg viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true">
            <circle cx="8" cy="9" r="3" />
            <circle cx="16.5" cy="9.5" r="2.5" />
            <path d="M3 19c.6-3 2.6-4.5 5-4.5s4.4 1.5 5 4.5M13.5 15.2c.9-.5 1.9-.7 3-.7 2.1 0 3.8 1.4 4.5 4.5" />
          </svg>
        </div>
        <h1 className="text-lg font-semibold text-zinc-950 dark:text-white">
          No teams found in <span className="font-mono text-[15px] break-all">{root || 'the teams folder'}</span>
        </h1>
        <p className="mt-1.5 text-sm text-zinc-600 dark:text-zinc-400">
          Teamdeck is watching this folder{source ? ` (chosen by ${source})` : ''}. A team shows up here the moment Claude Code creates one.
        </p>

        {alsoLooked.length > 0 && (
          <div className="mt-5">
            <h2 className="text-xs font-medium tracking-wide text-zinc-500 uppercase dark:text-zinc-400">Also looked in</h2>
            <ul className="mt-1.5 space-y-1">
              {alsoLooked.map((p) => (
                <li key={p} className="font-mono text-xs break-all text-zinc-700 dark:text-zinc-300">
                  {p}
                </li>
              ))}
            </ul>
          </div>
        )}

        <div className="mt-5">
          <h2 className="text-xs font-medium tracking-wide text-zinc-500 uppercase dark:text-zinc-400">Point it elsewhere</h2>
          <ul className="mt-1.5 space-y-1.5 text-sm text-zinc-700 dark:text-zinc-300">
            <li>
              Set <code className="code-inline">TEAMDECK_TEAMS_DIR=/path/to/teams</code> before starting
            </li>
            <li>
              or start with <code className="code-inline">--teams-dir /path/to/teams</code>
            </li>
            <li>
              or choose a folder in{' '}
              <button type="button" onClick={onOpenSettings} className="font-medium text-indigo-600 hover:underline dark:text-indigo-400">
                Settings
              </button>
            </li>
          </ul>
        </div>

        <HostedTerminals />

        <div className="mt-6 flex items-center gap-3 border-t border-zinc-200 pt-5 dark:border-zinc-800">
          <LaunchButton onOpen={onLaunch} onOpenSettings={onOpenSettings} wide />
          {canLaunch && <span className="text-xs text-zinc-500 dark:text-zinc-400">Start Claude Code as a team lead in a terminal here; its team shows up when Claude makes it.</span>}
        </div>

        {canStartDemo && (
          <div className="mt-6 flex items-center gap-3 border-t border-zinc-200 pt-5 dark:border-zinc-800">
            <button type="button" data-testid="start-demo" disabled={busy} onClick={() => void startDemo()} className="btn-primary">
              {busy ? 'Starting…' : 'Start a demo team'}
            </button>
            <span className="text-xs text-zinc-500 dark:text-zinc-400">Simulated teammates in a separate folder; nothing touches your real teams.</span>
          </div>
        )}
        {error && (
          <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-400">
            Could not start the demo: {error}
          </p>
        )}
      </div>
    </div>
  );
}
