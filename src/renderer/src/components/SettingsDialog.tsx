import { useState, type FormEvent } from 'react';
import { DEFAULT_SENDER_NAME, senderNameProblem } from '../lib/sender-name';
import { DoctorPanel } from './DoctorPanel';
import { THEME_CHOICES, type ThemeChoice } from '../../../shared/contract';
import { useActions, useDeck } from '../state/context';
import { PriceOverrides } from './PriceOverrides';

const THEME_WORDS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

export function SettingsDialog({ onClose }: { onClose: () => void }) {
  const actions = useActions();
  const settings = useDeck((s) => s.settings);
  const root = useDeck((s) => s.teamsRoot);
  const source = useDeck((s) => s.rootSource);
  const [teamsDir, setTeamsDir] = useState(settings.teamsDir);
  const [idle, setIdle] = useState(String(settings.idleMinutes));
  const [notifications, setNotifications] = useState(settings.notifications);
  const [needsNotifications, setNeedsNotifications] = useState(settings.needsNotifications ?? true);
  const [senderName, setSenderName] = useState(settings.senderName ?? DEFAULT_SENDER_NAME);
  const [claudePath, setClaudePath] = useState(settings.claudePath ?? '');
  const [answerFromTeamdeck, setAnswerFromTeamdeck] = useState(settings.answerFromTeamdeck ?? true);
  const [theme, setTheme] = useState<ThemeChoice>(settings.theme ?? 'system');
  const nameProblem = senderNameProblem(senderName);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const idleMinutes = Number(idle);
    if (!Number.isFinite(idleMinutes) || idleMinutes <= 0) {
      setError('Idle after must be a positive number of minutes.');
      return;
    }
    if (nameProblem) return;
    setBusy(true);
    setError(undefined);
    const err = await actions.saveSettings({ teamsDir: teamsDir.trim(), idleMinutes, notifications, needsNotifications, senderName, claudePath: claudePath.trim(), answerFromTeamdeck, theme });
    setBusy(false);
    if (err) setError(err);
    else onClose();
  };

  return (
    <div
      className="dialog-backdrop"
      onMouseDown={(e) => e.target === e.currentTarget && onClose()}
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
        aria-labelledby="settings-title"
        data-testid="settings"
        onSubmit={(e) => void submit(e)}
        className="dialog w-[min(480px,100%)]"
      >
        <div className="dialog-body" data-testid="settings-body">
        <h2 id="settings-title" className="text-base font-semibold text-zinc-950 dark:text-white">
          Settings
        </h2>
        <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
          Watching <span className="font-mono">{root}</span> ({source})
        </p>
        <label className="mt-4 block text-sm font-medium text-zinc-800 dark:text-zinc-200">
          Teams folder
          <input
            autoFocus
            data-testid="settings-teams-dir"
            value={teamsDir}
            onChange={(e) => setTeamsDir(e.target.value)}
            placeholder="Default: $CLAUDE_CONFIG_DIR/teams, else ~/.claude/teams"
            className="input mt-1 font-mono text-xs"
          />
          <span className="mt-1 block text-xs font-normal text-zinc-500 dark:text-zinc-400">
            Leave empty for the default. TEAMDECK_TEAMS_DIR and --teams-dir take precedence when set.
          </span>
        </label>
        <label className="mt-4 block text-sm font-medium text-zinc-800 dark:text-zinc-200">
          Idle after (minutes without events)
          <input
            data-testid="settings-idle"
            type="number"
            min={1}
            step={1}
            value={idle}
            onChange={(e) => setIdle(e.target.value)}
            className="input mt-1 w-28"
          />
        </label>
        <label className="mt-4 block text-sm font-medium text-zinc-800 dark:text-zinc-200">
          Sender name on current teams
          <input
            data-testid="settings-sender-name"
            value={senderName}
            onChange={(e) => setSenderName(e.target.value)}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={nameProblem ? true : undefined}
            aria-describedby="sender-name-help"
            className={`input mt-1 w-56 font-mono text-xs ${nameProblem ? 'border-red-400 focus:border-red-400 focus:ring-red-500/20 dark:border-red-500/70' : ''}`}
          />
          {nameProblem ? (
            <span id="sender-name-help" role="alert" data-testid="sender-name-error" className="mt-1 block text-xs font-normal text-red-700 dark:text-red-400">
              {nameProblem}
            </span>
          ) : (
            <span id="sender-name-help" className="mt-1 block text-xs font-normal text-zinc-500 dark:text-zinc-400">
              The name written as the sender of your messages on current Claude Code teams: teammates see them as a teammate message from it. Legacy teams
              always get <span className="font-mono">user</span>.
            </span>
          )}
        </label>
        <label className="mt-4 block text-sm font-medium text-zinc-800 dark:text-zinc-200">
          Claude Code executable
          <input
            data-testid="settings-claude-path"
            value={claudePath}
            onChange={(e) => setClaudePath(e.target.value)}
            spellCheck={false}
            autoComplete="off"
            placeholder="claude"
            aria-describedby="claude-path-help"
            className="input mt-1 font-mono text-xs"
          />
          <span id="claude-path-help" className="mt-1 block text-xs font-normal text-zinc-500 dark:text-zinc-400">
            The program “Launch a team” starts; empty = claude from the PATH.
          </span>
        </label>
        <fieldset className="mt-4">
          <legend className="text-sm font-medium text-zinc-800 dark:text-zinc-200">Theme</legend>
          <div role="radiogroup" aria-label="Theme" className="mt-1 inline-flex rounded-md bg-zinc-100 p-0.5 dark:bg-zinc-800">
            {THEME_CHOICES.map((t) => (
              <label
                key={t}
                className={`cursor-pointer rounded px-2.5 py-0.5 text-xs font-medium has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500/50 ${
                  theme === t ? 'bg-white text-zinc-900 shadow-xs dark:bg-zinc-700 dark:text-white' : 'text-zinc-500 hover:text-zinc-800 dark:text-zinc-400 dark:hover:text-zinc-200'
                }`}
              >
                <input type="radio" name="theme" value={t} data-testid={`settings-theme-${t}`} checked={theme === t} onChange={() => setTheme(t)} className="sr-only" />
                {THEME_WORDS[t]}
              </label>
            ))}
          </div>
        </fieldset>
        <label className="mt-4 flex items-center gap-2 text-sm text-zinc-800 dark:text-zinc-200">
          <input type="checkbox" checked={notifications} onChange={(e) => setNotifications(e.target.checked)} className="accent-indigo-600" />
          Notify me of new messages while the window is in the background
        </label>
        <label className="mt-2 flex items-start gap-2 text-sm text-zinc-800 dark:text-zinc-200">
          <input
            type="checkbox"
            data-testid="settings-needs-notifications"
            checked={needsNotifications}
            onChange={(e) => setNeedsNotifications(e.target.checked)}
            className="mt-1 accent-indigo-600"
          />
          <span>
            Desktop notifications for needs
            <span className="block text-xs text-zinc-500 dark:text-zinc-400">A permission prompt, a plan to approve or a stuck message in any team.</span>
          </span>
        </label>
        <PriceOverrides />
        <label className="mt-2 flex items-start gap-2 text-sm text-zinc-800 dark:text-zinc-200">
          <input
            type="checkbox"
            data-testid="settings-answer-from-teamdeck"
            checked={answerFromTeamdeck}
            onChange={(e) => setAnswerFromTeamdeck(e.target.checked)}
            className="mt-1 accent-indigo-600"
          />
          <span>
            Answer prompts from Teamdeck
            <span className="block text-xs text-zinc-500 dark:text-zinc-400">Allow / Deny on permission prompts, plan answers and Stop: Teamdeck presses the keys in the lead’s terminal, after checking its screen.</span>
          </span>
        </label>
        <DoctorPanel />
        </div>
        <div className="dialog-footer">
          {error && (
            <p role="alert" className="mr-auto min-w-0 text-sm text-red-700 dark:text-red-400">
              {error}
            </p>
          )}
          <button type="button" onClick={onClose} className="btn-secondary">
            Cancel
          </button>
          <button type="submit" disabled={busy || !!nameProblem} className="btn-primary">
            {busy ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </div>
  );
}
