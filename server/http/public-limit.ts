// The public look-up (a report's summary by its code) is the one door that reads data without a
// session. Each call is counted before the look-up, per client address and over all addresses. The
// counters live in the database (table rate_windows), so that several server processes on one
// PostgreSQL share them (issue #13): each count is one atomic upsert that returns the new count, so
// batches and concurrent requests, on one process or several, cannot slip past. See
// docs/decisions/0015-security-model.md.
import { lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { DomainError, MESSAGES } from '../errors';

export const PUBLIC_LOOKUP_WINDOW_MS = 60_000;
export const PUBLIC_LOOKUPS_PER_ADDRESS = 30;
export const PUBLIC_LOOKUPS_GLOBAL = 600;

export class PublicLookupLimiter {
  constructor(
    private readonly db: Database,
    private readonly perAddressMax = PUBLIC_LOOKUPS_PER_ADDRESS,
    private readonly globalMax = PUBLIC_LOOKUPS_GLOBAL,
  ) {}

  /** Counts one public look-up; throws 429 (with Retry-After) over the per-address or global limit. */
  async take(ip: string, now = Date.now()): Promise<void> {
    const { db } = this;
    const w = db.t.rateWindows;
    const at = new Date(now);
    const expired = new Date(now - PUBLIC_LOOKUP_WINDOW_MS);
    const counted = await db.transaction(async (tx) => {
      // Windows over for a minute or more are of no use: the table holds the addresses of the last minute.
      await tx.delete(w).where(lt(w.startedAt, expired));
      const count = async (key: string) => {
        const restart = sql`${w.startedAt} <= ${sql.param(expired, w.startedAt)}`;
        const [row] = await tx
          .insert(w)
          .values({ key, startedAt: at, count: 1 })
          .onConflictDoUpdate({
            target: w.key,
            set: {
              count: sql`case when ${restart} then 1 else ${w.count} + 1 end`,
              startedAt: sql`case when ${restart} then ${sql.param(at, w.startedAt)} else ${w.startedAt} end`,
            },
          })
          .returning({ count: w.count, startedAt: w.startedAt });
        return row!;
      };
      return { mine: await count(`ip:${ip}`), global: await count('global') };
    });
    const over =
      counted.mine.count > this.perAddressMax ? counted.mine : counted.global.count > this.globalMax ? counted.global : null;
    if (over) {
      const retryAfterSeconds = Math.max(1, Math.ceil((over.startedAt.getTime() + PUBLIC_LOOKUP_WINDOW_MS - now) / 1000));
      throw new DomainError('too_many_requests', MESSAGES.tooManyRequests, { retryAfterSeconds });
    }
  }
}
