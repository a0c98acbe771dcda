// The deadline conditions on reports (docs/decisions/0032-deadlines.md), in one place for the list's
// filter and the dashboard's counts. A report without a deadline (no niveau, a niveau without one, a statut
// of the treated or closed kind) holds NO_DUE_DAY, so these ranges of the due-day index hold open reports only.
import { and, gte, lt, lte, type SQL } from 'drizzle-orm';
import { DUE_SOON_DAYS } from '#shared/constants';
import type { ReadOnlyDatabase } from '#server/db/client';

/** Overdue: its due day is before today (the due day itself is still on time). */
export const overdueCondition = (db: ReadOnlyDatabase, today: number): SQL =>
  lt(db.t.signalements.dueDay, today);

/** Due today or within DUE_SOON_DAYS calendar days, not yet overdue. */
export const dueSoonCondition = (db: ReadOnlyDatabase, today: number): SQL =>
  and(gte(db.t.signalements.dueDay, today), lte(db.t.signalements.dueDay, today + DUE_SOON_DAYS))!;
