// "Export…": the open thread or the whole team as Markdown or JSON. The host builds the file
// (history/export.ts); the page saves it as a download. A menu button: Enter, Space or ↓ open
// it, ↑ ↓ Home End move, Esc closes it; what happened is said beside it in words.
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { ExportFormat } from '../../../shared/contract';
import { localTimeZone, saveFile } from '../lib/save-file';
import { useActions } from '../state/context';
import { DownloadIcon } from './icons';

const BUTTON =
  'inline-flex shrink-0 items-center gap-1.5 rounded-md border border-zinc-200 px-2.5 py-1 text-xs font-medium text-zinc-700 outline-none hover:bg-zinc-100 focus-visible:ring-2 focus-visible:ring-indigo-500/50 dark:border-zinc-700 dark:text-zinc-200 dark:hover:bg-zinc-800';

interface Choice {
  key: string;
  label: string;
  member?: string;
  format: ExportFormat;
}

type Status = { kind: 'busy' | 'done' | 'error'; text: string };

function choicesFor(member: string | undefined): Choice[] {
  return [
    ...(member
      ? [
          { key: 'thread-md', label: `Thread with ${member} as Markdown`, member, format: 'md' as const },
          { key: 'thread-json', label: `Thread with ${member} as JSON`, member, format: 'json' as const },
        ]
      : []),
    { key: 'team-md', label: 'Every message of the team as Markdown', format: 'md' },
    { key: 'team-json', label: 'Every message of the team as JSON', format: 'json' },
  ];
}

export function ExportMenu({ team, member }: { team: string; member?: string }) {
  const actions = useActions();
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState<Status>();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const choices = choicesFor(member);

  const items = () => [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
  const focusItem = (i: number) => requestAnimationFrame(() => items().at(i)?.focus());
  const close = useCallback((refocus: boolean) => {
    setOpen(false);
    if (refocus) requestAnimationFrame(() => button.current?.focus());
  }, []);

  // A click anywhere else closes the menu.
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!menu.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) close(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open, close]);

  // "Saved …" fades after a while; a failure stays a little longer.
  useEffect(() => {
    if (!status || status.kind === 'busy') return;
    const t = setTimeout(() => setStatus(undefined), status.kind === 'done' ? 8_000 : 15_000);
    return () => clearTimeout(t);
  }, [status]);

  const run = async (c: Choice) => {
    close(true);
    const what = c.member ? `the thread with ${c.member}` : 'every message of the team';
    setStatus({ kind: 'busy', text: `Exporting ${what}…` });
    const timeZone = localTimeZone();
    const r = await actions.exportConversation({ team, format: c.format, ...(c.member ? { member: c.member } : {}), ...(timeZone ? { timeZone } : {}) });
    if ('error' in r) {
      setStatus({ kind: 'error', text: `Could not export ${what}: ${r.error}` });
      return;
    }
    try {
      saveFile(r.file);
    } catch (e) {
      setStatus({ kind: 'error', text: `Could not save the file: ${e instanceof Error ? e.message : String(e)}` });
      return;
    }
    const n = r.file.count;
    setStatus({ kind: 'done', text: `Saved ${r.file.filename} (${n} message${n === 1 ? '' : 's'})` });
  };

  const onButtonKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && status?.kind !== 'busy') {
      e.preventDefault();
      setOpen(true);
      focusItem(e.key === 'ArrowDown' ? 0 : -1);
    }
  };

  const onMenuKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    const move = (i: number) => {
      e.preventDefault();
      list[(i + list.length) % list.length]?.focus();
    };
    if (e.key === 'ArrowDown') move(at + 1);
    else if (e.key === 'ArrowUp') move(at - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(list.length - 1);
    else if (e.key === 'Escape') {
      // Handled here: the window's Esc (back to the compose box) must not run as well.
      e.preventDefault();
      e.stopPropagation();
      close(true);
    } else if (e.key === 'Tab') close(false);
  };

  return (
    <div className="relative flex shrink-0 items-center">
      <button
        ref={button}
        type="button"
        data-testid="export-button"
        aria-haspopup="menu"
        aria-expanded={open}
        // Not `disabled` while an export runs: the button keeps the keyboard focus.
        aria-disabled={status?.kind === 'busy'}
        onClick={() => {
          if (status?.kind === 'busy') return;
          setOpen((o) => !o);
          if (!open) focusItem(0);
        }}
        onKeyDown={onButtonKey}
        title={member ? `Save the thread with ${member}, or every message of ${team}, as Markdown or JSON` : `Save every message of ${team} as Markdown or JSON`}
        className={`${BUTTON} aria-disabled:opacity-60`}
      >
        <DownloadIcon width={12} height={12} />
        Export…
      </button>
      {status && !open && (
        // Under the button, over the content: the header keeps its width for the member's name.
        <span
          role="status"
          data-testid="export-status"
          data-kind={status.kind}
          title={status.text}
          className={`absolute top-full right-0 z-30 mt-1 max-w-md truncate rounded-md border px-2.5 py-1 text-[11px] shadow-sm ${
            status.kind === 'error'
              ? 'border-red-200 bg-red-50 text-red-800 dark:border-red-500/40 dark:bg-red-950 dark:text-red-300'
              : 'border-zinc-200 bg-white text-zinc-600 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-300'
          }`}
        >
          {status.text}
        </span>
      )}
      {open && (
        <div
          ref={menu}
          role="menu"
          aria-label="Export"
          data-testid="export-menu"
          onKeyDown={onMenuKey}
          className="absolute top-full right-0 z-30 mt-1 w-72 rounded-md border border-zinc-200 bg-white py-1 shadow-lg dark:border-zinc-700 dark:bg-zinc-800"
        >
          {choices.map((c) => (
            <button
              key={c.key}
              type="button"
              role="menuitem"
              tabIndex={-1}
              data-testid={`export-${c.key}`}
              onClick={() => void run(c)}
              className="block w-full px-3 py-1.5 text-left text-xs text-zinc-700 outline-none hover:bg-zinc-100 focus:bg-indigo-50 focus:text-indigo-900 dark:text-zinc-200 dark:hover:bg-zinc-700 dark:focus:bg-indigo-500/20 dark:focus:text-white"
            >
              {c.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
