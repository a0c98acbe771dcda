// How far behind the outbox is (health check and metrics, issue #13): messages waiting to be sent, failed
// ones waiting for an administrator, and the age of the oldest waiting one.
import { and, count, eq, min } from 'drizzle-orm';
import type { Database } from '../../db/client';

export interface MailBacklog {
  pending: number;
  failed: number;
  /** Age in seconds of the oldest pending message; null when none is pending. */
  oldestPendingSeconds: number | null;
}

export async function mailBacklog(db: Database, now = new Date()): Promise<MailBacklog> {
  const o = db.t.mailOutbox;
  const [pending] = await db.read.select({ n: count(), oldest: min(o.createdAt) }).from(o).where(eq(o.status, 'pending'));
  const [failed] = await db.read.select({ n: count() }).from(o).where(and(eq(o.status, 'failed')));
  const oldest = pending?.oldest ? new Date(pending.oldest as unknown as string | number | Date) : null;
  return {
    pending: Number(pending?.n ?? 0),
    failed: Number(failed?.n ?? 0),
    oldestPendingSeconds: oldest ? Math.max(0, Math.round((now.getTime() - oldest.getTime()) / 1000)) : null,
  };
}
