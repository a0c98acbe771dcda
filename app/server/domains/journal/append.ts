// The one INSERT into the access log. Entries are only ever appended: triggers refuse UPDATE, and DELETE
// but for the retention purge's (drizzle migrations sqlite/0015, pg/0013; retention.ts).
import type { AccessLogKind } from '#shared/constants';
import type { Database, Orm } from '#server/db/client';

/** The longest e-mail kept (RFC 5321's limit); the rest is cut. */
const MAX_EMAIL = 254;

export interface AccessEntry {
  kind: AccessLogKind;
  userId: number | null;
  /** The account's e-mail, never text typed by someone (a failed log-in on an unknown e-mail has none). */
  email: string | null;
  address: string | null;
  signalement?: string | null;
  details: Record<string, unknown>;
}

/**
 * Appends one entry at `at` (the caller's clock: the context's, or a background task's own `now`), joining
 * the caller's transaction when there is one.
 */
export async function recordAccess(
  db: Database,
  entry: AccessEntry,
  tx: Orm | undefined,
  at: Date,
): Promise<void> {
  const values = {
    at,
    kind: entry.kind,
    userId: entry.userId,
    userEmail: entry.email === null ? null : entry.email.slice(0, MAX_EMAIL),
    address: entry.address,
    signalementCode: entry.signalement ?? null,
    details: entry.details,
  };
  if (tx) await tx.insert(db.t.accessLog).values(values);
  else await db.transaction((t) => t.insert(db.t.accessLog).values(values));
}
