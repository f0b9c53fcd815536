import { describe, expect, it } from 'vitest';
import { calendarDaysBetween, dayKey, dayLabel, exactTime, lastSeen, pointInTime, relativeTime } from './time';

const NOW = new Date(2026, 1, 17, 15, 0, 0).getTime(); // local time, so day maths do not depend on the zone
const MIN = 60_000;

describe('relativeTime', () => {
  it('says just now, minutes and hours', () => {
    expect(relativeTime(NOW - 10_000, NOW)).toBe('just now');
    expect(relativeTime(NOW - 3 * MIN, NOW)).toBe('3 min ago');
    expect(relativeTime(NOW - 59 * MIN, NOW)).toBe('59 min ago');
    expect(relativeTime(NOW - 3 * 60 * MIN, NOW)).toBe('3 h ago');
  });

  it('names yesterday and older days with a clock time', () => {
    const yesterday = new Date(2026, 1, 16, 9, 30).getTime();
    expect(relativeTime(yesterday, NOW, 'en-GB')).toBe('yesterday 9:30');
    const older = new Date(2026, 1, 3, 8, 5).getTime();
    expect(relativeTime(older, NOW, 'en-GB')).toBe('3 Feb 8:05');
    const lastYear = new Date(2025, 11, 24, 8, 5).getTime();
    expect(relativeTime(lastYear, NOW, 'en-GB')).toBe('24 Dec 2025 8:05');
  });

  it('does not announce the future for small clock skew and shows a dash for unknown times', () => {
    expect(relativeTime(NOW + 20_000, NOW)).toBe('just now');
    expect(relativeTime(0, NOW)).toBe('—');
  });
});

describe('days', () => {
  it('labels today, yesterday and earlier days', () => {
    expect(dayLabel(NOW - MIN, NOW)).toBe('Today');
    expect(dayLabel(new Date(2026, 1, 16, 23, 59).getTime(), NOW)).toBe('Yesterday');
    expect(dayLabel(new Date(2026, 1, 9, 12).getTime(), NOW, 'en-GB')).toBe('Monday 9 February');
  });

  it('keys days by local calendar date', () => {
    expect(dayKey(new Date(2026, 0, 5, 23, 59).getTime())).toBe('2026-01-05');
    expect(calendarDaysBetween(new Date(2026, 0, 5, 23, 59).getTime(), new Date(2026, 0, 6, 0, 1).getTime())).toBe(1);
  });
});

describe('tooltips', () => {
  it('gives last seen and an exact time with seconds', () => {
    expect(lastSeen(NOW - 3 * MIN, NOW)).toBe('last seen 3 min ago');
    expect(lastSeen(undefined, NOW)).toBe('no activity seen yet');
    expect(exactTime(new Date(2026, 1, 17, 14, 31, 7).getTime(), 'en-GB')).toContain('14:31:07');
  });
});

describe('pointInTime', () => {
  it('reads like a clock: the time today, yesterday with the time, else the date', () => {
    expect(pointInTime(new Date(2026, 1, 17, 14, 31).getTime(), NOW, 'en-GB')).toBe('14:31');
    expect(pointInTime(new Date(2026, 1, 16, 18, 20).getTime(), NOW, 'en-GB')).toBe('yesterday 18:20');
    expect(pointInTime(new Date(2026, 1, 9, 8, 5).getTime(), NOW, 'en-GB')).toBe('9 Feb 8:05');
    expect(pointInTime(0, NOW)).toBe('');
  });

  it('moves on with the calendar day of now, and keeps locales apart (its answers are kept per day)', () => {
    const ended = new Date(2026, 1, 17, 14, 31).getTime();
    expect(pointInTime(ended, NOW, 'en-GB')).toBe('14:31');
    expect(pointInTime(ended, NOW, 'en-US')).toBe('2:31 PM');
    expect(pointInTime(ended, NOW + 24 * 60 * MIN, 'en-GB')).toBe('yesterday 14:31');
    expect(pointInTime(ended, NOW + 3 * 24 * 60 * MIN, 'en-GB')).toBe('17 Feb 14:31');
    // Back to the first day (a clock set back): the same answer as at first.
    expect(pointInTime(ended, NOW, 'en-GB')).toBe('14:31');
  });
});
