import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Engine } from './client';

/**
 * Date SQL that differs between the engines, one small function per engine. Calendar days are UTC
 * days (docs/decisions/0010-dashboard-data.md). SQLite stores timestamps as integer milliseconds since
 * the epoch, PostgreSQL as timestamptz.
 */

/** A timestamp parameter in the engine's storage type, comparable with a timestamp column. */
export function timestampParam(engine: Engine, at: Date): SQL {
  return engine === 'sqlite' ? sql`${at.getTime()}` : sql`cast(${at.toISOString()} as timestamptz)`;
}

export interface Bucket {
  /** First day of the bucket, 'yyyy-MM-dd'. */
  day: string;
  lo: Date;
  hi: Date;
}

/** A derived table `(day, lo, hi)` of a few irregular buckets (weeks, months, years) given by the caller. */
export function listedBuckets(engine: Engine, buckets: readonly Bucket[]): SQL {
  const rows = buckets.map(
    (b) =>
      sql`select ${b.day} as day, ${timestampParam(engine, b.lo)} as lo, ${timestampParam(engine, b.hi)} as hi`,
  );
  return sql`(${sql.join(rows, sql` union all `)})`;
}

/** Days (fractional) from one timestamp to another. */
export function daysBetween(engine: Engine, from: AnyColumn | SQL, to: AnyColumn | SQL): SQL<number> {
  return engine === 'sqlite'
    ? sql<number>`((${to} - ${from}) / 86400000.0)`
    : sql<number>`(extract(epoch from (${to} - ${from})) / 86400.0)`;
}
