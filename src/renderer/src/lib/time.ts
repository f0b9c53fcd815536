// Time formatting for the thread, feed and roster. Pure: every function takes `now` so it can be
// driven by the app's ticking clock (aligned to the host) and tested without fake timers.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Local calendar day of a timestamp, e.g. "2026-02-09"; used to place day separators. */
export function dayKey(t: number): string {
  const d = new Date(t);
  const mm = String(d.getMonth() + 1).padStart(2, '0');
  const dd = String(d.getDate()).padStart(2, '0');
  return `${d.getFullYear()}-${mm}-${dd}`;
}

function startOfDay(t: number): number {
  const d = new Date(t);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** Whole calendar days between two instants in local time (0 = same day, 1 = yesterday). */
export function calendarDaysBetween(earlier: number, later: number): number {
  return Math.round((startOfDay(later) - startOfDay(earlier)) / (24 * HOUR));
}

// toLocaleString and friends build a new Intl.DateTimeFormat on every call (tens of
// microseconds each); a long thread formats thousands of times while it scrolls, so each
// locale and set of options gets one formatter, kept.
const formatters = new Map<string, Intl.DateTimeFormat>();

function format(t: number, locale: string | undefined, options: Intl.DateTimeFormatOptions): string {
  const key = `${locale ?? ''}\u0000${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.DateTimeFormat(locale, options)));
  return f.format(t);
}

/**
 * Builds the formatters the first screen uses. The first Intl.DateTimeFormat a page builds loads
 * the locale's data, some 40 ms in Chromium on the project's machines: called while the page
 * still waits for the rest of its HTML, that cost is off the path to the first painted roster.
 */
export function warmTimeFormats(locale?: string): void {
  clockTime(0, locale);
  format(0, locale, { day: 'numeric', month: 'short' });
}

/** "14:02" in the user's locale, 24h or 12h as the locale prefers. */
export function clockTime(t: number, locale?: string): string {
  return format(t, locale, { hour: 'numeric', minute: '2-digit' });
}

/** The exact time for tooltips: weekday, full date and seconds. */
export function exactTime(t: number, locale?: string): string {
  if (!t) return 'unknown time';
  return format(t, locale, {
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** Short relative time: "just now", "4 min ago", "3 h ago", "yesterday 14:02", "9 Feb 14:02". */
export function relativeTime(t: number, now: number, locale?: string): string {
  if (!t) return '—';
  const diff = now - t;
  // A little clock skew between writers is normal; do not show "in 20 s".
  if (diff < -MINUTE) return clockTime(t, locale);
  if (diff < 45_000) return 'just now';
  if (diff < HOUR) return `${Math.max(1, Math.round(diff / MINUTE))} min ago`;
  const days = calendarDaysBetween(t, now);
  if (diff < 12 * HOUR || (days === 0 && diff < 24 * HOUR)) return `${Math.floor(diff / HOUR)} h ago`;
  if (days === 1) return `yesterday ${clockTime(t, locale)}`;
  const sameYear = new Date(t).getFullYear() === new Date(now).getFullYear();
  const date = format(t, locale, { day: 'numeric', month: 'short', ...(sameYear ? {} : { year: 'numeric' }) });
  return `${date} ${clockTime(t, locale)}`;
}

/** "last seen 3 min ago" for presence tooltips. */
export function lastSeen(t: number | undefined, now: number, locale?: string): string {
  if (!t) return 'no activity seen yet';
  return `last seen ${relativeTime(t, now, locale)}`;
}

/** Label of a day separator: "Today", "Yesterday", else the weekday and date. */
export function dayLabel(t: number, now: number, locale?: string): string {
  if (!t) return 'Unknown date';
  const days = calendarDaysBetween(t, now);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  const sameYear = new Date(t).getFullYear() === new Date(now).getFullYear();
  return format(t, locale, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    ...(sameYear ? {} : { year: 'numeric' }),
  });
}

/**
 * A moment as a clock reads it, for "ended 14:31": the time alone today, "yesterday 18:20",
 * else the date and time.
 */
export function pointInTime(t: number, now: number, locale?: string): string {
  if (!t) return '';
  // The answer changes only with the calendar day of `now`: the team switcher asks it for every
  // ended team on every store change (hundreds of teams, one clock tick a second), two Intl
  // formats each time.
  const day = startOfDay(now);
  if (day !== pointDay) {
    points.clear();
    pointDay = day;
  }
  const key = `${t}\u0000${locale ?? ''}`;
  let s = points.get(key);
  if (s === undefined) {
    if (points.size >= POINTS_KEPT) points.clear();
    points.set(key, (s = pointInTimeOn(t, now, locale)));
  }
  return s;
}

const POINTS_KEPT = 10_000;
const points = new Map<string, string>();
let pointDay = NaN;

function pointInTimeOn(t: number, now: number, locale?: string): string {
  const days = calendarDaysBetween(t, now);
  if (days === 0) return clockTime(t, locale);
  if (days === 1) return `yesterday ${clockTime(t, locale)}`;
  const sameYear = new Date(t).getFullYear() === new Date(now).getFullYear();
  const date = format(t, locale, { day: 'numeric', month: 'short', ...(sameYear ? {} : { year: 'numeric' }) });
  return `${date} ${clockTime(t, locale)}`;
}

/**
 * How long something has lasted, as a ticking counter reads it: "42 s", "3 min 05 s" (seconds
 * still matter in the first minutes of a tool call), "12 min", "2 h 05 min", "3 d 4 h".
 */
export function elapsed(ms: number): string {
  const s = Math.max(0, Math.floor(Number.isFinite(ms) ? ms / 1000 : 0));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  const two = (n: number) => String(n).padStart(2, '0');
  if (m < 10) return `${m} min ${two(s % 60)} s`;
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} h ${two(m % 60)} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}
