// How far behind the outbox is (health check and metrics, README « Health and metrics »): messages waiting to
// be sent, failed ones waiting for an administrator, and the age of the oldest waiting one.
import { inArray, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';

export interface MailBacklog {
  pending: number;
  failed: number;
  /** Age in seconds of the oldest pending message; null when none is pending. */
  oldestPendingSeconds: number | null;
}

export async function mailBacklog(db: Database, now = new Date()): Promise<MailBacklog> {
  const o = db.t.mailOutbox;
  // One statement: the health check runs it on every call.
  const [row] = await db.read
    .select({
      pending: sql<number>`coalesce(sum(case when ${o.status} = 'pending' then 1 else 0 end), 0)`.mapWith(
        Number,
      ),
      failed: sql<number>`coalesce(sum(case when ${o.status} = 'failed' then 1 else 0 end), 0)`.mapWith(
        Number,
      ),
      oldest: sql<Date | null>`min(case when ${o.status} = 'pending' then ${o.createdAt} end)`.mapWith(
        o.createdAt,
      ),
    })
    .from(o)
    .where(inArray(o.status, ['pending', 'failed']));
  const oldest = row?.oldest ?? null;
  return {
    pending: row?.pending ?? 0,
    failed: row?.failed ?? 0,
    oldestPendingSeconds: oldest ? Math.max(0, Math.round((now.getTime() - oldest.getTime()) / 1000)) : null,
  };
}
