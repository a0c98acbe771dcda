// The business calendar in the database (docs/decisions/0018-business-calendar.md): the UTC offsets of
// APP_TIMEZONE in business_calendar_offsets, which the day-count triggers read, and
// signalement_day_counts keyed by business day. At start the table is compared with the zone's offsets;
// when they differ (another zone, newer time-zone data), both are rewritten in one transaction.
import { asc, sql } from 'drizzle-orm';
import { offsetChanges, type OffsetChange } from '#shared/calendar';
import type { Database } from './client';
import { dayCountsBackfill } from './day-counts';
import { refreshDueDays } from './due-days';

export interface CalendarSync {
  zone: string;
  /** The zone the database was counting in before, when it changed (null when nothing was rewritten). */
  previousZone: string | null;
  rebuilt: boolean;
}

const same = (a: OffsetChange[], b: OffsetChange[]) =>
  a.length === b.length && a.every((x, i) => x.startsAt === b[i]!.startsAt && x.offsetMs === b[i]!.offsetMs);

export async function storedOffsets(db: Database): Promise<{ zone: string | null; changes: OffsetChange[] }> {
  const o = db.t.businessCalendarOffsets;
  const rows = await db.read.select().from(o).orderBy(asc(o.startsAt));
  return {
    zone: rows[0]?.zone ?? null,
    changes: rows.map((r) => ({ startsAt: r.startsAt.getTime(), offsetMs: r.offsetMs })),
  };
}

/** Makes the database count days in `zone`: rewrites the offsets and rebuilds the day counts if needed. */
export async function syncBusinessCalendar(db: Database, zone: string): Promise<CalendarSync> {
  const wanted = offsetChanges(zone);
  const stored = await storedOffsets(db);
  if (stored.zone === zone && same(stored.changes, wanted))
    return { zone, previousZone: null, rebuilt: false };
  const o = db.t.businessCalendarOffsets;
  await db.transaction(async (tx) => {
    // Rebuilding every day count may outlast the serving pool's statement limit (a million reports).
    if (db.engine === 'postgres') await db.execute(sql`SET LOCAL statement_timeout = 0`);
    await tx.delete(o);
    await tx
      .insert(o)
      .values(wanted.map((c) => ({ startsAt: new Date(c.startsAt), offsetMs: c.offsetMs, zone })));
    await tx.delete(db.t.signalementDayCounts);
    for (const statement of dayCountsBackfill(db.engine)) await db.execute(sql.raw(statement));
    // A report's start day is a day of the zone: its due day moves with it (docs/decisions/0032).
    await refreshDueDays(db, 'all');
  });
  return { zone, previousZone: stored.zone, rebuilt: true };
}
