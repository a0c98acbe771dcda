// The live dashboard (spec §3 "Dashboard data", §7 "Dashboard"): each call is one SQL statement from
// queries.ts; this file only shapes its rows into the response of §3.
import type { BusinessCalendar } from '#shared/calendar';
import type { AppContext } from '#server/context';
import type { Database } from '#server/db/client';
import { invalid } from '#server/errors';
import {
  keyMetricsSql,
  perCanalSql,
  perDaySql,
  perLocalisationSql,
  perNiveauSql,
  perResultatSql,
  perSubjectSql,
  reportBoundsSql,
} from './queries';
import {
  DASHBOARD_MESSAGES,
  parseIsoDay,
  toInstantRange,
  type DateRangeInput,
  type LocalisationType,
} from './schema';

const DAY_MS = 86_400_000;
/** Without a range, the daily chart starts at the first report but covers at most these many days. */
export const DEFAULT_PER_DAY_MAX_DAYS = 731;
/** An explicit range longer than this is refused for the daily chart (one key per day). */
export const PER_DAY_MAX_DAYS = 3660;

export interface KeyMetrics {
  total: number;
  treated: number;
  inProgress: number;
  closed: number;
}
export interface LocalisationCount {
  id: string;
  designation: string;
  latitude: number | null;
  longitude: number | null;
  signalementCount: number;
}
export interface CanalCount {
  id: string;
  designation: string;
  signalementCount: number;
}
export interface SubjectCount {
  sujet: { code: string; designation: string };
  count: number;
}
export interface NiveauCount {
  niv: { code: string; designation: string; color: string };
  count: number;
}
export interface ResultatCount {
  result: { code: string; designation: string };
  count: number;
}
export type PerDay = Record<string, number>;

/** What the dashboard's per-day answers receive: their days are the business calendar's. */
export type DashboardContext = Pick<AppContext, 'db' | 'calendar' | 'clock'>;

/** The business day containing `at`, as the UTC midnight of its calendar date (how days are held here). */
const dayOf = (calendar: BusinessCalendar, at: Date) => parseIsoDay(calendar.day(at))!;

export async function keyMetrics(db: Database, input?: DateRangeInput): Promise<KeyMetrics> {
  const [row] = await db.rows(keyMetricsSql(db, toInstantRange(input)));
  const total = db.dialect.count(row?.total);
  const treated = db.dialect.count(row?.treated);
  return { total, treated, inProgress: total - treated, closed: db.dialect.count(row?.closed) };
}

export async function perLocalisation(
  db: Database,
  type: LocalisationType,
  input?: DateRangeInput,
): Promise<LocalisationCount[]> {
  const rows = await db.rows(perLocalisationSql(db, type, toInstantRange(input)));
  return rows.map((r) => ({
    id: String(r.id),
    designation: String(r.designation),
    latitude: db.dialect.number(r.latitude),
    longitude: db.dialect.number(r.longitude),
    signalementCount: db.dialect.count(r.n),
  }));
}

export async function perCanal(db: Database, input?: DateRangeInput): Promise<CanalCount[]> {
  const rows = await db.rows(perCanalSql(db, toInstantRange(input)));
  return rows.map((r) => ({
    id: String(r.id),
    designation: String(r.designation),
    signalementCount: db.dialect.count(r.n),
  }));
}

export async function perSubject(db: Database, input?: DateRangeInput): Promise<SubjectCount[]> {
  const rows = await db.rows(perSubjectSql(db, toInstantRange(input)));
  return rows.map((r) => ({
    sujet: { code: String(r.code), designation: String(r.designation) },
    count: db.dialect.count(r.n),
  }));
}

export async function perNiveau(db: Database, input?: DateRangeInput): Promise<NiveauCount[]> {
  const rows = await db.rows(perNiveauSql(db, toInstantRange(input)));
  return rows.map((r) => ({
    niv: { code: String(r.code), designation: String(r.designation), color: String(r.color) },
    count: db.dialect.count(r.n),
  }));
}

export async function perResultat(db: Database, input?: DateRangeInput): Promise<ResultatCount[]> {
  const rows = await db.rows(perResultatSql(db, toInstantRange(input)));
  return rows.map((r) => ({
    result: { code: String(r.code), designation: String(r.designation) },
    count: db.dialect.count(r.n),
  }));
}

async function reportBounds(db: Database): Promise<{ first: Date | null; last: Date | null }> {
  const [row] = await db.rows(reportBoundsSql(db));
  return { first: db.dialect.date(row?.first), last: db.dialect.date(row?.last) };
}

/**
 * The business days of the daily chart (calendar dates at UTC midnight, inclusive). An absent start is the first report's day
 * (today when there is none) and an absent end is today, or the last report's day when that is later;
 * without any bound the range keeps its last DEFAULT_PER_DAY_MAX_DAYS days.
 */
export async function perDayRange(
  { db, calendar, clock }: DashboardContext,
  input?: DateRangeInput,
  now = clock.now(),
): Promise<{ first: Date; last: Date }> {
  const explicitFirst = input?.dateStart ? parseIsoDay(input.dateStart)! : null;
  const explicitLast = input?.dateEnd ? parseIsoDay(input.dateEnd)! : null;
  const today = dayOf(calendar, now);
  let first = explicitFirst;
  let last = explicitLast;
  if (!first || !last) {
    const bounds = await reportBounds(db);
    const lastReportDay = bounds.last ? dayOf(calendar, bounds.last) : today;
    last ??= lastReportDay > today ? lastReportDay : today;
    first ??= bounds.first ? dayOf(calendar, bounds.first) : today;
    // An explicit bound stays as asked; the default one gives way (e.g. a start after today).
    if (first > last) {
      if (explicitFirst) last = first;
      else first = last;
    }
    if (!explicitFirst && !explicitLast) {
      const earliest = new Date(last.getTime() - (DEFAULT_PER_DAY_MAX_DAYS - 1) * DAY_MS);
      if (first < earliest) first = earliest;
    }
  }
  if ((last.getTime() - first.getTime()) / DAY_MS + 1 > PER_DAY_MAX_DAYS) {
    throw invalid(DASHBOARD_MESSAGES.tooLong);
  }
  return { first, last };
}

/** Reports per business day, every day of the range present (0 when none). */
export async function perDay(
  ctx: DashboardContext,
  input?: DateRangeInput,
  now = ctx.clock.now(),
): Promise<PerDay> {
  const { first, last } = await perDayRange(ctx, input, now);
  return countsPerDay(ctx.db, first, last);
}

/** Reports per business day from `first` to `last` (calendar dates at UTC midnight, inclusive), 0 for days without any. */
export async function countsPerDay(db: Database, first: Date, last: Date): Promise<PerDay> {
  const rows = await db.rows(perDaySql(db, first, last));
  const result: PerDay = {};
  for (const row of rows) result[String(row.day)] = db.dialect.count(row.n);
  return result;
}
