// The SQL of the dashboard calls, one statement each. Counts come from correlated COUNT(*)s over the
// (x_id, signalement_at) indexes, one per reference row or day: on SQLite that range-counts the index
// three times faster than GROUP BY over the same index (docs/decisions/0010-dashboard-data.md).
// scripts/bench-dashboard.ts runs these same statements raw to measure what the layers above cost.
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { dayBuckets, timestampParam } from '../../db/dates';
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

/** Reports by statut kind: 'treated' counts kinds treated and closed, as isTreated does. */
export function keyMetricsSql(db: Database, range: InstantRange): SQL {
  const { signalements: s, statuts: st } = db.t;
  const r = rangeCondition(db, s.signalementAt, range);
  return sql`select
    (select count(*) from ${s}${rangeWhere(db, s.signalementAt, range)}) as total,
    coalesce(sum(case when c.kind in ('treated', 'closed') then c.n end), 0) as treated,
    coalesce(sum(case when c.kind = 'closed' then c.n end), 0) as closed
  from (select ${st.kind} as kind, (select count(*) from ${s} where ${s.statutId} = ${st.id}${r}) as n
        from ${st} where ${st.kind} <> 'open') as c`;
}

const LOCATIONS = {
  Region: (db: Database) => ({ table: db.t.regions, fk: db.t.signalements.regionId }),
  District: (db: Database) => ({ table: db.t.districts, fk: db.t.signalements.districtId }),
  Commune: (db: Database) => ({ table: db.t.communes, fk: db.t.signalements.communeId }),
} as const;

/** Every location of the level with its count (0 included), most reports first. */
export function perLocalisationSql(db: Database, type: LocalisationType, range: InstantRange): SQL {
  const { table: l, fk } = LOCATIONS[type](db);
  const s = db.t.signalements;
  return sql`select ${l.code} as id, ${l.designation} as designation, ${l.latitude} as latitude,
      ${l.longitude} as longitude,
      (select count(*) from ${s} where ${fk} = ${l.id}${rangeCondition(db, s.signalementAt, range)}) as n
    from ${l} order by n desc, ${l.designation}, ${l.code}`;
}

export function perCanalSql(db: Database, range: InstantRange): SQL {
  const { canals: c, signalements: s } = db.t;
  return sql`select ${c.code} as id, ${c.designation} as designation,
      (select count(*) from ${s} where ${s.canalPrincipalId} = ${c.id}${rangeCondition(db, s.signalementAt, range)}) as n
    from ${c} order by ${c.position}, ${c.designation}`;
}

export function perNiveauSql(db: Database, range: InstantRange): SQL {
  const { niveaux: n, signalements: s } = db.t;
  return sql`select ${n.code} as code, ${n.designation} as designation, ${n.color} as color,
      (select count(*) from ${s} where ${s.niveauId} = ${n.id}${rangeCondition(db, s.signalementAt, range)}) as n
    from ${n} order by ${n.rank}, ${n.designation}`;
}

export function perResultatSql(db: Database, range: InstantRange): SQL {
  const { resultats: res, signalements: s } = db.t;
  return sql`select ${res.code} as code, ${res.designation} as designation,
      (select count(*) from ${s} where ${s.resultatId} = ${res.id}${rangeCondition(db, s.signalementAt, range)}) as n
    from ${res} order by ${res.position}, ${res.designation}`;
}

/**
 * Reports per subject. Without a range, the subject index is counted directly. With one, the reports
 * of the range are walked through the signalement_at index and their subjects looked up by primary key
 * (CROSS JOIN fixes that join order on SQLite; on PostgreSQL it is an ordinary inner join).
 */
export function perSubjectSql(db: Database, range: InstantRange): SQL {
  const { subjects: sub, signalementSubjects: ss, signalements: s } = db.t;
  if (!range.start && !range.end) {
    return sql`select ${sub.code} as code, ${sub.designation} as designation,
        (select count(*) from ${ss} where ${ss.subjectId} = ${sub.id}) as n
      from ${sub} order by n desc, ${sub.position}, ${sub.designation}`;
  }
  return sql`select ${sub.code} as code, ${sub.designation} as designation, coalesce(c.n, 0) as n
    from ${sub} left join (
      select ${ss.subjectId} as subject_id, count(*) as n
      from ${s} cross join ${ss}
      where ${ss.signalementId} = ${s.id}${rangeCondition(db, s.signalementAt, range)}
      group by ${ss.subjectId}
    ) as c on c.subject_id = ${sub.id}
    order by n desc, ${sub.position}, ${sub.designation}`;
}

/** One row per UTC day from `first` to `last` (UTC midnights, inclusive), 0 for days without reports. */
export function perDaySql(db: Database, first: Date, last: Date): SQL {
  const s = db.t.signalements;
  return sql`select b.day as day,
      (select count(*) from ${s} where ${s.signalementAt} >= b.lo and ${s.signalementAt} < b.hi) as n
    from ${dayBuckets(db.engine, first, last)} as b order by b.day`;
}

/** First and last signalementAt, two index seeks. */
export function reportBoundsSql(db: Database): SQL {
  const s = db.t.signalements;
  return sql`select (select min(${s.signalementAt}) from ${s}) as first, (select max(${s.signalementAt}) from ${s}) as last`;
}
