// The period analysis ('Vue d'ensemble des plaintes', second reading of spec §2), computed from the
// database: definitions in docs/decisions/0012-period-analysis.md.
import type { Database } from '#server/db/client';
import {
  alertsSql,
  dimensionSql,
  linkedSql,
  receivedSql,
  seriesSql,
  statutIdsSql,
  type StatutIds,
  topPartnersSql,
  topUsersSql,
  windowSummarySql,
} from './overview-queries';
import { periodWindows, windowDays, type Window } from './periods';
import type { Dimension, Period } from './schema';
import { countsPerDay, type DashboardContext, type PerDay } from './service';

/** A number of days to one decimal, or null. */
const oneDecimal = (value: number | null): number | null =>
  value === null ? null : Math.round(value * 10) / 10;

export interface Compared {
  value: number | null;
  previous: number | null;
}

export interface Alert {
  id: 'urgent' | 'overdue' | 'info' | 'unassigned';
  type: 'urgent' | 'overdue' | 'info';
  message: string;
  count: number;
}

export interface OverviewSummary {
  period: Period;
  current: { dateStart: string; dateEnd: string };
  previous: { dateStart: string; dateEnd: string };
  totals: {
    received: Compared;
    treated: Compared;
    inProgress: Compared;
    closed: Compared;
    avgResolutionDays: Compared;
  };
  /** Reports received in the current period: no statut yet, a statut of kind open, treated or closed. */
  status: { waiting: number; inProgress: number; resolved: number };
  alerts: Alert[];
}

async function windowSummary(db: Database, window: Window) {
  const [row] = await db.rows(windowSummarySql(db, window));
  const total = db.dialect.count(row?.total);
  const waiting = db.dialect.count(row?.waiting);
  const treated = db.dialect.count(row?.treated);
  return {
    total,
    waiting,
    treated,
    inProgress: total - treated,
    closed: db.dialect.count(row?.closed),
    avgDays: oneDecimal(db.dialect.number(row?.avg_days)),
  };
}

const plural = (n: number, one: string, many: string) => (n > 1 ? many : one);
const fr = new Intl.NumberFormat('fr-FR');

/** The statut ids of the open kind and of the treated and closed kinds. */
async function statutIds(db: Database): Promise<StatutIds> {
  const rows = await db.rows(statutIdsSql(db));
  const ids = (open: boolean) =>
    rows.filter((r) => (String(r.kind) === 'open') === open).map((r) => Number(r.id));
  return { open: ids(true), done: ids(false) };
}

async function alerts(
  { db, calendar }: Pick<DashboardContext, 'db' | 'calendar'>,
  now: Date,
): Promise<Alert[]> {
  const [row] = await db.rows(alertsSql(db, calendar.dayNumber(now), await statutIds(db)));
  const urgent = db.dialect.count(row?.urgent);
  const overdue = db.dialect.count(row?.overdue);
  const untriaged = db.dialect.count(row?.untriaged);
  const unassigned = db.dialect.count(row?.unassigned);
  const niveau = row?.top_niveau ? String(row.top_niveau) : 'le plus élevé';
  const reports = (n: number) =>
    `${fr.format(n)} ${plural(n, 'signalement non traité', 'signalements non traités')}`;
  return [
    {
      id: 'urgent',
      type: 'urgent',
      count: urgent,
      message: `${reports(urgent)} de niveau « ${niveau} »`,
    },
    {
      id: 'overdue',
      type: 'overdue',
      count: overdue,
      message: `${reports(overdue)} en retard (délai de traitement dépassé)`,
    },
    {
      id: 'unassigned',
      type: 'info',
      count: unassigned,
      message: `${reports(unassigned)} « Non assigné »`,
    },
    {
      id: 'info',
      type: 'info',
      count: untriaged,
      message: `${reports(untriaged)} sans niveau de gravité`,
    },
  ];
}

export async function overviewSummary(
  { db, calendar, clock }: DashboardContext,
  period: Period,
  now = clock.now(),
): Promise<OverviewSummary> {
  const windows = periodWindows(calendar, period, now);
  const current = await windowSummary(db, windows.current);
  const previous = await windowSummary(db, windows.previous);
  const compared = (key: 'total' | 'treated' | 'inProgress' | 'closed' | 'avgDays'): Compared => ({
    value: current[key],
    previous: previous[key],
  });
  return {
    period,
    current: windowDays(calendar, windows.current),
    previous: windowDays(calendar, windows.previous),
    totals: {
      received: compared('total'),
      treated: compared('treated'),
      inProgress: compared('inProgress'),
      closed: compared('closed'),
      avgResolutionDays: compared('avgDays'),
    },
    status: {
      waiting: current.waiting,
      inProgress: current.total - current.waiting - current.treated,
      resolved: current.treated,
    },
    alerts: await alerts({ db, calendar }, now),
  };
}

export interface SeriesPoint {
  date: string;
  complaints: number;
  resolved: number;
}

export async function overviewSeries(
  { db, calendar, clock }: DashboardContext,
  period: Period,
  now = clock.now(),
): Promise<SeriesPoint[]> {
  const rows = await db.rows(seriesSql(db, periodWindows(calendar, period, now).series));
  return rows.map((r) => ({
    date: String(r.day),
    complaints: db.dialect.count(r.received),
    resolved: db.dialect.count(r.resolved),
  }));
}

export interface Distribution {
  /** Reports received in the current period (the base of the percentages). */
  total: number;
  items: Array<{ code: string; designation: string; count: number }>;
}

export async function overviewDistribution(
  { db, calendar, clock }: DashboardContext,
  period: Period,
  dimension: Dimension,
  now = clock.now(),
): Promise<Distribution> {
  const window = periodWindows(calendar, period, now).current;
  const query =
    dimension === 'subject' || dimension === 'project'
      ? linkedSql(db, dimension, window)
      : dimensionSql(db, dimension, window);
  const rows = await db.rows(query);
  const [received] = await db.rows(receivedSql(db, window));
  return {
    total: db.dialect.count(received?.n),
    items: rows.map((r) => ({
      code: String(r.code),
      designation: String(r.designation),
      count: db.dialect.count(r.n),
    })),
  };
}

export interface TopUser {
  name: string;
  email: string;
  role: string;
  /** Reports assigned to the user, received in the period and treated or closed today. */
  complaintsHandled: number;
  /** Mean days from receipt to closing of those of them closed (null when none is). */
  avgResolutionTime: number | null;
  /** Open reports assigned to the user now. */
  openCases: number;
  /** Of those, the ones past their due day. */
  overdueCases: number;
}

export interface TopLists {
  users: TopUser[];
  partners: Array<{
    code: string;
    designation: string;
    color: string;
    complaintsReceived: number;
    avgResolutionTime: number | null;
  }>;
}

export async function overviewTop(
  { db, calendar, clock }: DashboardContext,
  period: Period,
  now = clock.now(),
): Promise<TopLists> {
  const window = periodWindows(calendar, period, now).current;
  const users = await db.rows(topUsersSql(db, window, calendar.dayNumber(now), await statutIds(db)));
  const partners = await db.rows(topPartnersSql(db, window));
  return {
    users: users.map((u) => ({
      name: String(u.name),
      email: String(u.email),
      role: String(u.role),
      complaintsHandled: db.dialect.count(u.handled),
      avgResolutionTime: oneDecimal(db.dialect.number(u.avg_days)),
      openCases: db.dialect.count(u.open),
      overdueCases: db.dialect.count(u.overdue),
    })),
    partners: partners.map((p) => ({
      code: String(p.code),
      designation: String(p.designation),
      color: String(p.color),
      complaintsReceived: db.dialect.count(p.n),
      avgResolutionTime: oneDecimal(db.dialect.number(p.avg_days)),
    })),
  };
}

/** 'Signalements Reçus par Jour': every day of the period, and at least the last 30 days. */
export async function overviewPerDay(
  { db, calendar, clock }: DashboardContext,
  period: Period,
  now = clock.now(),
): Promise<PerDay> {
  const { first, last } = periodWindows(calendar, period, now).days;
  return countsPerDay(db, first, last);
}
