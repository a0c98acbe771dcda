// Calendar windows of the period analysis (docs/decisions/0012-period-analysis.md), in UTC like every
// dashboard date. Only the window edges are computed here; every count is SQL.
import type { Bucket } from '../../db/dates';
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
  /** Days of 'Signalements Reçus par Jour': the current period, and at least the last 30 days. */
  days: { first: Date; last: Date };
}

export const SERIES_LENGTH: Record<Period, number> = { day: 30, week: 12, month: 12, year: 5 };
export const MIN_DAILY_CHART_DAYS = 30;

const isoDay = (at: Date) => at.toISOString().slice(0, 10);

/** The start of the period containing `at`, `offset` periods later (negative: earlier). */
export function periodStart(period: Period, at: Date, offset = 0): Date {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  const d = at.getUTCDate();
  switch (period) {
    case 'day':
      return new Date(Date.UTC(y, m, d + offset));
    case 'week': {
      const sinceMonday = (at.getUTCDay() + 6) % 7;
      return new Date(Date.UTC(y, m, d - sinceMonday + 7 * offset));
    }
    case 'month':
      return new Date(Date.UTC(y, m + offset, 1));
    case 'year':
      return new Date(Date.UTC(y + offset, 0, 1));
  }
}

export function periodWindows(period: Period, now = new Date()): PeriodWindows {
  const start = periodStart(period, now);
  const previousStart = periodStart(period, now, -1);
  const elapsed = now.getTime() - start.getTime();
  const previousEnd = new Date(Math.min(previousStart.getTime() + elapsed, start.getTime()));
  const series: Bucket[] = [];
  for (let i = SERIES_LENGTH[period] - 1; i >= 0; i--) {
    const lo = periodStart(period, now, -i);
    series.push({ day: isoDay(lo), lo, hi: periodStart(period, now, -i + 1) });
  }
  const today = periodStart('day', now);
  const monthBack = new Date(today.getTime() - (MIN_DAILY_CHART_DAYS - 1) * DAY_MS);
  return {
    current: { start, end: now },
    previous: { start: previousStart, end: previousEnd },
    series,
    days: { first: start < monthBack ? start : monthBack, last: today },
  };
}

/** 'yyyy-MM-dd' of the inclusive first and last days of a window, as the dashboard inputs take them. */
export function windowDays(window: Window): { dateStart: string; dateEnd: string } {
  const lastInstant = new Date(Math.max(window.start.getTime(), window.end.getTime() - 1));
  return { dateStart: isoDay(window.start), dateEnd: isoDay(lastInstant) };
}
