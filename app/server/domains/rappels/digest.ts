// The daily reminder e-mails (docs/decisions/0036-daily-reminders.md). From DIGEST_HOUR (business time zone)
// the first server to look claims the business day in `daily_digests` and, in the same transaction, queues
// every reminder in the outbox: an assignee's overdue reports and those due within DIGEST_SOON_DAYS calendar
// days; an administrator's open reports nobody has and every overdue report. Another server (or this one
// again) finds the day claimed and does nothing; a crash before COMMIT leaves the day unclaimed and nothing
// queued, so the next look sends it. A day no server looked at after the hour is not sent the next day.
import { and, asc, count, eq, exists, lte, not, sql } from 'drizzle-orm';
import { BASE_PATH, ROLE_ADMIN } from '#shared/constants';
import { dayOfNumber } from '#shared/calendar';
import type { AppContext } from '#server/context';
import type { Orm } from '#server/db/client';
import { overdueCondition } from '../delais/conditions';
import { enqueueMail } from '../mail/outbox';
import {
  adminDigestMail,
  assigneeDigestMail,
  DIGEST_MAIL_CODES,
  myCasesLink,
  reportLink,
  type DigestReport,
} from '../mail/templates';

/** An assignee is reminded of the reports overdue and of those due within this many calendar days. */
export const DIGEST_SOON_DAYS = 3;

export type DigestContext = Pick<AppContext, 'db' | 'config' | 'clock' | 'calendar'>;

export interface DigestRun {
  /** The business day sent (epoch-day number). */
  day: number;
  /** How many e-mails were queued. */
  mails: number;
}

/** 'yyyy-MM-dd' → 'dd/MM/yyyy'. */
const frenchDay = (day: number) => dayOfNumber(day).split('-').reverse().join('/');

/**
 * Sends today's reminders if it is past the hour and no server has sent them yet: the run, or null when
 * there was nothing to do (before the hour, or the day already claimed).
 */
export async function sendDailyDigests(ctx: DigestContext): Promise<DigestRun | null> {
  const now = ctx.clock.now();
  if (ctx.calendar.wallClock(now).getUTCHours() < ctx.config.DIGEST_HOUR) return null;
  const today = ctx.calendar.dayNumber(now);
  const { db } = ctx;
  const d = db.t.dailyDigests;
  return db.transaction(async (tx) => {
    // Insert-or-nothing: on PostgreSQL a concurrent insert of the same day waits for this transaction and
    // then inserts nothing (or the day, if this one rolled back); SQLite's writes are serialised.
    const claimed = await tx
      .insert(d)
      .values({ day: today, sentAt: now, mails: 0 })
      .onConflictDoNothing()
      .returning({ day: d.day });
    if (claimed.length === 0) return null;
    const mails = (await assigneeDigests(ctx, tx, today)) + (await adminDigests(ctx, tx, today));
    await tx.update(d).set({ mails }).where(eq(d.day, today));
    return { day: today, mails };
  });
}

/** One e-mail per enabled user with the reminder on and at least one assigned report due soon or overdue. */
async function assigneeDigests(ctx: DigestContext, tx: Orm, today: number): Promise<number> {
  const { db, config } = ctx;
  const { signalements: s, signalementAssignees: a, utilisateurs: u, partenaires: p, niveaux: n } = db.t;
  // Reports without a deadline hold NO_DUE_DAY (decision 0032): this range holds open reports only.
  const rows = await tx
    .select({
      userId: u.id,
      userCode: u.code,
      email: u.email,
      nomPrenom: u.nomPrenom,
      code: s.code,
      partenaire: p.designation,
      niveau: n.designation,
      dueDay: s.dueDay,
    })
    .from(a)
    .innerJoin(u, eq(u.id, a.userId))
    .innerJoin(s, eq(s.id, a.signalementId))
    .innerJoin(p, eq(p.id, s.partenaireId))
    .leftJoin(n, eq(n.id, s.niveauId))
    .where(and(eq(u.isEnabled, true), eq(u.digestEnabled, true), lte(s.dueDay, today + DIGEST_SOON_DAYS)))
    .orderBy(asc(u.id), asc(s.dueDay), asc(s.code));
  const byUser = new Map<
    number,
    { to: string; nomPrenom: string; userCode: string; reports: DigestReport[] }
  >();
  for (const row of rows) {
    let entry = byUser.get(row.userId);
    if (!entry) {
      entry = { to: row.email, nomPrenom: row.nomPrenom, userCode: row.userCode, reports: [] };
      byUser.set(row.userId, entry);
    }
    entry.reports.push({
      code: row.code,
      partenaire: row.partenaire,
      niveau: row.niveau,
      echeance: frenchDay(row.dueDay),
      days: row.dueDay - today,
      link: reportLink(config.PUBLIC_URL, row.code),
    });
  }
  for (const entry of byUser.values()) {
    await enqueueMail(
      db,
      assigneeDigestMail({
        to: entry.to,
        nomPrenom: entry.nomPrenom,
        reports: entry.reports,
        myCases: myCasesLink(config.PUBLIC_URL, entry.userCode),
      }),
    );
  }
  return byUser.size;
}

/** One e-mail per enabled administrator with the reminder on, when some report is unassigned or overdue. */
async function adminDigests(ctx: DigestContext, tx: Orm, today: number): Promise<number> {
  const { db, config } = ctx;
  const { signalements: s, signalementAssignees: a, utilisateurs: u, utilisateurRoles: r } = db.t;
  const admins = await tx
    .select({ email: u.email, nomPrenom: u.nomPrenom })
    .from(u)
    .innerJoin(r, eq(r.id, u.roleId))
    .where(and(eq(r.code, ROLE_ADMIN), eq(u.isEnabled, true), eq(u.digestEnabled, true)))
    .orderBy(asc(u.id));
  if (admins.length === 0) return 0;
  const unassigned = and(
    eq(s.isTreated, false),
    not(
      exists(
        tx
          .select({ one: sql`1` })
          .from(a)
          .where(eq(a.signalementId, s.id)),
      ),
    ),
  );
  const overdue = overdueCondition(db, today);
  const list = async (where: ReturnType<typeof and>, order: ReturnType<typeof asc>[]) => {
    const [total] = await tx.select({ n: count() }).from(s).where(where);
    const codes = await tx
      .select({ code: s.code })
      .from(s)
      .where(where)
      .orderBy(...order)
      .limit(DIGEST_MAIL_CODES);
    return { count: Number(total?.n ?? 0), codes: codes.map((c) => c.code) };
  };
  const base = `${config.PUBLIC_URL.replace(/\/+$/, '')}${BASE_PATH}/signalement/list`;
  const unassignedList = {
    ...(await list(unassigned, [asc(s.signalementAt), asc(s.id)])),
    link: `${base}?assigne=aucun`,
  };
  const overdueList = {
    ...(await list(overdue, [asc(s.dueDay), asc(s.id)])),
    link: `${base}?echeance=en_retard`,
  };
  if (unassignedList.count === 0 && overdueList.count === 0) return 0;
  for (const admin of admins) {
    await enqueueMail(
      db,
      adminDigestMail({
        to: admin.email,
        nomPrenom: admin.nomPrenom,
        unassigned: unassignedList,
        overdue: overdueList,
      }),
    );
  }
  return admins.length;
}
