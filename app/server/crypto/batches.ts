// Reading a whole table in id order, a batch at a time, for the passes that rewrite every encrypted
// value (the start-time migration and the key rotation).
import { and, asc, gt, like } from 'drizzle-orm';
import type { Database, Orm } from '../db/client';

const BATCH = 1000;

/** Every row `page` returns, asking for the next batch after the last id seen until one is empty. */
export async function* rowsById<R extends { id: number }>(
  page: (after: number, limit: number) => Promise<R[]>,
): AsyncGenerator<R> {
  for (let after = 0; ;) {
    const rows = await page(after, BATCH);
    if (rows.length === 0) return;
    yield* rows;
    after = rows[rows.length - 1]!.id;
  }
}

/** The history entries about sources (actions `source.*`), the only ones holding encrypted values. */
export function sourceHistoryRows(db: Database, tx: Orm) {
  const h = db.t.signalementHistorique;
  return rowsById(async (after, limit) =>
    (
      await tx
        .select({ id: h.id, changes: h.changes })
        .from(h)
        .where(and(gt(h.id, after), like(h.action, 'source.%')))
        .orderBy(asc(h.id))
        .limit(limit)
    ).map((r) => ({ id: r.id, changes: r.changes as Record<string, { from: unknown; to: unknown }> })),
  );
}
