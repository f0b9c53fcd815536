// One step of a member's transcript: what it received (and from whom), a prompt, its own text,
// a tool call with its input summarized, or the tool's result, collapsed until clicked. Text is
// markdown through the sanitized Markdown component; tool input and output are plain text.
import { memo } from 'react';
import { describeFrame } from '../../../shared/frame-text';
import type { TimelineItem } from '../../../shared/types';
import { isTeamdeckName } from '../../../shared/sender-name';
import { USER, YOU } from '../../../shared/threads';
import { useDeck } from '../state/context';
import { boundText, frameInText, readableResult, resultPreview } from '../lib/timeline-rows';
import { clockTime, elapsed, exactTime } from '../lib/time';
import { useTickingNow } from '../state/ticking-now';
import { displayName } from './bits';
import { ChevronRightIcon, ToolIcon } from './icons';
import { Markdown } from './LazyMarkdown';

function Time({ at }: { at: number }) {
  if (!at) return null;
  return (
    <time dateTime={new Date(at).toISOString()} title={exactTime(at)} className="shrink-0 text-[11px] text-zinc-400 tabular-nums dark:text-zinc-500">
      {clockTime(at)}
    </time>
  );
}

/** "running · 42 s" beside the tool call still in flight. */
function Running({ since }: { since: number }) {
  const now = useTickingNow(true);
  return (
    <span data-testid="timeline-running" className="shrink-0 font-sans text-[11px] font-medium text-emerald-700 tabular-nums dark:text-emerald-400">
      running · {elapsed(now - since)}
    </span>
  );
}

interface RowProps {
  item: TimelineItem;
  /** The tool call in flight, when this row is it: since when it runs. */
  runningSince?: number;
  member: string;
  expanded: boolean;
  onToggle: (id: string) => void;
  onOpenLink: (url: string) => void;
}

function Received({ item, member, onOpenLink }: Pick<RowProps, 'item' | 'member' | 'onOpenLink'>) {
  const frame = frameInText(item.text);
  // The user, under the name Teamdeck wrote as: "you", as in the thread and the feed.
  const senderName = useDeck((s) => s.settings.senderName);
  const from = !item.from ? 'someone' : item.from === USER || isTeamdeckName(item.from, senderName) ? YOU : displayName(item.from);
  return (
    <div className="rounded-lg border border-sky-200 bg-sky-50/70 px-3 py-2 dark:border-sky-500/25 dark:bg-sky-500/10">
      <div className="mb-0.5 flex items-center gap-2 text-[11px] font-medium text-sky-800 dark:text-sky-300">
        <span data-testid="timeline-from">
          {member} received a message from {from}
        </span>
        <span className="ml-auto" />
        <Time at={item.at} />
      </div>
      {frame ? (
        <p className="text-[12.5px] text-zinc-600 italic dark:text-zinc-300" title={item.text}>
          {describeFrame(frame)}
        </p>
      ) : (
        <div className="text-zinc-800 dark:text-zinc-100">
          <Markdown text={item.text} onOpenLink={onOpenLink} />
        </div>
      )}
    </div>
  );
}

function Prompt({ item, onOpenLink }: Pick<RowProps, 'item' | 'onOpenLink'>) {
  return (
    <div className="rounded-lg border border-indigo-200 bg-indigo-50/70 px-3 py-2 dark:border-indigo-500/30 dark:bg-indigo-500/10">
      <div className="mb-0.5 flex items-center gap-2 text-[11px] font-medium text-indigo-800 dark:text-indigo-300">
        <span>prompt</span>
        <span className="ml-auto" />
        <Time at={item.at} />
      </div>
      <div className="text-zinc-800 dark:text-zinc-100">
        <Markdown text={item.text} onOpenLink={onOpenLink} />
      </div>
    </div>
  );
}

function ToolCall({ item, runningSince }: Pick<RowProps, 'item' | 'runningSince'>) {
  return (
    <div className="flex min-w-0 items-start gap-2 font-mono text-[12px] text-zinc-700 dark:text-zinc-300">
      <ToolIcon width={12} height={12} className="mt-0.5 shrink-0 text-zinc-400" />
      <span className="shrink-0 font-semibold text-zinc-900 dark:text-zinc-100">{item.tool ?? 'tool'}</span>
      <span className="line-clamp-3 min-w-0 flex-1 break-all whitespace-pre-wrap" title={item.text}>
        {item.text}
      </span>
      {runningSince !== undefined && <Running since={runningSince} />}
      <span className="font-sans">
        <Time at={item.at} />
      </span>
    </div>
  );
}

function ToolResult({ item, expanded, onToggle }: Pick<RowProps, 'item' | 'expanded' | 'onToggle'>) {
  const { first, lines } = resultPreview(item.text);
  const shown = expanded ? boundText(readableResult(item.text).text) : undefined;
  return (
    <div className="pl-5">
      <button
        type="button"
        aria-expanded={expanded}
        data-testid="timeline-result-toggle"
        onClick={() => onToggle(item.id)}
        className={`flex w-full min-w-0 items-center gap-1.5 rounded px-1 py-0.5 text-left text-[11.5px] outline-none hover:bg-zinc-100 focus-visible:ring-2 focus-visible:ring-indigo-500/50 dark:hover:bg-zinc-800 ${
          item.isError ? 'text-red-700 dark:text-red-400' : 'text-zinc-500 dark:text-zinc-400'
        }`}
      >
        <ChevronRightIcon width={11} height={11} className={`shrink-0 transition-transform ${expanded ? 'rotate-90' : ''}`} />
        <span className="shrink-0 font-medium">
          {item.isError ? 'error' : 'result'}
          {item.tool ? ` · ${item.tool}` : ''} · {lines} {lines === 1 ? 'line' : 'lines'}
        </span>
        {!expanded && first && <span className="min-w-0 truncate font-mono text-[11px] opacity-80">{first}</span>}
      </button>
      {shown && (
        <pre
          data-testid="timeline-result"
          className={`mt-1 max-h-80 overflow-auto rounded-md border p-2.5 font-mono text-[11px] leading-relaxed break-all whitespace-pre-wrap ${
            item.isError
              ? 'border-red-200 bg-red-50 text-red-900 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-200'
              : 'border-zinc-200 bg-zinc-50 text-zinc-700 dark:border-zinc-800 dark:bg-zinc-950 dark:text-zinc-300'
          }`}
        >
          {shown.text}
          {shown.cut > 0 && `\n… ${shown.cut.toLocaleString()} more characters not shown`}
        </pre>
      )}
    </div>
  );
}

export const TimelineRow = memo(function TimelineRow({ item, member, expanded, runningSince, onToggle, onOpenLink }: RowProps) {
  let body;
  switch (item.kind) {
    case 'received':
      body = <Received item={item} member={member} onOpenLink={onOpenLink} />;
      break;
    case 'prompt':
      body = <Prompt item={item} onOpenLink={onOpenLink} />;
      break;
    case 'tool-call':
      body = <ToolCall item={item} runningSince={runningSince} />;
      break;
    case 'tool-result':
      body = <ToolResult item={item} expanded={expanded} onToggle={onToggle} />;
      break;
    default:
      body = (
        <div className="flex min-w-0 items-start gap-3">
          <div className="min-w-0 flex-1 text-zinc-900 dark:text-zinc-100">
            <Markdown text={item.text} onOpenLink={onOpenLink} />
          </div>
          <Time at={item.at} />
        </div>
      );
  }
  return (
    <div data-testid="timeline-item" data-kind={item.kind} data-id={item.id} className={`px-5 ${item.kind === 'tool-result' ? 'pt-0.5' : 'pt-2'}`}>
      {body}
    </div>
  );
});
