// "Check this setup" in Settings: the host's `doctor` call, the same report `teamdeck doctor`
// prints (the claude found and its version against the tested range, the agent-teams switch,
// tmux, the folders, the engine), each finding with what to do. Text only, never HTML.
import { useState } from 'react';
import type { DoctorLevel, DoctorReport } from '../../../shared/types';
import { useActions } from '../state/context';

const LEVEL: Record<DoctorLevel, { label: string; className: string }> = {
  ok: { label: 'OK', className: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300' },
  note: { label: 'Note', className: 'bg-zinc-200 text-zinc-700 dark:bg-zinc-700 dark:text-zinc-200' },
  warning: { label: 'Warning', className: 'bg-amber-100 text-amber-900 dark:bg-amber-500/15 dark:text-amber-200' },
  problem: { label: 'Problem', className: 'bg-red-100 text-red-800 dark:bg-red-500/15 dark:text-red-300' },
};

export function DoctorPanel() {
  const { doctor } = useActions();
  const [report, setReport] = useState<DoctorReport>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    const r = await doctor();
    setBusy(false);
    if ('error' in r) {
      setError(r.error);
      setReport(undefined);
    } else {
      setError(undefined);
      setReport(r.report);
    }
  };
  const c = report?.claude;
  return (
    <section data-testid="doctor" aria-labelledby="doctor-title" className="mt-5 border-t border-zinc-200 pt-4 dark:border-zinc-700">
      <div className="flex items-center justify-between gap-3">
        <h3 id="doctor-title" className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
          Check this setup
        </h3>
        <button type="button" data-testid="doctor-run" onClick={() => void run()} disabled={busy} className="btn-secondary">
          {busy ? 'Checking…' : report ? 'Check again' : 'Check'}
        </button>
      </div>
      <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">The same checks as <span className="font-mono">teamdeck doctor</span>.</p>
      {error && (
        <p role="alert" className="mt-2 text-xs text-red-700 dark:text-red-400">
          The checks could not run: {error}
        </p>
      )}
      {report && (
        <div className="mt-2 text-xs">
          <p data-testid="doctor-summary" className="text-zinc-700 dark:text-zinc-300">
            Claude Code: {c?.path ? <span className="font-mono break-all">{c.path}</span> : 'not found'}
            {c?.version && <> · {c.version}</>} · tested with {report.provenRange.oldest}–{report.provenRange.newest}
          </p>
          <ul className="mt-2 space-y-1.5">
            {report.findings.map((f, i) => (
              <li key={`${f.check}-${i}`} data-testid={`doctor-finding-${f.check}`} data-level={f.level} className="flex items-start gap-2">
                <span className={`mt-px shrink-0 rounded px-1 text-[10px] font-medium uppercase ${LEVEL[f.level].className}`}>{LEVEL[f.level].label}</span>
                <span className="min-w-0 text-zinc-700 dark:text-zinc-300">
                  <span className="break-words">{f.summary}</span>
                  {f.fix && <span className="block text-zinc-500 dark:text-zinc-400">{f.fix}</span>}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
