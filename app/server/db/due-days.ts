// Handling deadlines in the database (docs/decisions/0032-deadlines.md). Each report keeps its due day
// (signalements.due_day, an epoch-day number, NO_DUE_DAY when it has none) so that the « En retard » filter,
// the « À échéance » filter and the sort by due day read one index. The due day is computed by the
// database, set-based, from two tables: business_days (every calendar day with its business-day ordinal,
// filled here at start) and delais_traitement (the days of each niveau). refreshDueDays is the one writer.
import { sql, type SQL } from 'drizzle-orm';
import { businessDayOrdinals, dayNumber } from '#shared/calendar';
import { NO_DUE_DAY } from '#shared/constants';
import type { Database, Engine } from './client';

/** The calendar days business_days covers: every day a report can be filed on, and far enough after it. */
export const BUSINESS_DAYS_FIRST = dayNumber('1900-01-01');
export const BUSINESS_DAYS_LAST = dayNumber('2100-12-31');

/**
 * The business day (epoch-day number in APP_TIMEZONE) of a report's signalement_at, read from
 * business_calendar_offsets as the day counts do (docs/decisions/0018): the same day the screens show.
 */
function reportStartDay(engine: Engine): SQL {
  if (engine === 'postgres') return sql.raw(`"business_day"(s.signalement_at)`);
  const local = `(s.signalement_at + (SELECT o.offset_ms FROM business_calendar_offsets AS o WHERE o.starts_at <= s.signalement_at ORDER BY o.starts_at DESC LIMIT 1))`;
  return sql.raw(`((${local} - (((${local} % 86400000) + 86400000) % 86400000)) / 86400000)`);
}

/** Which reports refreshDueDays recomputes. */
export type DueDayScope =
  /** Reports by id (a created or edited report, or a bulk change of niveaux or statuts). */
  | { ids: readonly number[] }
  /** The open reports of these niveaux (a change of their deadline). */
  | { niveauIds: readonly number[] }
  /** Every open report with a niveau (business_days rebuilt, another time zone). */
  | 'all';

/**
 * Recomputes the due day of the reports in `scope`, in one UPDATE, inside the caller's transaction (or its
 * own): NO_DUE_DAY for a report that is treated or closed (is_treated, the rule of statut-kind.ts), has no
 * niveau, or whose niveau has no deadline; otherwise the first day whose business-day ordinal is the start
 * day's plus the niveau's days (the start day itself is not counted). Call it after writing a report's
 * niveau, signalement_at or statut: the services of both doors do, and so must any other writer of those.
 */
export async function refreshDueDays(db: Database, scope: DueDayScope): Promise<void> {
  if (typeof scope === 'object' && 'ids' in scope && scope.ids.length === 0) return;
  if (typeof scope === 'object' && 'niveauIds' in scope && scope.niveauIds.length === 0) return;
  const where =
    scope === 'all'
      ? sql`s.is_treated = ${db.engine === 'postgres' ? sql`false` : sql`0`} and s.niveau_id is not null`
      : 'ids' in scope
        ? db.dialect.idList(sql`s.id`, scope.ids)
        : sql`${db.dialect.idList(sql`s.niveau_id`, scope.niveauIds)} and s.is_treated = ${db.engine === 'postgres' ? sql`false` : sql`0`}`;
  const start = reportStartDay(db.engine);
  const due = sql`(select min(b2.day) from business_days as b2 where b2.ordinal = (
      select b1.ordinal + d.jours from business_days as b1, delais_traitement as d
      where b1.day = ${start} and d.niveau_id = s.niveau_id and d.jours is not null))`;
  // PostgreSQL names the updated table in the sub-queries by its alias; SQLite (3.33+) accepts it too.
  const statement = sql`update signalements as s set due_day = case when s.is_treated then ${sql.raw(String(NO_DUE_DAY))} else coalesce(${due}, ${sql.raw(String(NO_DUE_DAY))}) end where ${where}`;
  await db.transaction(async () => {
    // Every open report of a niveau may outlast the serving pool's statement limit (a million reports).
    if (db.engine === 'postgres' && !(typeof scope === 'object' && 'ids' in scope))
      await db.execute(sql`SET LOCAL statement_timeout = 0`);
    await db.execute(statement);
  });
}

/** business_days as shared/calendar.ts computes it: the first day, and the ordinal of each following day. */
function wantedOrdinals(): number[] {
  return businessDayOrdinals(BUSINESS_DAYS_FIRST, BUSINESS_DAYS_LAST).map((r) => r.ordinal);
}

/**
 * Fills business_days when it does not hold what shared/calendar.ts computes (the first start after the
 * migration, or a change of the holidays in the code), then recomputes every open report's due day, in one
 * transaction. Cheap when nothing changed: one aggregate over 73,000 rows. Returns whether it rewrote.
 */
export async function syncBusinessDays(db: Database): Promise<boolean> {
  const ordinals = wantedOrdinals();
  const checksum = ordinals.reduce((sum, o, i) => (sum + o * ((i % 997) + 1)) % 1_000_000_007, 0);
  const [stored] = await db.rows<{ n: unknown; first: unknown; last: unknown; sum: unknown }>(
    sql`select count(*) as n, min(day) as first, max(day) as last,
      coalesce(sum((ordinal * (((day - ${BUSINESS_DAYS_FIRST}) % 997) + 1)) % 1000000007), 0) as sum
      from business_days`,
  );
  const storedSum = Number(stored?.sum ?? 0) % 1_000_000_007;
  const same =
    Number(stored?.n) === ordinals.length &&
    Number(stored?.first) === BUSINESS_DAYS_FIRST &&
    Number(stored?.last) === BUSINESS_DAYS_LAST &&
    storedSum === checksum;
  if (same) return false;
  await db.transaction(async () => {
    await db.execute(sql`delete from business_days`);
    const values =
      db.engine === 'postgres'
        ? sql`select cast(${BUSINESS_DAYS_FIRST} as integer) + cast(t.i as integer) - 1, t.o
            from unnest(${`{${ordinals.join(',')}}`}::integer[]) with ordinality as t(o, i)`
        : sql`select ${BUSINESS_DAYS_FIRST} + cast(key as integer), value from json_each(${JSON.stringify(ordinals)})`;
    await db.execute(sql`insert into business_days (day, ordinal) ${values}`);
    await refreshDueDays(db, 'all');
  });
  return true;
}
