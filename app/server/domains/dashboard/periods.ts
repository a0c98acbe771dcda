// Calendar windows of the period analysis (docs/decisions/0012-period-analysis.md), in the business
// calendar like every dashboard date (docs/decisions/0018-business-calendar.md). Only the window edges are
// computed here; every count is SQL.
import type { BusinessCalendar } from '#shared/calendar';
import type { Bucket } from '#server/db/dates';
import type { Period } from './schema';

const DAY_MS = 86_400_000;

export interface Window {
  start: Date;
  end: Date;
}

export interface PeriodWindows {
  /** From the start of the current day, week (Monday), month or year to now. */
  current: Window;
  /** The previous day, week, month or year over the same elapsed time (never past its own end). */
  previous: Window;
  /** Buckets of the evolution chart: the last SERIES_LENGTH periods, the current one last. */
  series: Bucket[];
  /** Days of 'Signalements Reçus par Jour' (calendar dates at UTC midnight): the current period, and at least the last 30 days. */
  days: { first: Date; last: Date };
}

export const SERIES_LENGTH: Record<Period, number> = { day: 30, week: 12, month: 12, year: 5 };
export const MIN_DAILY_CHART_DAYS = 30;

const isoDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The first business day of the period containing `at`, `offset` periods later (negative: earlier), as
 * 'yyyy-MM-dd'.
 */
export function periodFirstDay(calendar: BusinessCalendar, period: Period, at: Date, offset = 0): string {
  const wall = calendar.wallClock(at);
  const y = wall.getUTCFullYear();
  const m = wall.getUTCMonth();
  const d = wall.getUTCDate();
  switch (period) {
    case 'day':
      return isoDay(new Date(Date.UTC(y, m, d + offset)));
    case 'week': {
      const sinceMonday = (wall.getUTCDay() + 6) % 7;
      return isoDay(new Date(Date.UTC(y, m, d - sinceMonday + 7 * offset)));
    }
    case 'month':
      return isoDay(new Date(Date.UTC(y, m + offset, 1)));
    case 'year':
      return isoDay(new Date(Date.UTC(y + offset, 0, 1)));
  }
}

/** The first instant of the period containing `at`, `offset` periods later (negative: earlier). */
export function periodStart(calendar: BusinessCalendar, period: Period, at: Date, offset = 0): Date {
  return calendar.dayStart(periodFirstDay(calendar, period, at, offset));
}

export function periodWindows(calendar: BusinessCalendar, period: Period, now: Date): PeriodWindows {
  const start = periodStart(calendar, period, now);
  const previousStart = periodStart(calendar, period, now, -1);
  const elapsed = now.getTime() - start.getTime();
  const previousEnd = new Date(Math.min(previousStart.getTime() + elapsed, start.getTime()));
  const series: Bucket[] = [];
  for (let i = SERIES_LENGTH[period] - 1; i >= 0; i--) {
    series.push({
      day: periodFirstDay(calendar, period, now, -i),
      lo: periodStart(calendar, period, now, -i),
      hi: periodStart(calendar, period, now, -i + 1),
    });
  }
  const first = new Date(`${periodFirstDay(calendar, period, now)}T00:00:00Z`);
  const today = new Date(`${calendar.day(now)}T00:00:00Z`);
  const monthBack = new Date(today.getTime() - (MIN_DAILY_CHART_DAYS - 1) * DAY_MS);
  return {
    current: { start, end: now },
    previous: { start: previousStart, end: previousEnd },
    series,
    days: { first: first < monthBack ? first : monthBack, last: today },
  };
}

/** 'yyyy-MM-dd' of the inclusive first and last business days of a window, as the dashboard inputs take them. */
export function windowDays(
  calendar: BusinessCalendar,
  window: Window,
): { dateStart: string; dateEnd: string } {
  const lastInstant = new Date(Math.max(window.start.getTime(), window.end.getTime() - 1));
  return { dateStart: calendar.day(window.start), dateEnd: calendar.day(lastInstant) };
}
