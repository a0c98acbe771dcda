// The SQL of the dashboard calls, one statement each. Every count is a sum over signalement_day_counts,
// the per-day counts the database keeps in step with every write (docs/decisions/0014-dashboard-day-counts.md):
// a range of days reads one row per day and per value instead of one index entry per report.
// scripts/bench-dashboard.ts runs these same statements raw to measure what the layers above cost.
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { DayCountDimension } from '../../../shared/constants';
import { timestampParam } from '../../db/dates';
import type { InstantRange, LocalisationType } from './schema';

/** ` and col >= start and col < end`, for the bounds that are set. */
export function rangeCondition(db: Database, column: AnyColumn | SQL, range: InstantRange): SQL {
  const parts: SQL[] = [];
  if (range.start) parts.push(sql` and ${column} >= ${timestampParam(db.engine, range.start)}`);
  if (range.end) parts.push(sql` and ${column} < ${timestampParam(db.engine, range.end)}`);
  return sql.join(parts);
}

/**
 * ` where col >= start and col < end`, or nothing: a bare `select count(*)` is answered from the b-tree
 * page counts on SQLite, where any WHERE clause, even `1 = 1`, walks every entry.
 */
export function rangeWhere(db: Database, column: AnyColumn | SQL, range: InstantRange): SQL {
  const parts: SQL[] = [];
  if (range.start) parts.push(sql`${column} >= ${timestampParam(db.engine, range.start)}`);
  if (range.end) parts.push(sql`${column} < ${timestampParam(db.engine, range.end)}`);
  return parts.length ? sql` where ${sql.join(parts, sql` and `)}` : sql``;
}

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a UTC midnight (the key of signalement_day_counts). */
export const epochDay = (at: Date): number => Math.floor(at.getTime() / DAY_MS);

/** ` and day >= first and day < end` on signalement_day_counts, for the bounds that are set. */
function dayRange(db: Database, range: InstantRange): SQL {
  const c = db.t.signalementDayCounts;
  const parts: SQL[] = [];
  if (range.start) parts.push(sql` and ${c.day} >= ${Math.floor(range.start.getTime() / DAY_MS)}`);
  if (range.end) parts.push(sql` and ${c.day} < ${Math.ceil(range.end.getTime() / DAY_MS)}`);
  return sql.join(parts);
}

/** The reports of the range with `refId` in `dimension` (a correlated sum, 0 when none). */
function counted(db: Database, dimension: DayCountDimension, refId: AnyColumn | SQL, range: InstantRange): SQL {
  const c = db.t.signalementDayCounts;
  return sql`(select coalesce(sum(${c.n}), 0) from ${c} where ${c.dimension} = ${dimension} and ${c.refId} = ${refId}${dayRange(db, range)})`;
}

/** Reports by statut kind: 'treated' counts kinds treated and closed, as isTreated does. */
export function keyMetricsSql(db: Database, range: InstantRange): SQL {
  const st = db.t.statuts;
  return sql`select
    ${counted(db, 'total', sql`0`, range)} as total,
    coalesce(sum(case when c.kind in ('treated', 'closed') then c.n end), 0) as treated,
    coalesce(sum(case when c.kind = 'closed' then c.n end), 0) as closed
  from (select ${st.kind} as kind, ${counted(db, 'statut', st.id, range)} as n
        from ${st} where ${st.kind} <> 'open') as c`;
}

const LOCATIONS = {
  Region: (db: Database) => ({ table: db.t.regions, dimension: 'region' as const }),
  District: (db: Database) => ({ table: db.t.districts, dimension: 'district' as const }),
  Commune: (db: Database) => ({ table: db.t.communes, dimension: 'commune' as const }),
};

/** Every location of the level with its count (0 included), most reports first. */
export function perLocalisationSql(db: Database, type: LocalisationType, range: InstantRange): SQL {
  const { table: l, dimension } = LOCATIONS[type](db);
  return sql`select ${l.code} as id, ${l.designation} as designation, ${l.latitude} as latitude,
      ${l.longitude} as longitude, ${counted(db, dimension, l.id, range)} as n
    from ${l} order by n desc, ${l.designation}, ${l.code}`;
}

export function perCanalSql(db: Database, range: InstantRange): SQL {
  const c = db.t.canals;
  return sql`select ${c.code} as id, ${c.designation} as designation, ${counted(db, 'canal', c.id, range)} as n
    from ${c} order by ${c.position}, ${c.designation}`;
}

export function perNiveauSql(db: Database, range: InstantRange): SQL {
  const n = db.t.niveaux;
  return sql`select ${n.code} as code, ${n.designation} as designation, ${n.color} as color,
      ${counted(db, 'niveau', n.id, range)} as n
    from ${n} order by ${n.rank}, ${n.designation}`;
}

export function perResultatSql(db: Database, range: InstantRange): SQL {
  const res = db.t.resultats;
  return sql`select ${res.code} as code, ${res.designation} as designation, ${counted(db, 'resultat', res.id, range)} as n
    from ${res} order by ${res.position}, ${res.designation}`;
}

/** Reports per subject (a report counts once per subject), most reports first. */
export function perSubjectSql(db: Database, range: InstantRange): SQL {
  const sub = db.t.subjects;
  return sql`select ${sub.code} as code, ${sub.designation} as designation, ${counted(db, 'subject', sub.id, range)} as n
    from ${sub} order by n desc, ${sub.position}, ${sub.designation}`;
}

/**
 * One row per UTC day from `first` to `last` (UTC midnights, inclusive), key 'yyyy-MM-dd', 0 for days
 * without reports: the days are generated by the database and joined to the 'total' counts.
 */
export function perDaySql(db: Database, first: Date, last: Date): SQL {
  const c = db.t.signalementDayCounts;
  const from = epochDay(first);
  const to = epochDay(last);
  const [days, key] =
    db.engine === 'sqlite'
      ? [
          sql`(with recursive g(day) as (select ${from} union all select day + 1 from g where day < ${to}) select day from g)`,
          sql`date(d.day * 86400, 'unixepoch')`,
        ]
      : [
          sql`(select cast(g as integer) as day from generate_series(cast(${from} as integer), cast(${to} as integer)) as g)`,
          sql`to_char(date '1970-01-01' + d.day, 'YYYY-MM-DD')`,
        ];
  return sql`select ${key} as day, coalesce(${c.n}, 0) as n
    from ${days} as d left join ${c} on ${c.dimension} = 'total' and ${c.refId} = 0 and ${c.day} = d.day
    order by d.day`;
}

/** First and last signalementAt, two index seeks. */
export function reportBoundsSql(db: Database): SQL {
  const s = db.t.signalements;
  return sql`select (select min(${s.signalementAt}) from ${s}) as first, (select max(${s.signalementAt}) from ${s}) as last`;
}
