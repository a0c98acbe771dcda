// The fixed windows of table rate_windows: the public summary's limits (server/http/public-limit.ts), each
// partner API token's (domains/jetons-api/bearer.ts) and the hourly e-mail about wrong second-factor codes
// (domains/auth/two-factor-guesses.ts). A count is one atomic upsert that returns the new count and the
// window's start, so concurrent requests, batches and several servers on one PostgreSQL cannot slip past.
import { sql } from 'drizzle-orm';
import type { Database, Orm } from './client';

export interface WindowCount {
  count: number;
  startedAt: Date;
}

/**
 * Counts one more in the window of `key`: a window started `windowMs` or more before `now` starts again
 * at `now` with 1. Inside the caller's transaction.
 */
export async function countInWindow(
  db: Database,
  tx: Orm,
  key: string,
  windowMs: number,
  now: Date,
): Promise<WindowCount> {
  const w = db.t.rateWindows;
  const restart = sql`${w.startedAt} <= ${sql.param(new Date(now.getTime() - windowMs), w.startedAt)}`;
  const [row] = await tx
    .insert(w)
    .values({ key, startedAt: now, count: 1 })
    .onConflictDoUpdate({
      target: w.key,
      set: {
        count: sql`case when ${restart} then 1 else ${w.count} + 1 end`,
        startedAt: sql`case when ${restart} then ${sql.param(now, w.startedAt)} else ${w.startedAt} end`,
      },
    })
    .returning({ count: w.count, startedAt: w.startedAt });
  return row!;
}

/**
 * The seconds a refused request waits (Retry-After) until the window that refused it ends: at least 1 and
 * never more than the window. A request reads its clock before it reaches the database, so under concurrency
 * another request, whose clock was read later, can have started the window after this one's `now`, so that
 * the window ends a few milliseconds more than one window later: this request is told the window's length,
 * as one counted at the window's start would be (a Retry-After of 61 for a limit per minute is a lie).
 */
export function retryAfterSeconds(windowEndsAt: number, now: number, windowMs: number): number {
  const seconds = Math.ceil((windowEndsAt - now) / 1000);
  return Math.min(Math.max(1, seconds), Math.max(1, Math.ceil(windowMs / 1000)));
}
