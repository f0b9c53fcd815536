// "Launch a team…": starts an interactive `claude` lead in a terminal Teamdeck hosts. The project
// folder is required; a first prompt, a model and the permission mode are optional. Enter
// launches (Shift+Enter is a new line in the prompt), Esc closes. On success the dialog closes and
// the new terminal opens; its team follows when Claude makes it.
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { PERMISSION_MODES, type PermissionModeChoice } from '../../../shared/types';
import { PERMISSION_WORDS, launchRequest } from '../lib/launch';
import { modKey } from '../lib/platform';
import { useActions, useDeck } from '../state/context';
import { RocketIcon } from './icons';

const LAST_CWD_KEY = 'teamdeck.launch.cwd.v1';

function lastCwd(): string {
  try {
    return localStorage.getItem(LAST_CWD_KEY) ?? '';
  } catch {
    return '';
  }
}

function rememberCwd(cwd: string): void {
  try {
    localStorage.setItem(LAST_CWD_KEY, cwd);
  } catch {
    // Only a convenience: the next launch starts with an empty folder field.
  }
}

export function LaunchDialog({ onClose }: { onClose: () => void }) {
  const actions = useActions();
  const launch = useDeck((s) => s.launch);
  const [cwd, setCwd] = useState(lastCwd);
  const [prompt, setPrompt] = useState('');
  const [model, setModel] = useState('');
  const [mode, setMode] = useState<PermissionModeChoice>('default');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.select(), []);

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (busy || !launch.available) return;
    if (!cwd.trim()) {
      setError('Choose the project folder the lead works in.');
      first.current?.focus();
      return;
    }
    setBusy(true);
    setError(undefined);
    const req = launchRequest({ cwd, prompt, model, mode });
    const err = await actions.launchTeam(req);
    setBusy(false);
    if (err) {
      setError(err);
      return;
    }
    rememberCwd(req.cwd);
    onClose();
  };

  const onFieldKey = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  };

  return (
    <div
      className="dialog-backdrop"
      onMouseDown={(e) => e.target === e.currentTarget && !busy && onClose()}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <form
        role="dialog"
        aria-modal="true"
        aria-labelledby="launch-title"
        aria-describedby="launch-about"
        data-testid="launch-dialog"
        onSubmit={(e) => void submit(e)}
        className="dialog w-[min(520px,100%)]"
      >
        <div className="dialog-body" data-testid="launch-body">
        <h2 id="launch-title" className="text-base font-semibold text-zinc-950 dark:text-white">
          Launch a team
        </h2>
        <p id="launch-about" className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
          Starts Claude Code as a team lead in a terminal Teamdeck hosts{launch.backend === 'tmux' ? ' (in tmux, so it outlives this window)' : ''}. You type to it
          there as yourself; its team shows up here once Claude makes it.
        </p>
        {!launch.available && (
          <p role="alert" data-testid="launch-unavailable" className="mt-3 rounded-md bg-amber-50 px-2.5 py-1.5 text-xs text-amber-900 dark:bg-amber-500/10 dark:text-amber-200">
            Teamdeck cannot launch a team here: {launch.reason ?? 'this host does not support it'}.
          </p>
        )}
        <label className="mt-4 block text-sm font-medium text-zinc-800 dark:text-zinc-200">
          Project folder
          <input
            ref={first}
            data-testid="launch-cwd"
            value={cwd}
            aria-required="true"
            onChange={(e) => setCwd(e.target.value)}
            onKeyDown={onFieldKey}
            spellCheck={false}
            autoComplete="off"
            placeholder="/home/me/project or ~/project"
            className="input mt-1 font-mono text-xs"
          />
        </label>
        <label className="mt-4 block text-sm font-medium text-zinc-800 dark:text-zinc-200">
          First prompt <span className="font-normal text-zinc-500 dark:text-zinc-400">(optional)</span>
          <textarea
            data-testid="launch-prompt"
            value={prompt}
            onChange={(e) => setPrompt(e.target.value)}
            onKeyDown={onFieldKey}
            rows={3}
            placeholder="What the lead should start on; typed into its terminal once it is ready"
            className="input mt-1 resize-y leading-relaxed"
          />
          <span className="mt-1 block text-xs font-normal text-zinc-500 dark:text-zinc-400">
            <kbd>Shift+Enter</kbd> for a new line
          </span>
        </label>
        <div className="mt-4 flex flex-wrap gap-3">
          <label className="block min-w-40 flex-1 text-sm font-medium text-zinc-800 dark:text-zinc-200">
            Model <span className="font-normal text-zinc-500 dark:text-zinc-400">(optional)</span>
            <input
              data-testid="launch-model"
              value={model}
              onChange={(e) => setModel(e.target.value)}
              onKeyDown={onFieldKey}
              spellCheck={false}
              autoComplete="off"
              placeholder="Claude’s default"
              className="input mt-1 font-mono text-xs"
            />
          </label>
          <label className="block min-w-40 flex-1 text-sm font-medium text-zinc-800 dark:text-zinc-200">
            Permissions
            <select
              data-testid="launch-mode"
              value={mode}
              onChange={(e) => setMode(e.target.value as PermissionModeChoice)}
              className="input mt-1"
            >
              {PERMISSION_MODES.map((m) => (
                <option key={m} value={m}>
                  {PERMISSION_WORDS[m]}
                </option>
              ))}
            </select>
          </label>
        </div>
        {mode === 'bypassPermissions' && (
          <p className="mt-2 text-xs text-amber-800 dark:text-amber-300">The lead and its teammates will act without asking you first.</p>
        )}
        {error && (
          <p role="alert" data-testid="launch-error" className="mt-3 text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
        </div>
        <div className="dialog-footer">
          {busy && (
            <span data-testid="launch-progress" role="status" className="mr-auto text-xs text-zinc-500 dark:text-zinc-400">
              Starting claude…
            </span>
          )}
          <button type="button" onClick={onClose} className="btn-secondary">
            Cancel
          </button>
          <button type="submit" data-testid="launch-submit" disabled={busy || !launch.available} className="btn-primary">
            {busy ? 'Launching…' : 'Launch'}
          </button>
        </div>
      </form>
    </div>
  );
}

/** The "Launch a team…" button, or (when this host cannot launch) why not, in words. */
export function LaunchButton({ onOpen, onOpenSettings, wide = false }: { onOpen: () => void; onOpenSettings?: () => void; wide?: boolean }) {
  const launch = useDeck((s) => s.launch);
  if (!launch.available) {
    // The engine's reason is a sentence of its own ("The claude path …"); here it follows a colon.
    const reason = (launch.reason ?? 'this host does not support it').replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase());
    const why = `Launching a team is not available here: ${reason}.`;
    // A reason that Settings can fix ("set its path in Settings") comes with the way there.
    const fixable = onOpenSettings && /\bSettings\b/.test(launch.reason ?? '');
    return (
      <p data-testid="launch-unavailable-note" title={why} className={`text-[11px] leading-snug text-zinc-500 dark:text-zinc-400 ${wide ? '' : 'px-0.5'}`}>
        {why}
        {fixable && (
          <>
            {' '}
            <button type="button" data-testid="launch-open-settings" onClick={onOpenSettings} className="md-link">
              Open Settings
            </button>
          </>
        )}
      </p>
    );
  }
  return (
    <button
      type="button"
      data-testid="launch-open"
      title={`${modKey()}+Shift+L`}
      onClick={onOpen}
      className={
        wide
          ? 'btn-secondary'
          : 'flex w-full items-center gap-2 rounded-md border border-zinc-200 bg-white px-2.5 py-1.5 text-left text-[13px] font-medium text-zinc-700 outline-none hover:bg-zinc-100 focus-visible:ring-2 focus-visible:ring-indigo-500/50 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-200 dark:hover:bg-zinc-700'
      }
    >
      <RocketIcon width={13} height={13} className="shrink-0 text-zinc-500" />
      Launch a team…
      {!wide && <span className="ml-auto text-[11px] font-normal text-zinc-400">{modKey()}+Shift+L</span>}
    </button>
  );
}
