// SQL of the period analysis ('Vue d'ensemble des plaintes'). Its windows end at the current instant,
// not at a day boundary, so it counts the reports themselves (correlated counts over the
// (x_id, signalement_at) indexes) rather than the per-day counts of queries.ts.
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import type { Bucket } from '#server/db/dates';
import type { InstantRange } from './schema';

/** ` and col >= start and col < end`, for the bounds that are set. */
function rangeCondition(db: Database, column: AnyColumn | SQL, range: InstantRange): SQL {
  const parts: SQL[] = [];
  if (range.start) parts.push(sql` and ${column} >= ${db.dialect.timestamp(range.start)}`);
  if (range.end) parts.push(sql` and ${column} < ${db.dialect.timestamp(range.end)}`);
  return sql.join(parts);
}

/**
 * ` where col >= start and col < end`, or nothing: a bare `select count(*)` is answered from the b-tree
 * page counts on SQLite, where any WHERE clause, even `1 = 1`, walks every entry.
 */
function rangeWhere(db: Database, column: AnyColumn | SQL, range: InstantRange): SQL {
  const parts: SQL[] = [];
  if (range.start) parts.push(sql`${column} >= ${db.dialect.timestamp(range.start)}`);
  if (range.end) parts.push(sql`${column} < ${db.dialect.timestamp(range.end)}`);
  return parts.length ? sql` where ${sql.join(parts, sql` and `)}` : sql``;
}

const TOP = 5;
const DISTRIBUTION_TOP = 10;

/** Reports received in the range: total, without statut, treated (kinds treated + closed), closed, mean days to close. */
export function windowSummarySql(db: Database, range: InstantRange): SQL {
  const { signalements: s, statuts: st } = db.t;
  const r = rangeCondition(db, s.signalementAt, range);
  return sql`select
    (select count(*) from ${s}${rangeWhere(db, s.signalementAt, range)}) as total,
    (select count(*) from ${s} where ${s.statutId} is null${r}) as waiting,
    coalesce(sum(case when c.kind in ('treated', 'closed') then c.n end), 0) as treated,
    coalesce(sum(case when c.kind = 'closed' then c.n end), 0) as closed,
    (select avg(${db.dialect.daysBetween(s.signalementAt, s.closeAt)}) from ${s} where ${s.closeAt} is not null${r}) as avg_days
  from (select ${st.kind} as kind, (select count(*) from ${s} where ${s.statutId} = ${st.id}${r}) as n
        from ${st} where ${st.kind} <> 'open') as c`;
}

export function receivedSql(db: Database, range: InstantRange): SQL {
  const s = db.t.signalements;
  return sql`select count(*) as n from ${s}${rangeWhere(db, s.signalementAt, range)}`;
}

/** Per bucket: reports received, and how many of them are treated today. */
export function seriesSql(db: Database, buckets: readonly Bucket[]): SQL {
  const { signalements: s, statuts: st } = db.t;
  const inBucket = sql`${s.signalementAt} >= b.lo and ${s.signalementAt} < b.hi`;
  return sql`select b.day as day,
      (select count(*) from ${s} where ${inBucket}) as received,
      (select count(*) from ${s} where ${s.statutId} in (select ${st.id} from ${st} where ${st.kind} <> 'open') and ${inBucket}) as resolved
    from ${db.dialect.listedBuckets(buckets)} as b order by b.day`;
}

export type CountedDimension = 'region' | 'district' | 'commune' | 'canal';

/** The DISTRIBUTION_TOP values of a single-valued dimension with the most reports in the range. */
export function dimensionSql(db: Database, dimension: CountedDimension, range: InstantRange): SQL {
  const s = db.t.signalements;
  const { table, fk } = {
    region: { table: db.t.regions, fk: s.regionId },
    district: { table: db.t.districts, fk: s.districtId },
    commune: { table: db.t.communes, fk: s.communeId },
    canal: { table: db.t.canals, fk: s.canalPrincipalId },
  }[dimension];
  return sql`select * from (
      select ${table.code} as code, ${table.designation} as designation,
        (select count(*) from ${s} where ${fk} = ${table.id}${rangeCondition(db, s.signalementAt, range)}) as n
      from ${table}) as x
    where x.n > 0 order by x.n desc, x.designation limit ${sql.raw(String(DISTRIBUTION_TOP))}`;
}

/** The DISTRIBUTION_TOP subjects or projects of the reports received in the range. */
export function linkedSql(db: Database, dimension: 'subject' | 'project', range: InstantRange): SQL {
  const { signalements: s, subjects, projects, signalementSubjects, signalementProjects } = db.t;
  const [table, link, fk, label] =
    dimension === 'subject'
      ? [subjects, signalementSubjects, signalementSubjects.subjectId, subjects.designation]
      : [
          projects,
          signalementProjects,
          signalementProjects.projectId,
          sql`${projects.sigle} || ' — ' || ${projects.designation}`,
        ];
  return sql`select ${table.code} as code, ${label} as designation, c.n as n
    from ${table} join (
      select ${fk} as ref_id, count(*) as n
      from ${s} cross join ${link}
      where ${link.signalementId} = ${s.id}${rangeCondition(db, s.signalementAt, range)}
      group by ${fk}
    ) as c on c.ref_id = ${table.id}
    order by c.n desc, designation limit ${sql.raw(String(DISTRIBUTION_TOP))}`;
}

/** The statut ids of each kind group, read first so that the planners see the values (and their statistics). */
export interface StatutIds {
  open: readonly number[];
  done: readonly number[];
}

export function statutIdsSql(db: Database): SQL {
  const st = db.t.statuts;
  return sql`select ${st.id} as id, ${st.kind} as kind from ${st}`;
}

/** `column in (1, 2)` with the ids written out (integers read from the database), or false when none. */
function statutIn(column: AnyColumn, ids: readonly number[]): SQL {
  if (ids.length === 0) return sql`1 = 0`;
  return sql`${column} in (${sql.raw(ids.map((id) => String(Math.trunc(Number(id)))).join(', '))})`;
}

/** The open reports (no statut, or a statut of kind open) as two ranges of the statut index, with their due day. */
function openReports(db: Database, statuts: StatutIds): SQL {
  const s = db.t.signalements;
  return sql`(select ${s.id} as id, ${s.dueDay} as due_day from ${s} where ${s.statutId} is null
    union all
    select ${s.id} as id, ${s.dueDay} as due_day from ${s} where ${statutIn(s.statutId, statuts.open)})`;
}

/**
 * The staff handling reports (docs/decisions/0012): per assignee, the reports received in the range and
 * treated or closed today (handled) with the mean days to close those closed, and now, the open reports
 * assigned (open) and those of them past their due day (overdue: due_day < today). The most overdue first,
 * then the most open, then the most handled. Each figure walks an index: the signalement_at range joined
 * to the assignees' primary key, and the open reports (statut index) joined the same way.
 */
export function topUsersSql(db: Database, range: InstantRange, today: number, statuts: StatutIds): SQL {
  const { signalements: s, signalementAssignees: a, utilisateurs: u, utilisateurRoles: role } = db.t;
  const handled = sql`select ${a.userId} as user_id, count(*) as n,
      avg(case when ${s.closeAt} is not null then ${db.dialect.daysBetween(s.signalementAt, s.closeAt)} end) as avg_days
    from ${s} join ${a} on ${a.signalementId} = ${s.id}
    where ${statutIn(s.statutId, statuts.done)}${rangeCondition(db, s.signalementAt, range)}
    group by ${a.userId}`;
  const load = sql`select ${a.userId} as user_id, count(*) as n,
      sum(case when o.due_day < ${today} then 1 else 0 end) as overdue
    from ${openReports(db, statuts)} as o join ${a} on ${a.signalementId} = o.id
    group by ${a.userId}`;
  return sql`select ${u.nomPrenom} as name, ${u.email} as email, ${role.designation} as role,
      coalesce(h.n, 0) as handled, h.avg_days as avg_days, coalesce(l.n, 0) as open, coalesce(l.overdue, 0) as overdue
    from ${u} join ${role} on ${role.id} = ${u.roleId}
      left join (${handled}) as h on h.user_id = ${u.id}
      left join (${load}) as l on l.user_id = ${u.id}
    where h.user_id is not null or l.user_id is not null
    order by overdue desc, open desc, handled desc, name limit ${sql.raw(String(TOP))}`;
}

/** Partners with the most reports received in the range, and the mean days to close those closed. */
export function topPartnersSql(db: Database, range: InstantRange): SQL {
  const { signalements: s, partenaires: p } = db.t;
  const r = rangeCondition(db, s.signalementAt, range);
  // The mean is computed for the TOP rows only: the inner LIMIT keeps the subquery from being flattened.
  return sql`select y.code, y.designation, y.color, y.n,
      (select avg(${db.dialect.daysBetween(s.signalementAt, s.closeAt)}) from ${s}
        where ${s.partenaireId} = y.id and ${s.closeAt} is not null${r}) as avg_days
    from (select * from (
        select ${p.id} as id, ${p.code} as code, ${p.designation} as designation, ${p.color} as color,
          (select count(*) from ${s} where ${s.partenaireId} = ${p.id}${r}) as n
        from ${p}) as x
      where x.n > 0 order by x.n desc, x.designation limit ${sql.raw(String(TOP))}) as y
    order by y.n desc, y.designation`;
}

/**
 * Reports needing attention now: open reports of the highest niveau rank (urgent), reports past their due
 * day (overdue, the due-day index: docs/decisions/0032), open reports without a niveau (untriaged) and open
 * reports nobody is assigned to (unassigned: the statut index, then the assignees' primary key).
 */
export function alertsSql(db: Database, today: number, statuts: StatutIds): SQL {
  const { signalements: s, niveaux: n, signalementAssignees: a } = db.t;
  const open = sql`(${s.statutId} is null or ${statutIn(s.statutId, statuts.open)})`;
  const topRank = sql`(select max(${n.rank}) from ${n})`;
  const noAssignee = sql`not exists (select 1 from ${a} where ${a.signalementId} = ${s.id})`;
  return sql`select
    (select ${n.designation} from ${n} where ${n.rank} = ${topRank} order by ${n.designation} limit 1) as top_niveau,
    (select count(*) from ${s} where ${s.niveauId} in (select ${n.id} from ${n} where ${n.rank} = ${topRank}) and ${open}) as urgent,
    (select count(*) from ${s} where ${s.dueDay} < ${today}) as overdue,
    (select count(*) from ${s} where ${s.niveauId} is null and ${open}) as untriaged,
    (select count(*) from ${s} where ${s.statutId} is null and ${noAssignee})
      + (select count(*) from ${s} where ${statutIn(s.statutId, statuts.open)} and ${noAssignee}) as unassigned`;
}
