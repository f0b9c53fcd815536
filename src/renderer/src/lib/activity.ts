// What a member is doing, in words: the line under its name in the thread header and its short
// form in the roster. Pure: `now` is the host-aligned clock, so the counter can tick from outside.
import type { ActivityKind, MemberActivity, TeamEra } from '../../../shared/types';
import { elapsed, exactTime, pointInTime } from './time';

export interface ActivityLine {
  kind: ActivityKind;
  /** The words, without the counter: "working · Bash: npm test". */
  text: string;
  /** How long the state has lasted ("42 s"), when it has a known start and lasting matters. */
  elapsed?: string;
  /** The same line with the counter: what a screen reader and a test read. */
  full: string;
  /** Since when, what it last said, and where the facts came from, for the tooltip. */
  title: string;
}

export interface ActivityLineOptions {
  era?: TeamEra;
  /** The roster's form: no "working ·" prefix, a shorter wait. */
  short?: boolean;
  locale?: string;
}

const KINDS: readonly ActivityKind[] = ['working', 'waiting', 'idle', 'shut-down', 'unknown'];

const SOURCE_WORDS: Record<MemberActivity['sources'][number], string> = {
  session: "the lead's sessions file",
  transcript: 'its transcript',
  config: 'the team config',
};

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** "Bash: npm test", or the tool's name alone when it has no input to show. */
export function toolLabel(tool: { name: string; summary: string }): string {
  const summary = oneLine(tool.summary);
  return summary ? `${tool.name}: ${summary}` : tool.name;
}

/** "for a permission answer in the lead's terminal", whichever way the host words it. */
function waitingWhat(waitingFor: string | undefined): string {
  const w = oneLine(waitingFor ?? '');
  if (!w) return 'for an answer';
  return /^for\s/i.test(w) ? w : `for ${w}`;
}

function shortWait(waitingFor: string | undefined): string {
  // The roster is narrow: the words that say what the human owes, and the counter.
  if (/permission/i.test(waitingFor ?? '')) return 'needs permission';
  if (/plan/i.test(waitingFor ?? '')) return 'needs plan approval';
  return 'waiting';
}

/**
 * The activity line of a member; `a` undefined means the host knows nothing about it (legacy
 * teams have no sessions file or transcript to read).
 */
export function activityLine(a: MemberActivity | undefined, now: number, opts: ActivityLineOptions = {}): ActivityLine {
  const kind: ActivityKind = a && KINDS.includes(a.kind) ? a.kind : 'unknown';
  const short = opts.short ?? false;
  let text: string;
  let start: number | undefined;
  const tips: string[] = [];
  switch (kind) {
    case 'working': {
      const tool = a?.tool;
      if (tool) {
        text = short ? toolLabel(tool) : `working · ${toolLabel(tool)}`;
        start = tool.since;
        tips.push(`${tool.name} running since ${exactTime(tool.since, opts.locale)}`);
      } else {
        text = 'working';
        start = a?.since;
        if (start) tips.push(`working since ${exactTime(start, opts.locale)}`);
      }
      break;
    }
    case 'waiting':
      text = short ? shortWait(a?.waitingFor) : `waiting ${waitingWhat(a?.waitingFor)}`;
      start = a?.since;
      tips.push(`waiting ${waitingWhat(a?.waitingFor)}${start ? ` since ${exactTime(start, opts.locale)}` : ''}`);
      break;
    case 'idle': {
      const at = a?.lastTurnEndAt ?? a?.since;
      const when = at ? pointInTime(at, now, opts.locale) : '';
      text = when ? `idle since ${when}` : 'idle';
      if (at) tips.push(`its last turn ended ${exactTime(at, opts.locale)}`);
      break;
    }
    case 'shut-down':
      text = 'shut down';
      if (a?.since) tips.push(`shut down ${exactTime(a.since, opts.locale)}`);
      break;
    default:
      text = opts.era === 'legacy' && !short ? 'activity unknown (legacy team)' : 'activity unknown';
      tips.push(
        opts.era === 'legacy'
          ? 'Legacy teams leave no sessions file or transcript that says what a member is doing.'
          : 'Teamdeck found nothing that says what this member is doing.',
      );
  }
  // What the user did from Teamdeck that led here ("stopped by you").
  if (a?.byYou && kind !== 'unknown' && kind !== 'shut-down') {
    text = `${a.byYou.what} · ${text}`;
    tips.push(`${a.byYou.what} ${exactTime(a.byYou.at, opts.locale)}`);
  }
  const counter = start && start > 0 ? elapsed(now - start) : undefined;
  if (a?.lastText) tips.push(`last wrote: ${oneLine(a.lastText)}`);
  if (a && a.sources.length > 0) tips.push(`from ${a.sources.map((s) => SOURCE_WORDS[s] ?? s).join(', ')}`);
  return {
    kind,
    text,
    ...(counter ? { elapsed: counter } : {}),
    full: counter ? `${text} · ${counter}` : text,
    title: tips.join('\n'),
  };
}

/** Whether the line shows a counter that changes every second. */
export function activityTicks(a: MemberActivity | undefined): boolean {
  if (!a) return false;
  if (a.kind === 'working') return !!(a.tool?.since || a.since);
  return a.kind === 'waiting' && !!a.since;
}
