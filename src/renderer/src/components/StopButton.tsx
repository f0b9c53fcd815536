// Stop, beside a working member's activity: the lead's turn is stopped by Esc in its terminal
// (the host checks the screen first); where Claude offers no safe way (a teammate's turn), the
// button is off and says why, instead of pretending.
import { useState } from 'react';
import { useActions, useDeck } from '../state/context';

export function StopButton({ team, member }: { team: string; member: string }) {
  const actions = useActions();
  const a = useDeck((s) => s.byTeam[team]?.activity?.[member]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  if (a?.kind !== 'working' || !a.stop) return null;
  const off = !a.stop.available;
  return (
    <span className="inline-flex min-w-0 items-center gap-1.5">
      <button
        type="button"
        data-testid="stop-button"
        disabled={off || busy}
        aria-disabled={off || busy}
        title={off ? `Cannot stop ${member} from here: ${a.stop.reason ?? 'not available'}` : `Stop ${member}'s turn (Esc in the lead's terminal)`}
        onClick={() => {
          setBusy(true);
          setError(undefined);
          void actions.interruptMember(team, member).then((e) => {
            setBusy(false);
            setError(e);
          });
        }}
        className="btn-secondary shrink-0 !px-2 !py-0.5 !text-[11px] whitespace-nowrap disabled:opacity-50"
      >
        {busy ? 'Stopping…' : 'Stop'}
      </button>
      {off && a.stop.reason && (
        <span data-testid="stop-unavailable" className="truncate text-[11px] text-zinc-500 dark:text-zinc-400" title={a.stop.reason}>
          {a.stop.reason}
        </span>
      )}
      {error && (
        <span role="alert" data-testid="stop-error" className="truncate text-[11px] text-red-700 dark:text-red-400" title={error}>
          {error}
        </span>
      )}
    </span>
  );
}
