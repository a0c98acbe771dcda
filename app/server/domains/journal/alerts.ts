// The alerts on unusual reading (decision 0015, "Alerts"), checked in the transaction of the entry
// that may raise them. Four rules, each raising at most one alert per user and business day (Madagascar
// time, shared/calendar.ts), so a user who keeps reading does not flood the administrators' mailboxes:
// - lecture_massive: people of ACCESS_ALERT_READS distinct reports within the sliding window;
// - lecture_quotidienne: people of ACCESS_ALERT_DAILY_READS distinct reports in the business day (slow
//   reading, e.g. 4 reports a minute against a window threshold of 5, cannot evade it);
// - export_massif: the day's cumulated exported rows reach ACCESS_ALERT_EXPORT_MIN_ROWS and
//   ACCESS_ALERT_EXPORT_SHARE of all reports (an export cut in date chunks adds up);
// - export_quotidien: the day's cumulated exported rows reach ACCESS_ALERT_DAILY_EXPORT_ROWS.
import { and, count, countDistinct, eq, gte, inArray } from 'drizzle-orm';
import type { BusinessCalendar } from '#shared/calendar';
import { ROLE_ADMIN, type AccessAlertKind } from '#shared/constants';
import type { Database, Orm } from '#server/db/client';
import { LOCK_SPACE, lockFor } from '#server/db/locks';
import { enqueueMail } from '../mail/outbox';
import { accessAlertMail, journalLink } from '../mail/templates';
import { describeAlert } from './describe';
import type { JournalSettings } from './settings';

const READ_KINDS = [
  'lecture_personnes',
  'lecture_historique',
  'lecture_notes',
  'lecture_pieces_jointes',
  'impression',
] as const;

/** Whether the user already has an alert of this kind since `since` (one alert per rule and day). */
async function alertedSince(db: Database, tx: Orm, userId: number, kind: AccessAlertKind, since: Date) {
  const a = db.t.accessAlerts;
  const [row] = await tx
    .select({ id: a.id })
    .from(a)
    .where(and(eq(a.userId, userId), eq(a.kind, kind), gte(a.createdAt, since)))
    .limit(1);
  return row !== undefined;
}

/** Distinct reports whose people the user read since `since`. */
async function reportsRead(db: Database, tx: Orm, userId: number, since: Date): Promise<number> {
  const l = db.t.accessLog;
  const [row] = await tx
    .select({ n: countDistinct(l.signalementCode) })
    .from(l)
    .where(and(eq(l.userId, userId), inArray(l.kind, [...READ_KINDS]), gte(l.at, since)));
  return Number(row?.n ?? 0);
}

const today = (calendar: BusinessCalendar, now: Date) => calendar.dayStart(calendar.day(now));

/** After a read of a report's people or history (its entry already written in `tx`). */
export async function checkMassiveReading(
  settings: JournalSettings,
  calendar: BusinessCalendar,
  db: Database,
  tx: Orm,
  userId: number,
  now: Date,
): Promise<void> {
  const dayStart = today(calendar, now);
  // Two reads of the same user at once must not both raise the alert (SQLite serialises already).
  await lockFor(db, tx, LOCK_SPACE.accessAlerts, userId);
  const windowStart = new Date(now.getTime() - settings.windowMinutes * 60_000);
  const inWindow = await reportsRead(db, tx, userId, windowStart);
  if (inWindow >= settings.reads && !(await alertedSince(db, tx, userId, 'lecture_massive', dayStart))) {
    await raiseAlert(settings, db, tx, now, userId, 'lecture_massive', {
      signalements: inWindow,
      fenetreMinutes: settings.windowMinutes,
      seuil: settings.reads,
    });
  }
  const inDay = await reportsRead(db, tx, userId, dayStart);
  if (
    inDay >= settings.dailyReads &&
    !(await alertedSince(db, tx, userId, 'lecture_quotidienne', dayStart))
  ) {
    await raiseAlert(settings, db, tx, now, userId, 'lecture_quotidienne', {
      signalements: inDay,
      jour: calendar.day(now),
      seuil: settings.dailyReads,
    });
  }
}

/**
 * Rows of the reports list the user exported since `since`. Summed here rather than in SQL (the count is
 * in the entries' JSON, read differently by each engine): a user's exports of one day are few.
 */
async function rowsExported(
  db: Database,
  tx: Orm,
  userId: number,
  since: Date,
): Promise<{ lignes: number; exports: number }> {
  const l = db.t.accessLog;
  const rows = await tx
    .select({ details: l.details })
    .from(l)
    .where(and(eq(l.userId, userId), eq(l.kind, 'export'), gte(l.at, since)));
  const lists = rows.map((r) => r.details ?? {}).filter((d) => d.objet !== 'journal');
  const lignes = lists.reduce((sum, d) => sum + (typeof d.lignes === 'number' ? d.lignes : 0), 0);
  return { lignes, exports: lists.length };
}

/** After an export of the reports list (its entry already written in `tx`). */
export async function checkMassiveExport(
  settings: JournalSettings,
  calendar: BusinessCalendar,
  db: Database,
  tx: Orm,
  userId: number,
  format: string,
  now: Date,
): Promise<void> {
  const dayStart = today(calendar, now);
  await lockFor(db, tx, LOCK_SPACE.accessAlerts, userId);
  const { lignes, exports } = await rowsExported(db, tx, userId, dayStart);
  const jour = calendar.day(now);
  if (lignes >= settings.exportMinRows && !(await alertedSince(db, tx, userId, 'export_massif', dayStart))) {
    const [row] = await tx.select({ n: count() }).from(db.t.signalements);
    const total = Number(row?.n ?? 0);
    if (total > 0 && lignes >= settings.exportShare * total) {
      await raiseAlert(settings, db, tx, now, userId, 'export_massif', {
        format,
        lignes,
        exports,
        jour,
        total,
        part: Math.round((lignes / total) * 1000) / 1000,
        seuilLignes: settings.exportMinRows,
        seuilPart: settings.exportShare,
      });
    }
  }
  if (
    lignes >= settings.dailyExportRows &&
    !(await alertedSince(db, tx, userId, 'export_quotidien', dayStart))
  ) {
    await raiseAlert(settings, db, tx, now, userId, 'export_quotidien', {
      lignes,
      exports,
      jour,
      seuil: settings.dailyExportRows,
    });
  }
}

/** Inserts the alert and queues one e-mail per enabled administrator, in the caller's transaction. */
async function raiseAlert(
  { publicUrl }: JournalSettings,
  db: Database,
  tx: Orm,
  at: Date,
  userId: number,
  kind: AccessAlertKind,
  details: Record<string, unknown>,
) {
  const { accessAlerts, utilisateurs: u, utilisateurRoles: r } = db.t;
  await tx.insert(accessAlerts).values({ kind, userId, details, createdAt: at });
  const [user] = await tx
    .select({ code: u.code, nomPrenom: u.nomPrenom, email: u.email })
    .from(u)
    .where(eq(u.id, userId))
    .limit(1);
  if (!user) return;
  const admins = await tx
    .select({ email: u.email, nomPrenom: u.nomPrenom })
    .from(u)
    .innerJoin(r, eq(r.id, u.roleId))
    .where(and(eq(r.code, ROLE_ADMIN), eq(u.isEnabled, true)));
  const message = describeAlert(kind, details);
  for (const admin of admins) {
    await enqueueMail(
      db,
      accessAlertMail({
        to: admin.email,
        nomPrenom: admin.nomPrenom,
        user,
        message,
        link: journalLink(publicUrl, user.code),
      }),
    );
  }
}
