// Retention (decision 0004), run by the mail worker at start and every hour, the one periodic job of a
// server: sent messages and password links used or expired are deleted after MAIL_RETENTION_DAYS; so are the
// rows of workers long gone, the idempotency answers past their day and the public-summary limit's windows
// past their minute; so is the access log past its retention (journal/retention.ts). Messages and links, which can be many, go in batches of 500 so that no transaction
// holds the database long; the other tables hold a day's rows at most.
// Messages not sent (pending, or failed and waiting for an administrator) are kept.
import { and, eq, inArray, isNotNull, lt, or } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { purgeRateWindows } from '#server/http/public-limit';
import { IDEMPOTENCY_TTL_MS } from '../idempotency/service';
import { purgeAccessLog, type LogPurged } from '../journal/retention';

export const DEFAULT_RETENTION_DAYS = 30;
export const DEFAULT_RETENTION_MS = DEFAULT_RETENTION_DAYS * 24 * 60 * 60_000;
const BATCH = 500;

export interface Purged {
  mails: number;
  links: number;
  workers: number;
  /** Idempotency answers older than their day (they may name a person since deleted). */
  answers: number;
  /** Public-summary limit windows over (keyed hashes of addresses). */
  windows: number;
  /** Access log past ACCESS_LOG_RETENTION_DAYS, and the summaries of log-ins refused by the limiter. */
  accessLog: LogPurged;
}

export async function purgeExpired(
  { db, journal, calendar }: Pick<AppContext, 'db' | 'journal' | 'calendar'>,
  retentionMs = DEFAULT_RETENTION_MS,
  now = new Date(),
): Promise<Purged> {
  const cutoff = new Date(now.getTime() - retentionMs);
  const o = db.t.mailOutbox;
  const p = db.t.passwordTokens;
  const w = db.t.mailWorkers;
  const inBatches = async (select: () => Promise<number[]>, remove: (ids: number[]) => Promise<unknown>) => {
    let total = 0;
    for (;;) {
      const ids = await select();
      if (ids.length === 0) return total;
      await remove(ids);
      total += ids.length;
      if (ids.length < BATCH) return total;
    }
  };
  const mails = await inBatches(
    async () =>
      (
        await db.read
          .select({ id: o.id })
          .from(o)
          .where(and(eq(o.status, 'sent'), lt(o.sentAt, cutoff)))
          .limit(BATCH)
      ).map((r) => r.id),
    (ids) => db.transaction((tx) => tx.delete(o).where(and(inArray(o.id, ids), eq(o.status, 'sent')))),
  );
  const links = await inBatches(
    async () =>
      (
        await db.read
          .select({ id: p.id })
          .from(p)
          .where(or(and(isNotNull(p.usedAt), lt(p.usedAt, cutoff)), lt(p.expiresAt, cutoff)))
          .limit(BATCH)
      ).map((r) => r.id),
    (ids) => db.transaction((tx) => tx.delete(p).where(inArray(p.id, ids))),
  );
  const [gone] = await db
    .transaction((tx) =>
      tx
        .delete(w)
        .where(lt(w.beatAt, new Date(now.getTime() - 24 * 60 * 60_000)))
        .returning({ id: w.id }),
    )
    .then((rows) => [rows.length]);
  const k = db.t.idempotencyKeys;
  const answers = await db
    .transaction((tx) =>
      tx
        .delete(k)
        .where(lt(k.createdAt, new Date(now.getTime() - IDEMPOTENCY_TTL_MS)))
        .returning({ key: k.key }),
    )
    .then((rows) => rows.length);
  const windows = await purgeRateWindows(db, now.getTime());
  const accessLog = await purgeAccessLog(journal, calendar, db, now);
  return { mails, links, workers: gone ?? 0, answers, windows, accessLog };
}
