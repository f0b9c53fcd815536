// Answering a needs-you item from the queue itself: a permission prompt's Allow / Always allow /
// Deny (with an optional reason Claude passes on to the asking model), and a teammate's plan
// shown whole with Approve / Reject (with feedback). The host presses the keys in the lead's
// terminal only once its screen shows exactly this prompt; a refusal comes back in words and
// is shown here. Plans and reasons are plain text, never HTML.
import { useState } from 'react';
import type { AnswerChoice, NeedItem } from '../../../shared/types';
import { useActions } from '../state/context';

function Refusal({ error }: { error: string | undefined }) {
  if (!error) return null;
  return (
    <p role="alert" data-testid="need-answer-error" className="mt-1.5 text-[11px] break-words text-red-700 dark:text-red-400">
      {error}
    </p>
  );
}

export function PermissionAnswer({ need }: { need: NeedItem }) {
  const actions = useActions();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [reasonOpen, setReasonOpen] = useState(false);
  const [reason, setReason] = useState('');
  const answer = async (choice: AnswerChoice, why?: string) => {
    setBusy(true);
    setError(undefined);
    const refusal = await actions.answerPrompt({ need: need.id, choice, ...(why ? { reason: why } : {}) });
    setBusy(false);
    setError(refusal);
  };
  const btn = 'btn-secondary shrink-0 !px-2.5 !py-1 !text-xs whitespace-nowrap';
  return (
    <div data-testid="need-answer" className="mt-2">
      {need.ask?.subject && (
        <pre data-testid="need-ask" className="thin-scroll max-h-24 overflow-auto rounded bg-zinc-100 px-2 py-1 font-mono text-[11px] whitespace-pre-wrap text-zinc-800 dark:bg-zinc-900 dark:text-zinc-200">
          {need.ask.tool}: {need.ask.subject}
        </pre>
      )}
      <div className="mt-1.5 flex flex-wrap items-center gap-1.5">
        <button type="button" data-testid="need-allow" disabled={busy} onClick={() => void answer('allow')} className={btn}>
          Allow
        </button>
        <button type="button" data-testid="need-allow-always" disabled={busy} onClick={() => void answer('allow-always')} className={btn} title="Yes, and don’t ask again for this (as the dialog offers it)">
          Always allow
        </button>
        <button type="button" data-testid="need-deny" disabled={busy} onClick={() => void answer('deny')} className={btn}>
          Deny
        </button>
        <button type="button" data-testid="need-deny-reason" aria-expanded={reasonOpen} disabled={busy} onClick={() => setReasonOpen((o) => !o)} className="md-link text-[11px]">
          Deny with a reason…
        </button>
      </div>
      {reasonOpen && (
        <form
          className="mt-1.5 flex gap-1.5"
          onSubmit={(e) => {
            e.preventDefault();
            if (reason.trim()) void answer('deny', reason.trim());
          }}
        >
          <input
            data-testid="need-reason"
            value={reason}
            maxLength={2_000}
            onChange={(e) => setReason(e.target.value)}
            placeholder="What should Claude do instead?"
            aria-label="Reason, passed on to the asking model"
            className="min-w-0 flex-1 rounded border border-zinc-300 bg-white px-2 py-1 text-xs dark:border-zinc-600 dark:bg-zinc-800"
          />
          <button type="submit" data-testid="need-deny-send" disabled={busy || !reason.trim()} className={btn}>
            Deny
          </button>
        </form>
      )}
      <Refusal error={error} />
    </div>
  );
}

export function PlanAnswer({ need }: { need: NeedItem }) {
  const actions = useActions();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [feedback, setFeedback] = useState('');
  const answer = async (approve: boolean) => {
    setBusy(true);
    setError(undefined);
    const text = feedback.trim();
    setError(await actions.answerPlan({ need: need.id, approve, ...(text ? { feedback: text } : {}) }));
    setBusy(false);
  };
  const btn = 'btn-secondary shrink-0 !px-2.5 !py-1 !text-xs whitespace-nowrap';
  return (
    <div data-testid="need-plan" className="mt-2">
      {need.plan !== undefined && (
        <pre data-testid="need-plan-text" className="thin-scroll max-h-64 overflow-auto rounded bg-zinc-100 px-2 py-1.5 text-[12px] whitespace-pre-wrap text-zinc-800 dark:bg-zinc-900 dark:text-zinc-200">
          {need.plan}
        </pre>
      )}
      {need.answer?.available ? (
        <>
          <textarea
            data-testid="need-plan-feedback"
            value={feedback}
            maxLength={2_000}
            rows={2}
            onChange={(e) => setFeedback(e.target.value)}
            placeholder="Feedback for the teammate (optional to approve, sent with a rejection)"
            aria-label="Feedback on the plan"
            className="mt-1.5 w-full rounded border border-zinc-300 bg-white px-2 py-1 text-xs dark:border-zinc-600 dark:bg-zinc-800"
          />
          <div className="mt-1 flex items-center gap-1.5">
            <button type="button" data-testid="need-plan-approve" disabled={busy} onClick={() => void answer(true)} className={btn}>
              Approve
            </button>
            <button type="button" data-testid="need-plan-reject" disabled={busy} onClick={() => void answer(false)} className={btn}>
              Reject
            </button>
            <span className="text-[11px] text-zinc-500 dark:text-zinc-400">Typed to the lead as you; the lead sends the answer.</span>
          </div>
        </>
      ) : (
        need.answer?.reason && <p className="mt-1 text-[11px] text-zinc-500 dark:text-zinc-400">Teamdeck cannot answer it here: {need.answer.reason}.</p>
      )}
      <Refusal error={error} />
    </div>
  );
}
