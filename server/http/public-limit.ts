// The public look-up (a report's summary by its code) is the one door that reads data without a
// session. Each call is counted before the look-up, per client address and over all addresses. The
// counters live in the database (table rate_windows), so that several server processes on one
// PostgreSQL share them (issue #13): each count is one atomic upsert that returns the new count, so
// batches and concurrent requests, on one process or several, cannot slip past. See
// docs/decisions/0015-security-model.md.
//
// Addresses are stored as a keyed hash (the data key's blind index), not in clear: the table is personal
// data of whoever looked a summary up, and it goes into backups. Old windows are deleted by the hourly
// purge (mail/retention.ts), not by each look-up. Once this process has refused an address, or everyone,
// it refuses again without writing until that window ends, so a flood costs the database nothing more.
import { sql } from 'drizzle-orm';
import { cipherOf } from '../crypto/registry';
import type { Database } from '../db/client';
import { DomainError, MESSAGES } from '../errors';

export const PUBLIC_LOOKUP_WINDOW_MS = 60_000;
export const PUBLIC_LOOKUPS_PER_ADDRESS = 30;
export const PUBLIC_LOOKUPS_GLOBAL = 600;

/** Entries of the in-process refusals kept at most (expired ones go first). */
const REFUSALS_KEPT = 10_000;

export class PublicLookupLimiter {
  /** Counter key → until when this process refuses it without asking the database (ms). */
  private readonly refused = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly perAddressMax = PUBLIC_LOOKUPS_PER_ADDRESS,
    private readonly globalMax = PUBLIC_LOOKUPS_GLOBAL,
  ) {}

  /** Counts one public look-up; throws 429 (with Retry-After) over the per-address or global limit. */
  async take(ip: string, now = Date.now()): Promise<void> {
    const { db } = this;
    const w = db.t.rateWindows;
    const mine = `ip:${cipherOf(db).blindIndex(`limite ${ip}`)}`;
    for (const key of ['global', mine]) {
      const until = this.refused.get(key);
      if (until !== undefined && until > now) this.refuse(until, now);
    }
    const at = new Date(now);
    const expired = new Date(now - PUBLIC_LOOKUP_WINDOW_MS);
    const counted = await db.transaction(async (tx) => {
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
      // Always in this order (address, then everyone): two transactions never wait for each other's rows.
      return { mine: await count(mine), global: await count('global') };
    });
    const over =
      counted.mine.count > this.perAddressMax
        ? { key: mine, window: counted.mine }
        : counted.global.count > this.globalMax
          ? { key: 'global', window: counted.global }
          : null;
    if (over) {
      const until = over.window.startedAt.getTime() + PUBLIC_LOOKUP_WINDOW_MS;
      this.remember(over.key, until, now);
      this.refuse(until, now);
    }
  }

  private refuse(until: number, now: number): never {
    const retryAfterSeconds = Math.max(1, Math.ceil((until - now) / 1000));
    throw new DomainError('too_many_requests', MESSAGES.tooManyRequests, { retryAfterSeconds });
  }

  private remember(key: string, until: number, now: number) {
    if (this.refused.size >= REFUSALS_KEPT) {
      for (const [k, u] of this.refused) if (u <= now) this.refused.delete(k);
      if (this.refused.size >= REFUSALS_KEPT) this.refused.clear();
    }
    this.refused.set(key, until);
  }
}

/** Windows over for a minute or more are of no use: deletes them (the hourly purge). */
export async function purgeRateWindows(db: Database, now = Date.now()): Promise<number> {
  const w = db.t.rateWindows;
  const rows = await db.transaction((tx) =>
    tx
      .delete(w)
      .where(sql`${w.startedAt} < ${sql.param(new Date(now - PUBLIC_LOOKUP_WINDOW_MS), w.startedAt)}`)
      .returning({ key: w.key }),
  );
  return rows.length;
}
