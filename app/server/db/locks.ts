import type { Database, Orm } from './client';

/** Namespaces of the transaction-scoped advisory locks (first key of pg_advisory_xact_lock). */
export const LOCK_SPACE = { accessAlerts: 8111, savedFilters: 8112, partnerWebhooks: 8113 } as const;

/**
 * Serialises the transactions that hold the same (space, id) until they end. SQLite runs one writing
 * transaction at a time already; PostgreSQL takes a transaction-scoped advisory lock, which blocks no
 * row and is released at COMMIT or ROLLBACK.
 */
export async function lockFor(db: Database, tx: Orm, space: number, id: number): Promise<void> {
  const lock = db.dialect.transactionLock(space, id);
  if (lock) await db.rows(lock, tx);
}
