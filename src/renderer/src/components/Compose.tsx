import { useEffect, useRef, type KeyboardEvent } from 'react';
import { MAX_TEXT_BYTES, textBytes } from '../../../shared/send-rules';
import { useShallow } from 'zustand/react/shallow';
import { memberKey } from '../state/deck-state';
import { useActions, useDeck } from '../state/context';
import { composeArrival, composeBlock, composeNote } from '../state/selectors';
import { ClockIcon, SendIcon } from './icons';
import { modKey } from '../lib/platform';
import { channelHint } from '../lib/channels';
import { isLeadOf } from '../state/terminal-state';
import { ChannelSwitch, useChannels } from './ChannelChoice';

export const COMPOSE_ID = 'compose-text';

/** Puts the caret back in the compose box (Esc, after switching members). */
export function focusCompose(): void {
  const el = document.getElementById(COMPOSE_ID);
  if (el instanceof HTMLTextAreaElement && !el.disabled) {
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }
}

export function Compose({ team, member }: { team: string; member: string }) {
  const actions = useActions();
  const key = memberKey(team, member);
  const draft = useDeck((s) => s.drafts[key]);
  const error = useDeck((s) => s.sendErrors[key]);
  const sending = useDeck((s) => !!s.sending[key]);
  const block = useDeck(useShallow((s) => composeBlock(s, team, member)));
  const note = useDeck((s) => composeNote(s, team, member));
  const arrival = useDeck(useShallow((s) => composeArrival(s, team, member)));
  const channels = useChannels(team, member);
  const isLead = useDeck((s) => isLeadOf(s, team, member));
  const chosen = channels.chosen;
  // The host's words for the channel a send will use; before it has answered (or if it cannot), the team's sender name.
  const arrives = chosen
    ? {
        label: chosen.label,
        hint: chosen.available ? (channelHint(chosen.kind, member, isLead) ?? arrival?.hint ?? chosen.label) : `Not possible now: ${chosen.reason ?? 'unavailable'}`,
      }
    : arrival;
  const text = draft?.text ?? '';
  const summary = draft?.summary ?? '';
  const disabled = block !== undefined;
  // The engine's limit, counted as it counts it, shown as the text nears it: a text over it is
  // refused here, before Send, in the engine's words (issue 28, item 6).
  const length = lengthNote(text);
  const canSend = !disabled && !sending && text.trim().length > 0 && !length?.over;
  const box = useRef<HTMLTextAreaElement>(null);
  // The window opens ready to type: the caret in the compose box unless something else has it.
  useEffect(() => {
    if (document.activeElement === null || document.activeElement === document.body) focusCompose();
  }, [team, member]);

  const send = async () => {
    if (!canSend) return;
    await actions.send(team, member);
    box.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement | HTMLInputElement>) => {
    // Enter sends; Shift+Enter is a new line; never send in the middle of an IME composition.
    if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  return (
    <div className="border-t border-zinc-200 px-5 pt-3 pb-2.5 dark:border-zinc-800">
      {note && !disabled && (
        <p
          id="compose-note"
          data-testid="compose-note"
          className="mb-2 flex items-start gap-1.5 rounded-md bg-amber-50 px-2.5 py-1.5 text-xs text-amber-900 dark:bg-amber-500/10 dark:text-amber-200"
        >
          <ClockIcon width={12} height={12} className="mt-0.5 shrink-0" />
          <span>{note}</span>
        </p>
      )}
      <div
        className={`rounded-xl border bg-white shadow-xs transition-colors dark:bg-zinc-800/60 ${
          error ? 'border-red-400 dark:border-red-500/70' : 'border-zinc-300 focus-within:border-indigo-400 dark:border-zinc-700 dark:focus-within:border-indigo-400/70'
        } ${disabled ? 'opacity-60' : ''}`}
      >
        <textarea
          ref={box}
          id={COMPOSE_ID}
          data-testid="compose"
          aria-label={`Message ${member}`}
          aria-describedby={error ? 'send-error' : disabled ? 'compose-disabled' : note ? 'compose-note compose-hint' : 'compose-hint'}
          aria-invalid={error || length?.over ? true : undefined}
          rows={1}
          value={text}
          disabled={disabled}
          readOnly={sending}
          placeholder={block?.kind === 'ended' ? 'This team has ended; nothing can be sent' : block ? `${member} has shut down` : `Message ${member}…`}
          onChange={(e) => actions.setDraft(team, member, { text: e.target.value })}
          onKeyDown={onKeyDown}
          className="field-sizing-content block max-h-52 min-h-[40px] w-full resize-none bg-transparent px-3.5 pt-2.5 pb-1 leading-relaxed text-zinc-900 outline-none placeholder:text-zinc-400 disabled:cursor-not-allowed dark:text-zinc-100 dark:placeholder:text-zinc-500"
        />
        <div className="flex items-center gap-2 px-2 pb-2">
          <input
            data-testid="compose-summary"
            aria-label="Summary (optional)"
            value={summary}
            disabled={disabled}
            readOnly={sending}
            maxLength={200}
            placeholder="Summary (optional)"
            onChange={(e) => actions.setDraft(team, member, { summary: e.target.value })}
            onKeyDown={onKeyDown}
            className="min-w-0 flex-1 rounded-md bg-transparent px-1.5 py-1 text-xs text-zinc-700 outline-none placeholder:text-zinc-400 focus:bg-zinc-100 disabled:cursor-not-allowed dark:text-zinc-300 dark:placeholder:text-zinc-500 dark:focus:bg-zinc-800"
          />
          <button
            type="button"
            data-testid="send"
            onClick={() => void send()}
            disabled={!canSend}
            className="inline-flex items-center gap-1.5 rounded-lg bg-indigo-600 px-3 py-1.5 text-xs font-semibold text-white shadow-xs outline-none hover:bg-indigo-500 focus-visible:ring-2 focus-visible:ring-indigo-400/60 disabled:cursor-not-allowed disabled:bg-zinc-300 disabled:text-zinc-500 disabled:shadow-none dark:disabled:bg-zinc-700 dark:disabled:text-zinc-400"
          >
            <SendIcon width={12} height={12} />
            {sending ? 'Sending…' : 'Send'}
          </button>
        </div>
      </div>
      {length && (
        <p
          id="compose-length"
          data-testid="compose-length"
          data-over={length.over || undefined}
          role={length.over ? 'alert' : undefined}
          className={`mt-1.5 px-1 text-right text-[11px] tabular-nums ${length.over ? 'text-red-700 dark:text-red-400' : 'text-zinc-500 dark:text-zinc-400'}`}
        >
          {length.words}
        </p>
      )}
      {error ? (
        <p id="send-error" role="alert" data-testid="send-error" className="mt-1.5 px-1 text-xs text-red-700 dark:text-red-400">
          Not sent: {error}
        </p>
      ) : block ? (
        <p id="compose-disabled" data-testid="compose-disabled" data-kind={block.kind} className="mt-1.5 px-1 text-xs text-zinc-500 dark:text-zinc-400">
          {block.text}
        </p>
      ) : (
        // A div, not a p: it holds the channel switch, a div, which a p may not contain.
        <div id="compose-hint" className="mt-1.5 px-1 text-[11px] text-zinc-400 dark:text-zinc-500">
          {arrives && (
            <>
              <span data-testid="compose-arrival" data-channel={chosen?.kind} title={arrives.hint} className="text-zinc-500 dark:text-zinc-400">
                Arrives {arrives.label}
                {chosen && !chosen.available && chosen.reason ? ` (not now: ${chosen.reason})` : ''}
              </span>
              {channels.options && channels.options.length > 1 && (
                <>
                  {' '}
                  <ChannelSwitch team={team} member={member} options={channels.options} chosen={chosen?.kind} />
                </>
              )}
              {' · '}
            </>
          )}
          <kbd>Enter</kbd> to send · <kbd>Shift+Enter</kbd> for a new line · <kbd>{modKey()}+K</kbd> to jump to a member
        </div>
      )}
    </div>
  );
}

/** Shown from three quarters of the limit on: how much of it the text uses, and when it is over, that it cannot be sent. */
export function lengthNote(text: string): { over: boolean; words: string } | undefined {
  // Three bytes at most per UTF-16 unit: far below the mark, nothing to count.
  if (text.length * 3 < MAX_TEXT_BYTES * 0.75) return undefined;
  const bytes = textBytes(text);
  if (bytes < MAX_TEXT_BYTES * 0.75) return undefined;
  const of = `${bytes.toLocaleString('en-US')} / ${MAX_TEXT_BYTES.toLocaleString('en-US')} bytes`;
  return bytes > MAX_TEXT_BYTES ? { over: true, words: `${of}: too long to send; the limit is ${MAX_TEXT_BYTES.toLocaleString('en-US')} bytes` } : { over: false, words: of };
}

