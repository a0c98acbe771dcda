// Retention of the access log (docs/decisions/0015 "Retention"): the only path that deletes
// entries, run with the hourly maintenance (mail/retention.ts). Entries dated before the first business
// day kept (today, Madagascar time, minus ACCESS_LOG_RETENTION_DAYS) are deleted in one transaction that
// sets the purge's marker (access_log_purge.cutoff, the only thing the DELETE trigger lets through), deletes,
// writes one `purge` entry saying what it removed, and clears the marker before it commits: outside that
// transaction no statement sees a marker, and the database refuses one younger than 30 days.
import { eq, lt } from 'drizzle-orm';
import { addDays, type BusinessCalendar } from '#shared/calendar';
import type { JournalContext } from '#server/context';
import type { Database } from '#server/db/client';
import { recordAccess } from './append';
import { flushLoginRefusals } from './refusals';

export interface LogPurged {
  /** Entries deleted. */
  entries: number;
  /** Summary rows written for log-ins refused by the limiter (refusals.ts). */
  refusals: number;
}

/** The first business day kept, 'yyyy-MM-dd'. */
export const firstDayKept = (calendar: BusinessCalendar, now: Date, retentionDays: number): string =>
  addDays(calendar.day(now), -retentionDays);

export async function purgeAccessLog(
  journal: JournalContext,
  calendar: BusinessCalendar,
  db: Database,
  now = new Date(),
  retentionDays = journal.settings.retentionDays,
): Promise<LogPurged> {
  const refusals = await flushLoginRefusals(journal.refusals, db, now.getTime());
  const day = firstDayKept(calendar, now, retentionDays);
  const cutoff = calendar.dayStart(day);
  const { accessLog: l, accessLogPurge: p } = db.t;
  const [oldest] = await db.read.select({ id: l.id }).from(l).where(lt(l.at, cutoff)).limit(1);
  if (!oldest) return { entries: 0, refusals };
  const entries = await db.transaction(async (tx) => {
    await tx.update(p).set({ cutoff }).where(eq(p.id, 1));
    const deleted = await tx.delete(l).where(lt(l.at, cutoff)).returning({ id: l.id });
    await recordAccess(
      db,
      {
        kind: 'purge',
        userId: null,
        email: null,
        address: null,
        details: { supprimees: deleted.length, avant: day, conservationJours: retentionDays },
      },
      tx,
      now,
    );
    await tx.update(p).set({ cutoff: null }).where(eq(p.id, 1));
    return deleted.length;
  });
  return { entries, refusals };
}
